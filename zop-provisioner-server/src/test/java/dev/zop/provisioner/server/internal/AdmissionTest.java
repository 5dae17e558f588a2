package dev.zop.provisioner.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void theQueuedRunInArrivalOrder() throws Exception {
    Admission admission = new Admission(1, Duration.ofMinutes(5));
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int caller = i;
      calls.add(pool.submit(() -> {
        try (Admission.Ticket slot = admission.enter()) {
          order.add(caller);
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          release.await();
          running.decrementAndGet();
        }
        return null;
      }));
      int queued = i;
      // the next caller arrives only once this one holds a slot or waits in the queue, so arrival order is known
      await().atMost(Duration.ofSeconds(30)).until(() -> order.size() + admission.waiting() == caller + 1
          && admission.waiting() == queued);
    }
    assertThat(order).containsExactly(0);
    release.countDown();
    for (Future<?> call : calls) {
      call.get(30, TimeUnit.SECONDS);
    }
    assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(most.get()).isEqualTo(1);
    assertThat(admission.overran()).isZero();
  }

  @Test
  void noMoreThanTheSlotsRunAtOnce() throws Exception {
    Admission admission = new Admission(3, Duration.ofMinutes(5));
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.add(pool.submit(() -> {
        try (Admission.Ticket slot = admission.enter()) {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          release.await();
          running.decrementAndGet();
        }
        return null;
      }));
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> running.get() == 3 && admission.waiting() == 7);
    release.countDown();
    for (Future<?> call : calls) {
      call.get(30, TimeUnit.SECONDS);
    }
    assertThat(most.get()).isEqualTo(3);
    assertThat(admission.overran()).isZero();
  }

  @Test
  void aRequestThatWaitedTheLongestWaitRunsWithoutASlotAndHandsNoneBack() {
    Admission admission = new Admission(1, Duration.ofMillis(20));
    Admission.Ticket holder = admission.enter();
    Admission.Ticket late = admission.enter(); // waits 20 ms for the held slot, then runs anyway
    assertThat(admission.overran()).isEqualTo(1);
    late.close();
    // had closing the late ticket added a slot, this one would have found it
    Admission.Ticket another = admission.enter();
    assertThat(admission.overran()).isEqualTo(2);
    another.close();
    holder.close();
    admission.enter().close();
    assertThat(admission.overran()).isEqualTo(2);
  }

  @Test
  void noSlotsMeansNoLimit() {
    Admission admission = new Admission(0, Duration.ZERO);
    List<Admission.Ticket> held = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      held.add(admission.enter());
    }
    assertThat(admission.overran()).isZero();
    held.forEach(Admission.Ticket::close);
  }
}

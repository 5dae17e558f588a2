package dev.zop.provisioner.notify;

import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivery off the engine's threads: {@link #send} queues the notification and returns; one thread per notifier
 * delivers it, retrying failures that may pass (a timeout, a 5xx) with exponential backoff up to a bound, and
 * records the outcome. A notification never holds up the job that raised it.
 */
public abstract class DeliveringNotifier implements Notifier, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DeliveringNotifier.class);
  private static final int KEPT = 200;

  private final String channel;
  private final RetryConfig retry;
  private final ExecutorService worker;
  private final Deque<Delivery> recent = new ArrayDeque<>();

  DeliveringNotifier(String channel, Settings<?> settings) {
    this(channel, settings.maxAttempts, settings.firstBackoff, settings.queueCapacity);
  }

  private DeliveringNotifier(String channel, int maxAttempts, Duration firstBackoff, int queueCapacity) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    this.channel = channel;
    this.retry = RetryConfig.custom()
        .maxAttempts(maxAttempts)
        .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(firstBackoff, 2.0, 0.2))
        .retryOnException(e -> e instanceof RetryableDeliveryException)
        .build();
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(queueCapacity),
        r -> {
          Thread t = new Thread(r, "zop-notify-" + channel);
          t.setDaemon(true);
          return t;
        });
  }

  /** Sends one notification once; throws {@link RetryableDeliveryException} for a failure worth another try. */
  abstract String deliver(String deliveryId, Notification notification) throws Exception;

  @Override
  public final void send(Notification notification) {
    String id = UUID.randomUUID().toString();
    try {
      worker.execute(() -> run(id, notification));
    } catch (RejectedExecutionException e) {
      record(new Delivery(id, channel, notification.template(), notification.orgId(), notification.jobId(), false,
          0, "not queued: the notifier is closed or its queue is full", Instant.now()));
    }
  }

  private void run(String id, Notification notification) {
    AtomicInteger attempts = new AtomicInteger();
    Retry attempt = Retry.of(channel + "-" + id, retry);
    Delivery outcome;
    try {
      String answer = attempt.executeCallable(() -> {
        attempts.incrementAndGet();
        return deliver(id, notification);
      });
      outcome = new Delivery(id, channel, notification.template(), notification.orgId(), notification.jobId(), true,
          attempts.get(), answer, Instant.now());
    } catch (Exception e) {
      outcome = new Delivery(id, channel, notification.template(), notification.orgId(), notification.jobId(), false,
          attempts.get(), e.getMessage(), Instant.now());
    }
    record(outcome);
  }

  private void record(Delivery delivery) {
    if (delivery.delivered()) {
      LOG.info("{} notification {} ({}) for job {} delivered after {} attempt(s)", channel, delivery.id(),
          delivery.template(), delivery.jobId(), delivery.attempts());
    } else {
      LOG.warn("{} notification {} ({}) for job {} not delivered after {} attempt(s): {}", channel, delivery.id(),
          delivery.template(), delivery.jobId(), delivery.attempts(), delivery.detail());
    }
    synchronized (recent) {
      recent.addFirst(delivery);
      while (recent.size() > KEPT) {
        recent.removeLast();
      }
    }
  }

  /** The most recent outcomes, newest first (the last 200). */
  public List<Delivery> deliveries() {
    synchronized (recent) {
      return List.copyOf(recent);
    }
  }

  /** Stops taking notifications and delivers those queued, waiting up to {@code grace}. */
  public void close(Duration grace) {
    worker.shutdown();
    try {
      if (!worker.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        worker.shutdownNow();
      }
    } catch (InterruptedException e) {
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /** How hard a notifier tries: the settings every notifier's builder shares. */
  public abstract static class Settings<B extends Settings<B>> {
    int maxAttempts = 5;
    Duration firstBackoff = Duration.ofSeconds(1);
    Duration timeout;
    int queueCapacity = 1000;

    Settings(Duration timeout) {
      this.timeout = timeout;
    }

    @SuppressWarnings("unchecked")
    private B self() {
      return (B) this;
    }

    /** Attempts per notification, the first included (default 5). */
    public B maxAttempts(int value) {
      this.maxAttempts = value;
      return self();
    }

    /** The wait before the second attempt; each later one doubles it, with jitter (default 1 s). */
    public B firstBackoff(Duration value) {
      this.firstBackoff = value;
      return self();
    }

    /** How long one attempt may take. */
    public B timeout(Duration value) {
      this.timeout = value;
      return self();
    }

    /** Notifications that may wait to be sent; more are recorded as not delivered (default 1000). */
    public B queueCapacity(int value) {
      this.queueCapacity = value;
      return self();
    }
  }

  /** A failure another attempt may get past: no answer, a timeout, a 5xx or a 429. */
  static final class RetryableDeliveryException extends Exception {
    RetryableDeliveryException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}

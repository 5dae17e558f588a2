package dev.zop.provisioner.server.internal;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lets at most {@code slots} requests run at once and queues the rest in arrival order, each for at most
 * {@code maxWait}; one that waited that long runs anyway, so a few slow calls (a discovery against a cloud, a
 * database created on a remote server) delay the others by that much at most and never stop the service.
 *
 * <p>Why: on a small machine a request's CPU is shared by every runnable thread, so with one thread per caller
 * each request takes as long as all of them together and the slowest wait several times the median; queued in
 * order, every request waits about as long as the others and the threads that run do not crowd each other (or
 * the JIT) off the cores. Requests held open on purpose (long polls, event streams) do not take a slot.
 */
public final class Admission {
  private static final Ticket FREE = () -> {};

  private final Semaphore slots;
  private final long maxWaitNanos;
  private final AtomicInteger waiting = new AtomicInteger();
  private final LongAdder overran = new LongAdder();

  /** {@code slots} of 0 admits every request at once. */
  public Admission(int slots, Duration maxWait) {
    if (slots < 0) {
      throw new IllegalArgumentException("slots must not be negative");
    }
    this.slots = slots == 0 ? null : new Semaphore(slots, true);
    this.maxWaitNanos = maxWait.toNanos();
  }

  /** What a request holds while it runs; closing it hands its slot to the next in line. */
  @FunctionalInterface
  public interface Ticket extends AutoCloseable {
    @Override
    void close();
  }

  /** Waits for a slot (at most the longest wait) and returns what to close when the request is done. */
  public Ticket enter() {
    if (slots == null) {
      return FREE;
    }
    waiting.incrementAndGet();
    try {
      // the timed form keeps the queue's order (the untimed tryAcquire would let a newcomer take a slot freed
      // for the one at the head), and returns at once when a slot is free and no one is queued
      if (slots.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS)) {
        return slots::release;
      }
      overran.increment();
      return FREE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // a stopping server interrupts; the request runs and meets the flag
      return FREE;
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** Requests queued for a slot right now. */
  public int waiting() {
    return waiting.get();
  }

  /** Requests that waited the longest wait and ran without a slot, since the start. */
  public long overran() {
    return overran.sum();
  }
}

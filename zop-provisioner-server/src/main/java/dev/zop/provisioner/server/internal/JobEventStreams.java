package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Subscription;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Serves a job's events as Server-Sent Events: those after {@code Last-Event-ID} (or {@code ?after=}) first, then
 * live ones, with a keep-alive comment when nothing happens, until the client goes away or the server stops.
 * Each event's {@code id} is its sequence number, so a client that reconnects resumes where it left off.
 *
 * <p>An open stream holds no thread: the request is asynchronous, events are queued as the engine's watcher
 * delivers them and written without blocking when the connection can take them, and one shared timer writes the
 * keep-alives. A reader that stops reading is dropped once its queue holds {@code maxUnsentBytes}, or more than
 * {@link #FAIR_SHARE_BYTES} while all queues together hold {@code maxUnsentTotalBytes}: however many readers stall,
 * what they hold is bounded, and each can reconnect with {@code Last-Event-ID} and miss nothing (the events are in
 * the store). Streams are bounded per caller (429) and in total (503), both with {@code Retry-After}.
 */
public final class JobEventStreams {
  /** What one stream may hold unsent before its reader counts as gone, by default. */
  public static final int DEFAULT_MAX_UNSENT_BYTES = 1 << 20;
  /** What all streams together may hold unsent, by default. */
  public static final long DEFAULT_MAX_UNSENT_TOTAL_BYTES = 64L << 20;
  /**
   * Past the total, a stream holding more than this unsent is dropped at its next frame: a reader that keeps up
   * holds next to nothing (its frames go out as they come), so what the budget holds is the stalled readers'.
   */
  static final int FAIR_SHARE_BYTES = 16 << 10;
  /** The response buffer of a stream: frames larger than it are written straight through. */
  static final int STREAM_BUFFER_BYTES = 512;
  private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

  private final Duration keepAlive;
  private final int maxStreams;
  private final int maxStreamsPerCaller;
  private final int maxUnsentBytes;
  private final long maxUnsentTotalBytes;
  /** What every open stream holds unsent, together. */
  private final AtomicLong unsentTotal = new AtomicLong();
  private final java.util.concurrent.atomic.LongAdder dropped = new java.util.concurrent.atomic.LongAdder();
  private final Set<Stream> open = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> perCaller = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "zop-sse-keepalive");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopping;

  public JobEventStreams(Duration keepAlive, int maxStreams, int maxStreamsPerCaller) {
    this(keepAlive, maxStreams, maxStreamsPerCaller, DEFAULT_MAX_UNSENT_BYTES, DEFAULT_MAX_UNSENT_TOTAL_BYTES);
  }

  public JobEventStreams(Duration keepAlive, int maxStreams, int maxStreamsPerCaller, int maxUnsentBytes,
      long maxUnsentTotalBytes) {
    this.maxUnsentBytes = maxUnsentBytes;
    this.maxUnsentTotalBytes = maxUnsentTotalBytes;
    this.keepAlive = keepAlive;
    this.maxStreams = maxStreams;
    this.maxStreamsPerCaller = maxStreamsPerCaller;
    long every = Math.max(10, keepAlive.toMillis() / 2);
    timer.scheduleWithFixedDelay(this::keepAlives, every, every, TimeUnit.MILLISECONDS);
  }

  /** Ends every open stream (their clients reconnect elsewhere), so a graceful shutdown is not held up by them. */
  public void stop() {
    stopping = true;
    open.forEach(Stream::end);
    timer.shutdownNow();
  }

  /** Streams open now. */
  public int open() {
    return open.size();
  }

  /** Bytes queued unsent, over every open stream. */
  public long unsent() {
    return unsentTotal.get();
  }

  /** Streams dropped because their reader stopped reading, since the service started. */
  public long droppedSlowReaders() {
    return dropped.sum();
  }

  Object serve(Call call) throws IOException {
    JobId id = Routes.job(call);
    call.zop().jobs().get(id); // 404 (or another org's job) before the stream starts
    long after = resumeAfter(call);
    if (stopping) {
      throw new ApiError(503, "shutting_down", "the service is stopping; reconnect to another instance");
    }
    String caller = call.caller().principal().orgId() + "/" + call.caller().principal().actor();
    admit(call, caller);
    Stream stream;
    try {
      HttpServletResponse response = call.ctx().res();
      response.setStatus(200);
      response.setContentType("text/event-stream");
      response.setCharacterEncoding("UTF-8");
      response.setHeader("Cache-Control", "no-cache");
      response.setHeader("X-Accel-Buffering", "no");
      // frames are written whole and flushed at once: a stream needs no aggregation buffer of its own, and Jetty's
      // default (32 KiB of direct memory per open response) held 10,000 streams at 320 MiB
      response.setBufferSize(STREAM_BUFFER_BYTES);
      ServletOutputStream out = response.getOutputStream();
      out.write(": stream of ".concat(id.value()).concat("\n\n").getBytes(StandardCharsets.UTF_8));
      out.flush(); // commits the response: from here on the dispatcher leaves it alone
      stream = new Stream(out, caller, after, call.json());
    } catch (IOException | RuntimeException e) {
      release(caller);
      throw e;
    }
    // the request goes asynchronous once this returns; then the stream subscribes, and no thread waits on it
    Provisioner zop = call.zop();
    call.ctx().future(() -> stream.start(zop, id));
    return null;
  }

  private void admit(Call call, String caller) {
    if (total.incrementAndGet() > maxStreams) {
      total.decrementAndGet();
      call.ctx().header("Retry-After", "5");
      throw new ApiError(503, "too_many_streams", "the service holds its most event streams (" + maxStreams
          + "); retry later, or poll GET /provisioning-jobs/{id}/events?after=");
    }
    boolean[] over = new boolean[1];
    // counted and checked in one step per caller, so two streams opening at once cannot both take the last slot
    perCaller.compute(caller, (c, held) -> {
      int now = held == null ? 0 : held;
      over[0] = now >= maxStreamsPerCaller;
      return over[0] ? held : Integer.valueOf(now + 1);
    });
    if (over[0]) {
      total.decrementAndGet();
      call.ctx().header("Retry-After", "5");
      throw new ApiError(429, "too_many_streams", "this caller holds its most event streams ("
          + maxStreamsPerCaller + "); close one first");
    }
  }

  private void release(String caller) {
    total.decrementAndGet();
    perCaller.computeIfPresent(caller, (c, held) -> held <= 1 ? null : held - 1);
  }

  private void keepAlives() {
    long idle = keepAlive.toNanos();
    long now = System.nanoTime();
    for (Stream stream : open) {
      if (now - stream.lastWrite >= idle) {
        stream.enqueue(KEEP_ALIVE);
      }
    }
  }

  private static long resumeAfter(Call call) {
    String header = call.header("Last-Event-ID");
    String value = header != null ? header : call.query("after");
    try {
      return value == null || value.isBlank() ? 0 : Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("Last-Event-ID", "invalid_value", "Last-Event-ID must be an event sequence number");
    }
  }

  /** One open stream: its unsent frames, written as the connection takes them. */
  private final class Stream implements WriteListener, JobEventListener {
    private final ServletOutputStream out;
    private final String caller;
    private final long after;
    private final ObjectMapper json;
    private final Queue<byte[]> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile Subscription subscription;
    private volatile long lastWrite = System.nanoTime();
    private boolean unflushed;

    Stream(ServletOutputStream out, String caller, long after, ObjectMapper json) {
      this.out = out;
      this.caller = caller;
      this.after = after;
      this.json = json;
    }

    CompletableFuture<Void> start(Provisioner zop, JobId id) {
      open.add(this);
      try {
        out.setWriteListener(this); // writes from here on never block
        subscription = zop.jobs().watch(id, this);
      } catch (RuntimeException e) {
        end();
      }
      if (stopping) {
        end();
      }
      return ended;
    }

    @Override
    public void onEvent(JobEvent event) {
      if (event.seq() <= after) {
        return;
      }
      try {
        enqueue(("id: " + event.seq() + "\nevent: " + event.type().wireName() + "\ndata: "
            + json.writeValueAsString(event) + "\n\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        end();
      }
    }

    void enqueue(byte[] frame) {
      boolean overrun;
      // counted under end()'s lock, which it takes once the stream has ended: the total never keeps a dropped
      // stream's bytes. end() itself runs outside it, as it completes the request.
      synchronized (pendingBytes) {
        if (ended.isDone()) {
          return;
        }
        long mine = pendingBytes.addAndGet(frame.length);
        long all = unsentTotal.addAndGet(frame.length);
        overrun = mine > maxUnsentBytes || (all > maxUnsentTotalBytes && mine > FAIR_SHARE_BYTES);
        if (!overrun) {
          pending.add(frame);
        }
      }
      if (overrun) {
        dropped.increment();
        end(); // a reader that stopped reading: its queue is let go rather than held
        return;
      }
      drain();
    }

    /** Writes what is queued while the connection takes it; Jetty calls back when it can take more. */
    private synchronized void drain() {
      try {
        while (!ended.isDone() && out.isReady()) {
          byte[] next = pending.poll();
          if (next == null) {
            if (!unflushed) {
              return;
            }
            unflushed = false;
            out.flush();
            continue;
          }
          synchronized (pendingBytes) {
            if (ended.isDone()) {
              return; // end() has let go of what was queued, this frame's bytes with it
            }
            pendingBytes.addAndGet(-next.length);
            unsentTotal.addAndGet(-next.length);
          }
          out.write(next);
          unflushed = true;
          lastWrite = System.nanoTime();
        }
      } catch (IOException | IllegalStateException gone) {
        end(); // the client went away
      }
    }

    @Override
    public void onWritePossible() {
      drain();
    }

    @Override
    public void onError(Throwable failure) {
      end();
    }

    void end() {
      if (!ended.complete(null)) {
        return;
      }
      Subscription watching = subscription;
      if (watching != null) {
        watching.close();
      }
      open.remove(this);
      synchronized (pendingBytes) {
        pending.clear();
        unsentTotal.addAndGet(-pendingBytes.getAndSet(0));
      }
      release(caller);
    }
  }
}

package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Subscription;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Serves a job's events as Server-Sent Events: those after {@code Last-Event-ID} (or {@code ?after=}) first, then
 * live ones, with a keep-alive comment when nothing happens, until the client goes away or the server stops.
 * Each event's {@code id} is its sequence number, so a client that reconnects resumes where it left off.
 */
public final class JobEventStreams {
  private static final Duration STOP_CHECK = Duration.ofMillis(200);

  private final Duration keepAlive;
  private final AtomicBoolean stopping = new AtomicBoolean();

  public JobEventStreams(Duration keepAlive) {
    this.keepAlive = keepAlive;
  }

  /** Ends every open stream (their clients reconnect elsewhere), so a graceful shutdown is not held up by them. */
  public void stop() {
    stopping.set(true);
  }

  Object serve(Call call) throws IOException, InterruptedException {
    JobId id = Routes.job(call);
    call.zop().jobs().get(id); // 404 (or another org's job) before the stream starts
    long after = resumeAfter(call);
    BlockingQueue<JobEvent> queue = new LinkedBlockingQueue<>();
    HttpServletResponse response = call.ctx().res();
    response.setStatus(200);
    response.setContentType("text/event-stream");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-cache");
    response.setHeader("X-Accel-Buffering", "no");
    OutputStream out = response.getOutputStream();
    out.write(": stream of ".concat(id.value()).concat("\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush(); // commits the response: from here on the dispatcher leaves it alone
    long lastWrite = System.nanoTime();
    try (Subscription ignored = call.zop().jobs().watch(id, queue::add)) {
      while (!stopping.get()) {
        // short polls, so a stopping server is not held up by an idle stream
        JobEvent event = queue.poll(STOP_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
          if (System.nanoTime() - lastWrite < keepAlive.toNanos()) {
            continue;
          }
          out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
        } else if (event.seq() > after) {
          String frame = "id: " + event.seq() + "\nevent: " + event.type().wireName() + "\ndata: "
              + call.json().writeValueAsString(event) + "\n\n";
          out.write(frame.getBytes(StandardCharsets.UTF_8));
        } else {
          continue;
        }
        out.flush(); // throws once the client has gone, which ends the stream and its subscription
        lastWrite = System.nanoTime();
      }
    } catch (IOException clientGone) {
      // the normal end of a stream
    }
    return null;
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
}

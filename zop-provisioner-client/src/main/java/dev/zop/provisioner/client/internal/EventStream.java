package dev.zop.provisioner.client.internal;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.Subscription;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's Server-Sent-Events stream, read on one daemon thread. A dropped connection is resumed from the last
 * event seen ({@code Last-Event-ID}), so the listener gets every event once and in order until it closes the
 * subscription.
 */
final class EventStream implements Subscription {
  private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
  private static final long RECONNECT_MILLIS = 500;

  private final HttpTransport http;
  private final OkHttpClient streaming;
  private final JobId job;
  private final JobEventListener listener;
  private final AtomicReference<Call> current = new AtomicReference<>();
  private volatile boolean closed;
  private long lastSeq;
  /** The open stream's body; read by the reader thread only. */
  private ResponseBody body;

  private EventStream(HttpTransport http, JobId job, JobEventListener listener) {
    this.http = http;
    // an idle stream is normal: the server's keep-alive comments arrive every few seconds, not a read timeout
    this.streaming = http.http().newBuilder().readTimeout(0, TimeUnit.MILLISECONDS)
        .callTimeout(0, TimeUnit.MILLISECONDS).build();
    this.job = job;
    this.listener = listener;
  }

  static Subscription open(HttpTransport http, JobId job, JobEventListener listener) {
    EventStream stream = new EventStream(http, job, listener);
    stream.connect(); // the first connection is made on the caller's thread, so a bad id fails the call
    Thread reader = new Thread(stream::run, "zop-watch-" + job.value());
    reader.setDaemon(true);
    reader.start();
    return stream;
  }

  private void connect() {
    Request request = new Request.Builder()
        .url(http.url(RemoteJobs.JOBS, job.value(), "events", "stream").build())
        .header("Accept", "text/event-stream")
        .header("Last-Event-ID", Long.toString(lastSeq))
        .build();
    Call call = streaming.newCall(request);
    current.set(call);
    try {
      body = streamBody(call);
    } catch (IOException e) {
      body = null;
    }
  }

  private ResponseBody streamBody(Call call) throws IOException {
    okhttp3.Response response = call.execute();
    if (!response.isSuccessful()) {
      byte[] bytes = response.body().bytes();
      response.close();
      throw RemoteErrors.toException(response.code(), bytes, http.json(), response.header("X-Request-Id"));
    }
    return response.body();
  }

  private void run() {
    while (!closed) {
      if (body != null) {
        try (ResponseBody open = body) {
          read(open.source());
        } catch (IOException e) {
          if (!closed) {
            LOG.debug("event stream of {} dropped; resuming after event {}", job, lastSeq, e);
          }
        }
      }
      if (closed) {
        return;
      }
      sleep();
      try {
        connect();
      } catch (NotFoundException e) {
        LOG.warn("job {} is gone; its event stream ends", job);
        return;
      } catch (ProvisionerException e) {
        LOG.debug("cannot resume the event stream of {}: {}", job, e.getMessage());
      }
    }
  }

  private void read(BufferedSource source) throws IOException {
    StringBuilder data = new StringBuilder();
    String line;
    while (!closed && (line = source.readUtf8Line()) != null) {
      if (line.isEmpty()) {
        if (!data.isEmpty()) {
          JobEvent event = http.json().readValue(data.toString(), JobEvent.class);
          data.setLength(0);
          if (event.seq() > lastSeq) {
            lastSeq = event.seq();
            listener.onEvent(event);
          }
        }
      } else if (line.startsWith("data:")) {
        data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
      }
      // "id:", "event:" and ":" comment lines carry nothing the JSON does not
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(RECONNECT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    Call call = current.get();
    if (call != null) {
      call.cancel();
    }
  }
}

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
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;
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
  /** The open stream; read by the reader thread only. */
  private okhttp3.Response response;

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
      response = open(call);
    } catch (IOException e) {
      response = null;
    }
  }

  private okhttp3.Response open(Call call) throws IOException {
    okhttp3.Response opened = call.execute();
    if (!opened.isSuccessful()) {
      byte[] bytes = opened.body().bytes();
      opened.close();
      throw RemoteErrors.toException(opened.code(), bytes, http.json(), opened.header("X-Request-Id"));
    }
    return opened;
  }

  private void run() {
    while (!closed) {
      if (response != null) {
        // okhttp-sse parses the stream (multi-line data joined with newlines, comments skipped) until it ends
        EventSources.processResponse(response, new EventSourceListener() {
          @Override
          public void onEvent(EventSource source, String id, String type, String data) {
            if (closed) {
              source.cancel();
              return;
            }
            try {
              JobEvent event = http.json().readValue(data, JobEvent.class);
              if (event.seq() > lastSeq) {
                lastSeq = event.seq();
                listener.onEvent(event);
              }
            } catch (IOException e) {
              LOG.warn("an event of {} that is not a job event was skipped", job, e);
            }
          }

          @Override
          public void onFailure(EventSource source, Throwable error, okhttp3.Response failed) {
            if (!closed) {
              LOG.debug("event stream of {} dropped; resuming after event {}", job, lastSeq, error);
            }
          }
        });
        response = null;
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

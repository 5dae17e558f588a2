package dev.zop.provisioner.client.internal;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Page;
import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.HttpUrl;

/**
 * What GETs answered with a validator ({@code ETag}), kept by URL so that the next GET of the same URL asks
 * {@code If-None-Match} and, told {@code 304 Not Modified}, returns what it read before instead of reading and
 * parsing the same bytes again. The service still reads the state afresh for every request; only the transfer and
 * the parse are saved. A list of finished jobs that a dashboard polls is the case this is for.
 *
 * <p>Only immutable values are kept: a finished job, or a page of them (the service gives no validator to anything
 * else). The least recently used answers go first, beyond {@link #MAX_BYTES} of response bodies in all.
 */
final class ReadAnswers {
  /** Response bodies' bytes in all: a few pages of jobs. */
  static final long MAX_BYTES = 4L << 20;
  private static final int MAX_ENTRIES = 256;

  record Read(String etag, Type type, Object value, int bytes) {}

  private final LinkedHashMap<String, Read> reads = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;

  /** What a GET of {@code url} for {@code type} answered last, with its validator; null when nothing is kept. */
  Read find(HttpUrl url, Type type) {
    synchronized (reads) {
      Read read = reads.get(url.toString());
      return read != null && read.type().equals(type) ? read : null;
    }
  }

  /** Keeps the answer of a GET when it came with a validator and is immutable. */
  void keep(HttpUrl url, Type type, String etag, Object value, int size) {
    String key = url.toString();
    synchronized (reads) {
      Read old = etag != null && immutable(value) ? reads.put(key, new Read(etag, type, value, size))
          : reads.remove(key);
      if (old != null) {
        bytes -= old.bytes();
      }
      if (etag != null && immutable(value)) {
        bytes += size;
      }
      for (Iterator<Map.Entry<String, Read>> eldest = reads.entrySet().iterator();
          (bytes > MAX_BYTES || reads.size() > MAX_ENTRIES) && eldest.hasNext(); ) {
        bytes -= eldest.next().getValue().bytes();
        eldest.remove();
      }
    }
  }

  /** Answers kept now (for tests). */
  int size() {
    synchronized (reads) {
      return reads.size();
    }
  }

  /** A finished job or a page of them: records of immutable parts (a component's values may nest maps). */
  private static boolean immutable(Object value) {
    if (value instanceof Job job) {
      return finished(job);
    }
    return value instanceof Page<?> page && page.items().stream().allMatch(i -> i instanceof Job job && finished(job));
  }

  private static boolean finished(Job job) {
    return job.status().isTerminal() && job.kind() != JobKind.COMPONENT;
  }
}

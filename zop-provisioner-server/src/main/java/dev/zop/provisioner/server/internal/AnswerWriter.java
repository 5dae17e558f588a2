package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Page;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a route's result in the {@code {"data": ...}} envelope, byte for byte as the mapper writes the envelope
 * as a map. A finished job's JSON is kept by the job object it was written from: the engine hands out the same
 * immutable object for a finished job as long as its row is unchanged (a list of finished jobs repeats them), so
 * writing it again is a copy of the kept text. Kept by identity with weak keys: an entry goes when the engine no
 * longer holds its job, and a new object, changed or not, is written afresh.
 *
 * <p>An answer made only of kept jobs (one finished job, or a page of them) also carries a validator: a digest of
 * its bytes, worked out from the kept jobs' own digests and the cursor without writing the bytes. A caller that
 * sends it back in {@code If-None-Match} is told {@code 304 Not Modified} and keeps what it read before; the body is
 * then never written.
 */
final class AnswerWriter {
  /** About eight megabytes of JSON text (a character each), several thousand finished jobs. */
  private static final long KEPT_CHARACTERS = 8_000_000;
  /** 128 bits of SHA-256: an accidental match between two different bodies is not a practical concern. */
  private static final int TAG_BYTES = 16;

  private final ObjectMapper json;
  private final Cache<Job, Kept> finishedJobs = Caffeine.newBuilder().weakKeys()
      .maximumWeight(KEPT_CHARACTERS).weigher((Job job, Kept kept) -> kept.text.charLength()).build();

  /** A finished job's JSON and the SHA-256 of its UTF-8 bytes. */
  private record Kept(SerializedString text, byte[] digest) {}

  /**
   * What a route answers: its validator, or null when it has none, and its body, written only when asked for.
   */
  interface Answer {
    String etag();

    byte[] body() throws IOException;
  }

  AnswerWriter(ObjectMapper json) {
    this.json = json;
  }

  Answer answer(Object data) {
    if (data instanceof Job job) {
      return jobs(new Job[] {job}, false, null);
    }
    if (data instanceof Page<?> page && page.items().stream().allMatch(Job.class::isInstance)) {
      return jobs(page.items().toArray(new Job[0]), true, page.nextCursor());
    }
    return answer(null, () -> json.writeValueAsBytes(envelope(data)));
  }

  byte[] write(Object data) throws IOException {
    return answer(data).body();
  }

  /** The envelope as a map, which the mapper writes as every answer's bytes should be. */
  static Map<String, Object> envelope(Object data) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    if (data instanceof Page<?> page) {
      envelope.put("data", page.items());
      envelope.put("nextCursor", page.nextCursor());
    } else {
      envelope.put("data", data);
    }
    return envelope;
  }

  /**
   * Whether a job's JSON is kept: a finished job's row, and so its view, changes only by a later write the engine
   * reads afresh. A component's values may nest maps a holder of the object could change in place.
   */
  static boolean keeps(Job job) {
    return job.status().isTerminal() && job.kind() != JobKind.COMPONENT;
  }

  private Answer jobs(Job[] jobs, boolean page, String nextCursor) {
    Kept[] kept = new Kept[jobs.length];
    boolean all = true;
    for (int i = 0; i < jobs.length; i++) {
      if (keeps(jobs[i])) {
        kept[i] = finishedJobs.get(jobs[i], this::kept);
      } else {
        all = false;
      }
    }
    return answer(all ? etag(kept, page, nextCursor) : null, () -> body(jobs, kept, page, nextCursor));
  }

  private byte[] body(Job[] jobs, Kept[] kept, boolean page, String nextCursor) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024 * (jobs.length + 1));
    try (JsonGenerator gen = json.createGenerator(out)) {
      gen.writeStartObject();
      gen.writeFieldName("data");
      if (page) {
        gen.writeStartArray();
      }
      for (int i = 0; i < jobs.length; i++) {
        if (kept[i] != null) {
          gen.writeRawValue(kept[i].text);
        } else {
          gen.writeObject(jobs[i]);
        }
      }
      if (page) {
        gen.writeEndArray();
        gen.writeStringField("nextCursor", nextCursor);
      }
      gen.writeEndObject();
    }
    return out.toByteArray();
  }

  /**
   * The weak validator of an answer of kept jobs: a function of its bytes, since the envelope around the jobs' texts
   * is fixed by whether it is a page and by its cursor, and each text by its digest.
   */
  private static String etag(Kept[] kept, boolean page, String nextCursor) {
    MessageDigest digest = sha256();
    digest.update((byte) (page ? 'p' : 'j'));
    for (Kept k : kept) {
      digest.update(k.digest);
    }
    if (nextCursor != null) {
      digest.update((byte) 'c');
      digest.update(nextCursor.getBytes(StandardCharsets.UTF_8));
    }
    byte[] tag = java.util.Arrays.copyOf(digest.digest(), TAG_BYTES);
    return "W/\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(tag) + "\"";
  }

  private Kept kept(Job job) {
    try {
      String text = json.writeValueAsString(job);
      return new Kept(new SerializedString(text), sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a job could not be written as JSON", e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @FunctionalInterface
  private interface Body {
    byte[] write() throws IOException;
  }

  private static Answer answer(String etag, Body body) {
    return new Answer() {
      @Override
      public String etag() {
        return etag;
      }

      @Override
      public byte[] body() throws IOException {
        return body.write();
      }
    };
  }

  /**
   * Whether {@code ifNoneMatch} (a request's {@code If-None-Match}) names {@code etag}, compared weakly as RFC 9110
   * section 13.1.2 has it for GET: {@code *}, or one of a comma-separated list of entity tags, weak or not.
   */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null || etag == null) {
      return false;
    }
    String opaque = etag.substring(2);
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.trim();
      if (tag.equals("*")) {
        return true;
      }
      if (tag.startsWith("W/")) {
        tag = tag.substring(2);
      }
      if (tag.equals(opaque)) {
        return true;
      }
    }
    return false;
  }
}

package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.Page;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a route's result in the {@code {"data": ...}} envelope, byte for byte as the mapper writes the envelope
 * as a map. A finished job's JSON is kept by the job object it was written from: the engine hands out the same
 * immutable object for a finished job as long as its row is unchanged (a list of finished jobs repeats them), so
 * writing it again is a copy of the kept text. Kept by identity with weak keys: an entry goes when the engine no
 * longer holds its job, and a new object, changed or not, is written afresh.
 */
final class AnswerWriter {
  /** About eight megabytes of JSON text (a character each), several thousand finished jobs. */
  private static final long KEPT_CHARACTERS = 8_000_000;

  private final ObjectMapper json;
  private final Cache<Job, SerializedString> finishedJobs = Caffeine.newBuilder().weakKeys()
      .maximumWeight(KEPT_CHARACTERS).weigher((Job job, SerializedString text) -> text.charLength()).build();

  AnswerWriter(ObjectMapper json) {
    this.json = json;
  }

  byte[] write(Object data) throws IOException {
    if (data instanceof Job job) {
      return jobs(new Job[] {job}, false, null);
    }
    if (data instanceof Page<?> page && page.items().stream().allMatch(Job.class::isInstance)) {
      return jobs(page.items().toArray(new Job[0]), true, page.nextCursor());
    }
    return json.writeValueAsBytes(envelope(data));
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

  private byte[] jobs(Job[] jobs, boolean page, String nextCursor) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024 * (jobs.length + 1));
    try (JsonGenerator gen = json.createGenerator(out)) {
      gen.writeStartObject();
      gen.writeFieldName("data");
      if (page) {
        gen.writeStartArray();
      }
      for (Job job : jobs) {
        if (job.status().isTerminal()) {
          gen.writeRawValue(finishedJobs.get(job, this::text));
        } else {
          gen.writeObject(job);
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

  private SerializedString text(Job job) {
    try {
      return new SerializedString(json.writeValueAsString(job));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a job could not be written as JSON", e);
    }
  }
}

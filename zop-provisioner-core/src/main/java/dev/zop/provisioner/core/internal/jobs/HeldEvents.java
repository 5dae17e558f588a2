package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's history entries as text: one JSON object a line, in order, with no number of their own. They are held on
 * the job's row ({@code provisioning_jobs.held_events}) until {@link JobRepository#HOLD} of them are, then written as
 * one {@code job_events} row (its {@code events}). An append is then a concatenation the database does itself, so
 * writers of one job need not know each other's entries; the entries are numbered from the last one, whose number
 * the row keeps beside them ({@code last_event}, a {@code job_events} row's {@code last_number}).
 */
final class HeldEvents {
  private HeldEvents() {}

  // field names made once: a generator escapes a name given as a String each time it writes it
  private static final SerializedString TYPE = new SerializedString("type");
  private static final SerializedString STEP = new SerializedString("step");
  private static final SerializedString STATUS = new SerializedString("status");
  private static final SerializedString MESSAGE = new SerializedString("message");
  private static final SerializedString AT = new SerializedString("at");

  /** The lines of {@code events}, each ending in a line break, stamped {@code at} (to the microsecond). */
  static String lines(List<NewEvent> events, Instant at) {
    String when = Json.instant(at.truncatedTo(ChronoUnit.MICROS));
    StringWriter out = new StringWriter(128 * events.size());
    try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out)) {
      // one generator for all of them: a line break, not the space it would put, between one entry and the next
      json.setRootValueSeparator(null);
      for (NewEvent event : events) {
        json.writeStartObject();
        json.writeFieldName(TYPE);
        json.writeString(event.type().wireName());
        if (event.stepName() != null) {
          json.writeFieldName(STEP);
          json.writeString(event.stepName());
        }
        json.writeFieldName(STATUS);
        json.writeString(event.status().wireName());
        if (event.message() != null) {
          json.writeFieldName(MESSAGE);
          json.writeString(event.message());
        }
        json.writeFieldName(AT);
        json.writeString(when);
        json.writeEndObject();
        // JSON escapes a line break inside a string, so a line is always one entry
        json.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write a job's history entry", e);
    }
    return out.toString();
  }

  /** The entries of {@code text}, the last numbered {@code lastNumber} and each before it one less; none for null. */
  static List<JobEvent> read(JobId job, long lastNumber, String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    String[] lines = text.split("\n");
    List<JobEvent> events = new ArrayList<>(lines.length);
    long number = lastNumber - lines.length + 1;
    for (String line : lines) {
      JsonNode entry;
      try {
        entry = Json.MAPPER.readTree(line);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a history entry of job " + job + " is unreadable", e);
      }
      events.add(new JobEvent(job, number++, JobEventType.fromWire(entry.get("type").asText()),
          text(entry, "step"), JobStatus.fromWire(entry.get("status").asText()), text(entry, "message"),
          Instant.parse(entry.get("at").asText())));
    }
    return events;
  }

  private static String text(JsonNode entry, String field) {
    JsonNode value = entry.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}

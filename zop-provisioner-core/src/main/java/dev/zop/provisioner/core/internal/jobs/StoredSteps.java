package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.internal.store.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.UUID;

/**
 * A job's steps as its row stores them: one JSON array in {@code provisioning_jobs.steps}, in phase and index
 * order (see {@code V11__Steps_on_the_job_row}). A step's write is then part of the fence's own update of the
 * job's row, which a write makes anyway, rather than a row of its own.
 */
final class StoredSteps {
  /** The order a job's steps are stored and read in: by phase (its wire name), then index. */
  static final Comparator<StepRecord> ORDER = Comparator.comparing((StepRecord s) -> s.phase().wireName())
      .thenComparingInt(StepRecord::index);

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Stored(String id, String phase, int index, String name, String status, int attempts,
      List<String> permissions, Map<String, String> outputs, Failure failure, Instant startedAt, Instant finishedAt,
      String templateStepId, String kind) {}

  private static final ObjectReader READER = Json.MAPPER.readerFor(new TypeReference<List<Stored>>() {});

  private StoredSteps() {}

  /**
   * The JSON of {@code steps}, sorted into their stored order: the fields of {@link Stored}, written field by field
   * (a write that changes a step writes all of its job's steps, and the mapper's databind path cost several times
   * as much). Steps a {@link Listed} has written before are not written again.
   */
  static String write(List<StepRecord> steps) {
    StepRecord[] records;
    String[] parts;
    if (steps instanceof Listed listed && listed.inOrder) {
      records = listed.steps;
      parts = listed.json;
    } else {
      List<StepRecord> sorted = new ArrayList<>(steps);
      sorted.sort(ORDER);
      records = sorted.toArray(StepRecord[]::new);
      parts = new String[records.length];
    }
    StringBuilder out = new StringBuilder(2 + 400 * records.length).append('[');
    for (int i = 0; i < records.length; i++) {
      if (parts[i] == null) {
        parts[i] = write(records[i]);
      }
      out.append(i == 0 ? "" : ",").append(parts[i]);
    }
    return out.append(']').toString();
  }

  /** One step's JSON object. */
  private static String write(StepRecord s) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("id", s.id().toString());
      json.writeStringField("phase", s.phase().wireName());
      json.writeNumberField("index", s.index());
      json.writeStringField("name", s.name());
      json.writeStringField("status", s.status().wireName());
      json.writeNumberField("attempts", s.attempts());
      json.writeArrayFieldStart("permissions");
      for (String permission : s.permissions()) {
        json.writeString(permission);
      }
      json.writeEndArray();
      json.writeObjectFieldStart("outputs");
      for (Map.Entry<String, String> output : s.outputs().entrySet()) {
        json.writeStringField(output.getKey(), output.getValue());
      }
      json.writeEndObject();
      if (s.failure() != null) {
        json.writeFieldName("failure");
        Json.MAPPER.writeValue(json, s.failure());
      }
      if (s.startedAt() != null) {
        json.writeStringField("startedAt", micros(s.startedAt()).toString());
      }
      if (s.finishedAt() != null) {
        json.writeStringField("finishedAt", micros(s.finishedAt()).toString());
      }
      if (s.templateStepId() != null) {
        json.writeStringField("templateStepId", s.templateStepId().toString());
      }
      if (s.kind() != null) {
        json.writeStringField("kind", s.kind());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the steps of a job", e);
    }
    return out.toString();
  }

  /**
   * A job's steps as a run keeps them (see {@link StepBook}), each with its JSON once {@link #write} has made it: a
   * write that changes one step makes that one's afresh and reuses the others'. Nobody can change it.
   */
  static final class Listed extends AbstractList<StepRecord> implements RandomAccess {
    private final StepRecord[] steps;
    /** Each step's JSON, or null until written; shared with the list it was made from where the step is the same. */
    private final String[] json;
    /** Whether the steps are in their stored order, so that {@link #json} is written as it stands. */
    private final boolean inOrder;

    private Listed(StepRecord[] steps, String[] json, boolean inOrder) {
      this.steps = steps;
      this.json = json;
      this.inOrder = inOrder;
    }

    static Listed of(List<StepRecord> steps) {
      StepRecord[] array = steps.toArray(StepRecord[]::new);
      boolean inOrder = true;
      for (int i = 1; i < array.length && inOrder; i++) {
        inOrder = ORDER.compare(array[i - 1], array[i]) < 0;
      }
      return new Listed(array, new String[array.length], inOrder);
    }

    @Override
    public StepRecord get(int index) {
      return steps[index];
    }

    @Override
    public int size() {
      return steps.length;
    }
  }

  /** To the microsecond, as the database keeps its other times. */
  private static Instant micros(Instant at) {
    return at == null ? null : at.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
  }

  /** The steps of job {@code jobId} from their JSON; none for null. */
  static List<StepRecord> read(String jobId, String json) {
    if (json == null || json.equals("[]")) {
      return new ArrayList<>();
    }
    List<Stored> stored;
    try {
      stored = READER.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the stored steps of job " + jobId + " are unreadable", e);
    }
    List<StepRecord> steps = new ArrayList<>(stored.size());
    for (Stored s : stored) {
      steps.add(new StepRecord(UUID.fromString(s.id()), jobId, JobPhase.fromWire(s.phase()), s.index(), s.name(),
          StepStatus.fromWire(s.status()), s.attempts(), s.permissions() == null ? List.of() : s.permissions(),
          s.outputs() == null ? Map.of() : s.outputs(), s.failure(), s.startedAt(),
          s.finishedAt(), s.templateStepId() == null ? null : UUID.fromString(s.templateStepId()), s.kind()));
    }
    return steps;
  }

  /** {@code steps} with the step of {@code changed}'s id replaced by it, as a list nobody can change. */
  static Listed with(Listed steps, StepRecord changed) {
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i).id().equals(changed.id())) {
        StepRecord[] result = steps.steps.clone();
        result[i] = changed;
        String[] json = steps.json.clone();
        json[i] = null;
        // the same step in the same place: the order holds
        return new Listed(result, json, steps.inOrder && changed.phase() == steps.steps[i].phase()
            && changed.index() == steps.steps[i].index());
      }
    }
    throw new IllegalArgumentException("job " + changed.jobId() + " has no step " + changed.id());
  }
}

package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
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
import java.util.LinkedHashMap;
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

  private StoredSteps() {}

  /**
   * The JSON of {@code steps}, sorted into their stored order, each an object of its fields (null ones left out),
   * written field by field (a write that changes a step writes all of its job's steps, and the mapper's databind
   * path cost several times as much). Steps a {@link Listed} has written before are not written again.
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
    writeMissing(records, parts);
    StringBuilder out = new StringBuilder(2 + 400 * records.length).append('[');
    for (int i = 0; i < records.length; i++) {
      out.append(i == 0 ? "" : ",").append(parts[i]);
    }
    return out.append(']').toString();
  }

  /** Makes the JSON object of each step that has none in {@code parts}, with one generator for them all. */
  private static void writeMissing(StepRecord[] records, String[] parts) {
    if (!java.util.Arrays.asList(parts).contains(null)) {
      return;
    }
    StringWriter out = new StringWriter(320);
    try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out)) {
      // each object is cut out of the text as it is flushed: nothing between one and the next
      json.setRootValueSeparator(null);
      for (int i = 0; i < records.length; i++) {
        if (parts[i] == null) {
          int start = out.getBuffer().length();
          write(json, records[i]);
          json.flush();
          parts[i] = out.getBuffer().substring(start);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the steps of a job", e);
    }
  }

  // field names made once: a generator escapes a name given as a String each time it writes it
  private static final SerializedString ID = new SerializedString("id");
  private static final SerializedString PHASE = new SerializedString("phase");
  private static final SerializedString INDEX = new SerializedString("index");
  private static final SerializedString NAME = new SerializedString("name");
  private static final SerializedString STATUS = new SerializedString("status");
  private static final SerializedString ATTEMPTS = new SerializedString("attempts");
  private static final SerializedString PERMISSIONS = new SerializedString("permissions");
  private static final SerializedString OUTPUTS = new SerializedString("outputs");
  private static final SerializedString FAILURE = new SerializedString("failure");
  private static final SerializedString STARTED_AT = new SerializedString("startedAt");
  private static final SerializedString FINISHED_AT = new SerializedString("finishedAt");
  private static final SerializedString TEMPLATE_STEP_ID = new SerializedString("templateStepId");
  private static final SerializedString KIND = new SerializedString("kind");

  /** One step's JSON object. */
  private static void write(JsonGenerator json, StepRecord s) throws IOException {
    json.writeStartObject();
    json.writeFieldName(ID);
    json.writeString(s.id().toString());
    json.writeFieldName(PHASE);
    json.writeString(s.phase().wireName());
    json.writeFieldName(INDEX);
    json.writeNumber(s.index());
    json.writeFieldName(NAME);
    json.writeString(s.name());
    json.writeFieldName(STATUS);
    json.writeString(s.status().wireName());
    json.writeFieldName(ATTEMPTS);
    json.writeNumber(s.attempts());
    json.writeFieldName(PERMISSIONS);
    json.writeStartArray();
    for (String permission : s.permissions()) {
      json.writeString(permission);
    }
    json.writeEndArray();
    json.writeFieldName(OUTPUTS);
    json.writeStartObject();
    for (Map.Entry<String, String> output : s.outputs().entrySet()) {
      json.writeStringField(output.getKey(), output.getValue());
    }
    json.writeEndObject();
    if (s.failure() != null) {
      json.writeFieldName(FAILURE);
      Json.MAPPER.writeValue(json, s.failure());
    }
    if (s.startedAt() != null) {
      json.writeFieldName(STARTED_AT);
      json.writeString(Json.instant(micros(s.startedAt())));
    }
    if (s.finishedAt() != null) {
      json.writeFieldName(FINISHED_AT);
      json.writeString(Json.instant(micros(s.finishedAt())));
    }
    if (s.templateStepId() != null) {
      json.writeFieldName(TEMPLATE_STEP_ID);
      json.writeString(s.templateStepId().toString());
    }
    if (s.kind() != null) {
      json.writeFieldName(KIND);
      json.writeString(s.kind());
    }
    json.writeEndObject();
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
      String[] json = new String[array.length];
      if (steps instanceof Read read) {
        for (int i = 0; i < array.length && i < read.records.length; i++) {
          // the very step read there, not one put in its place since
          json[i] = array[i] == read.records[i] ? read.text(i) : null;
        }
      }
      return new Listed(array, json, inOrder);
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

  /**
   * Steps as {@link #read} found them, each with the text it was read from: a run's first write, which writes all
   * of its job's steps, writes the steps it did not change as the row held them rather than making their JSON again
   * (a claim's run of a four-step job made a third of its steps' JSON that way). A list like any other; a step
   * put in place of one read has no text. A text is cut out of the row's only when a write asks for it: most reads
   * (the API's) never write.
   */
  static final class Read extends ArrayList<StepRecord> {
    private final StepRecord[] records;
    private final String source;
    /** Where step {@code i}'s text begins in {@link #source} ({@code bounds[2i]}) and ends. */
    private final int[] bounds;

    private Read(List<StepRecord> steps, String source, int[] bounds) {
      super(steps);
      this.records = steps.toArray(StepRecord[]::new);
      this.source = source;
      this.bounds = bounds;
    }

    private String text(int i) {
      return source.substring(bounds[2 * i], bounds[2 * i + 1]);
    }
  }

  /** To the microsecond, as the database keeps its other times. */
  private static Instant micros(Instant at) {
    return at == null ? null : at.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
  }

  /**
   * The steps of job {@code jobId} from their JSON; none for null. Read token by token, as {@link #write} writes
   * them: every claimed job's steps are read, and the mapper's databind path into a record of their fields cost
   * several times as much. A field it does not know is passed over, as the mapper does. Each step keeps the text it
   * was read from (see {@link Read}).
   */
  static List<StepRecord> read(String jobId, String json) {
    if (json == null || json.equals("[]")) {
      return new ArrayList<>();
    }
    try (JsonParser p = Json.MAPPER.getFactory().createParser(json)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new JsonParseException(p, "a job's steps are an array");
      }
      List<StepRecord> steps = new ArrayList<>();
      int[] bounds = new int[8];
      for (JsonToken token = p.nextToken(); token != JsonToken.END_ARRAY; token = p.nextToken()) {
        if (token != JsonToken.START_OBJECT) {
          throw new JsonParseException(p, "a step is an object");
        }
        int at = 2 * steps.size();
        if (at + 1 >= bounds.length) {
          bounds = java.util.Arrays.copyOf(bounds, 2 * bounds.length);
        }
        bounds[at] = (int) p.currentTokenLocation().getCharOffset();
        steps.add(step(jobId, p));
        bounds[at + 1] = (int) p.currentLocation().getCharOffset();
      }
      return new Read(steps, json, bounds);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("the stored steps of job " + jobId + " are unreadable", e);
    }
  }

  /** One step, from the parser at its object's start to its end. */
  private static StepRecord step(String jobId, JsonParser p) throws IOException {
    String id = null;
    String phase = null;
    int index = 0;
    String name = null;
    String status = null;
    int attempts = 0;
    List<String> permissions = List.of();
    Map<String, String> outputs = Map.of();
    Failure failure = null;
    Instant startedAt = null;
    Instant finishedAt = null;
    String templateStepId = null;
    String kind = null;
    for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
      JsonToken value = p.nextToken();
      if (value == JsonToken.VALUE_NULL) {
        continue;
      }
      switch (field) {
        case "id" -> id = p.getText();
        case "phase" -> phase = p.getText();
        case "index" -> index = p.getIntValue();
        case "name" -> name = p.getText();
        case "status" -> status = p.getText();
        case "attempts" -> attempts = p.getIntValue();
        case "permissions" -> {
          permissions = new ArrayList<>();
          for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            permissions.add(p.getText());
          }
        }
        case "outputs" -> {
          outputs = new LinkedHashMap<>();
          for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            p.nextToken();
            outputs.put(key, p.getValueAsString());
          }
        }
        case "failure" -> failure = Json.MAPPER.readValue(p, Failure.class);
        case "startedAt" -> startedAt = Instant.parse(p.getText());
        case "finishedAt" -> finishedAt = Instant.parse(p.getText());
        case "templateStepId" -> templateStepId = p.getText();
        case "kind" -> kind = p.getText();
        default -> p.skipChildren();
      }
    }
    if (id == null || phase == null || name == null || status == null) {
      throw new JsonParseException(p, "a step needs its id, phase, name and status");
    }
    return new StepRecord(UUID.fromString(id), jobId, JobPhase.fromWire(phase), index, name,
        StepStatus.fromWire(status), attempts, permissions, outputs, failure, startedAt, finishedAt,
        templateStepId == null ? null : UUID.fromString(templateStepId), kind);
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

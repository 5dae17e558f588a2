package dev.zop.provisioner.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.spec.ResourceSpec;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON both sides of the REST API speak. Records map by their component names, enums by their lower-case
 * wire names, ids as plain strings. Two documented shapes need help: a job's {@code config} is read by its
 * {@code kind}, and a space's {@code config} is a JSON-encoded string in responses, as the product documents
 * show it.
 */
public final class WireJson {
  private static final JavaType STRING_MAP_TYPE = TypeFactory.defaultInstance()
      .constructMapType(Map.class, String.class, String.class);
  private static final JavaType STRING_LIST_TYPE = TypeFactory.defaultInstance()
      .constructCollectionType(List.class, String.class);
  private static final JavaType STEPS = TypeFactory.defaultInstance()
      .constructCollectionType(List.class, JobStep.class);

  private WireJson() {}

  /** A mapper for reading responses: unknown fields are ignored so an older client reads a newer server. */
  public static ObjectMapper lenient() {
    return base().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** A mapper for reading requests: a field we do not know is refused rather than silently dropped. */
  public static ObjectMapper strict() {
    return base().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }

  /**
   * The service's mapper for request bodies: {@link #strict()}, and every value must already be of its field's JSON
   * type — no number read as a string or a boolean, no string as a number or a boolean, no fraction cut to an
   * integer, no empty string read as an empty list or object. A client's mistake is refused, never guessed at.
   */
  public static ObjectMapper requests() {
    ObjectMapper mapper = strict().disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(com.fasterxml.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS);
    mapper.coercionConfigDefaults().setAcceptBlankAsEmpty(false)
        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    for (LogicalType type : LogicalType.values()) {
      for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
          CoercionInputShape.Boolean, CoercionInputShape.String, CoercionInputShape.EmptyString)) {
        mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
      }
    }
    // a number is an integer wherever a fraction is (JSON has one number type)
    mapper.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
    // ids, enums and times are written as strings: a string is their own shape
    for (LogicalType stringy : List.of(LogicalType.Enum, LogicalType.Textual, LogicalType.DateTime,
        LogicalType.OtherScalar, LogicalType.POJO)) {
      mapper.coercionConfigFor(stringy).setCoercion(CoercionInputShape.String, CoercionAction.TryConvert);
    }
    return mapper;
  }

  private static ObjectMapper base() {
    SimpleModule wire = new SimpleModule("zop-wire");
    wire.setSerializers(new WireEnums()); // first: the serializers added below go into it
    wire.addDeserializer(Job.class, new JobDeserializer());
    wire.addDeserializer(dev.zop.provisioner.JobRevision.class, new JobRevisionDeserializer());
    wire.addDeserializer(dev.zop.provisioner.ImportPlan.class, new ImportPlanDeserializer());
    wire.addDeserializer(Instant.class, new InstantReader());
    wire.addSerializer(Instant.class, new InstantWriter());
    wire.addSerializer(Space.class, new SpaceSerializer());
    wire.addSerializer(Job.class, new JobSerializer());
    wire.addSerializer(JobStep.class, new JobStepSerializer());
    wire.addDeserializer(Space.class, new SpaceDeserializer());
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .registerModule(wire)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
  }

  /**
   * Reads {@code config} as the spec of {@code kind}; the rest of the job as its record components. Fields are read
   * as they stream past (a page of jobs is most of what a client reads); only a {@code config} that arrives before
   * {@code kind} is held as a tree until the kind is known. Fields this version does not know are skipped.
   */
  /** A revision's config read as its kind's spec, as a job's is. */
  private static final class JobRevisionDeserializer extends StdDeserializer<dev.zop.provisioner.JobRevision> {
    JobRevisionDeserializer() {
      super(dev.zop.provisioner.JobRevision.class);
    }

    @Override
    public dev.zop.provisioner.JobRevision deserialize(JsonParser parser, DeserializationContext ctx)
        throws IOException {
      com.fasterxml.jackson.databind.JsonNode tree = ctx.readTree(parser);
      JobKind kind = JobKind.fromWire(tree.path("kind").asText());
      ResourceSpec spec = tree.hasNonNull("config") ? ctx.readTreeAsValue(tree.get("config"),
          ResourceSpec.typeFor(kind)) : null;
      return new dev.zop.provisioner.JobRevision(tree.path("number").asInt(), kind, spec,
          dev.zop.provisioner.JobRevision.Status.fromWire(tree.path("status").asText()),
          tree.path("createdBy").asText(null), instant(tree, "createdAt"), instant(tree, "finishedAt"));
    }

    private static Instant instant(com.fasterxml.jackson.databind.JsonNode tree, String field) {
      return tree.hasNonNull(field) ? Instant.parse(tree.get(field).asText()) : null;
    }
  }

  /** An import plan's observed config read as its kind's spec. */
  private static final class ImportPlanDeserializer extends StdDeserializer<dev.zop.provisioner.ImportPlan> {
    ImportPlanDeserializer() {
      super(dev.zop.provisioner.ImportPlan.class);
    }

    @Override
    public dev.zop.provisioner.ImportPlan deserialize(JsonParser parser, DeserializationContext ctx)
        throws IOException {
      com.fasterxml.jackson.databind.JsonNode tree = ctx.readTree(parser);
      JobKind kind = JobKind.fromWire(tree.path("kind").asText());
      ResourceSpec observed = ctx.readTreeAsValue(tree.get("observedConfig"), ResourceSpec.typeFor(kind));
      var changes = ctx.getTypeFactory().constructCollectionType(java.util.List.class,
          dev.zop.provisioner.RevisionChange.class);
      var steps = ctx.getTypeFactory().constructCollectionType(java.util.List.class, dev.zop.provisioner.PlanStep.class);
      var strings = ctx.getTypeFactory().constructCollectionType(java.util.List.class, String.class);
      return new dev.zop.provisioner.ImportPlan(dev.zop.provisioner.SpaceId.of(tree.path("spaceId").asText()), kind,
          tree.path("externalID").asText(null),
          ctx.readTreeAsValue(tree.get("adopted"), strings), observed,
          ctx.readTreeAsValue(tree.get("changes"), changes), ctx.readTreeAsValue(tree.get("steps"), steps));
    }
  }

  private static final class JobDeserializer extends StdDeserializer<Job> implements ResolvableDeserializer {
    /*
     * The parts' deserializers, found once per mapper: looked up for every value, a map's or a list's is built
     * anew each time, which cost a quarter of reading a page of jobs.
     */
    private JsonDeserializer<Object> stringMap;
    private JsonDeserializer<Object> jobSteps;
    private JsonDeserializer<Object> jobStep;
    private JsonDeserializer<Object> stringList;
    private JsonDeserializer<Object> failure;
    private JsonDeserializer<Object> instant;
    private final Map<JobKind, JsonDeserializer<Object>> specs = new ConcurrentHashMap<>();

    JobDeserializer() {
      super(Job.class);
    }

    @Override
    public void resolve(DeserializationContext ctx) throws JsonMappingException {
      stringMap = ctx.findRootValueDeserializer(STRING_MAP_TYPE);
      jobSteps = ctx.findRootValueDeserializer(STEPS);
      jobStep = ctx.findRootValueDeserializer(ctx.constructType(JobStep.class));
      stringList = ctx.findRootValueDeserializer(STRING_LIST_TYPE);
      failure = ctx.findRootValueDeserializer(ctx.constructType(Failure.class));
      instant = ctx.findRootValueDeserializer(ctx.constructType(Instant.class));
    }

    private JsonDeserializer<Object> spec(DeserializationContext ctx, JobKind kind) throws JsonMappingException {
      JsonDeserializer<Object> found = specs.get(kind);
      if (found == null) {
        found = ctx.findRootValueDeserializer(ctx.constructType(ResourceSpec.typeFor(kind)));
        specs.put(kind, found);
      }
      return found;
    }

    @SuppressWarnings("unchecked")
    private <T> T read(JsonDeserializer<Object> deserializer, JsonParser parser, DeserializationContext ctx)
        throws IOException {
      return (T) deserializer.deserialize(parser, ctx);
    }

    /** A job's steps, each read as it streams past, as the job itself is: through databind, half of reading a page. */
    private List<JobStep> readSteps(JsonParser parser, DeserializationContext ctx) throws IOException {
      if (!parser.hasToken(JsonToken.START_ARRAY)) {
        return read(jobSteps, parser, ctx); // its coercions and its errors
      }
      List<JobStep> steps = new java.util.ArrayList<>();
      for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
        steps.add(token == JsonToken.START_OBJECT ? readStep(parser, ctx) : read(jobStep, parser, ctx));
      }
      return steps;
    }

    private JobStep readStep(JsonParser parser, DeserializationContext ctx) throws IOException {
      UUID id = null;
      JobPhase phase = null;
      int position = 0;
      String name = null;
      StepStatus status = null;
      int attempts = 0;
      List<String> permissions = List.of();
      Map<String, String> outputs = Map.of();
      Failure stepFailure = null;
      Instant startedAt = null;
      Instant finishedAt = null;
      for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
        String field = parser.currentName();
        if (parser.nextToken() == JsonToken.VALUE_NULL) {
          continue;
        }
        switch (field) {
          case "id" -> id = UUID.fromString(parser.getValueAsString());
          case "phase" -> phase = JobPhase.fromWire(parser.getValueAsString());
          case "position" -> position = parser.getValueAsInt();
          case "name" -> name = parser.getValueAsString();
          case "status" -> status = StepStatus.fromWire(parser.getValueAsString());
          case "attempts" -> attempts = parser.getValueAsInt();
          case "permissions" -> permissions = read(stringList, parser, ctx);
          case "outputs" -> outputs = read(stringMap, parser, ctx);
          case "failure" -> stepFailure = read(failure, parser, ctx);
          case "startedAt" -> startedAt = read(instant, parser, ctx);
          case "finishedAt" -> finishedAt = read(instant, parser, ctx);
          default -> parser.skipChildren();
        }
      }
      return new JobStep(id, phase, position, name, status, attempts, permissions, outputs, stepFailure, startedAt,
          finishedAt);
    }

    @Override
    public Job deserialize(JsonParser parser, DeserializationContext ctx) throws IOException {
      JsonToken token = parser.currentToken();
      if (token == JsonToken.START_OBJECT) {
        token = parser.nextToken();
      }
      String id = null;
      String spaceId = null;
      String jobType = null;
      JobKind kind = null;
      String name = null;
      Map<String, String> tags = Map.of();
      String status = null;
      String phase = null;
      JsonNode config = null;
      ResourceSpec spec = null;
      Map<String, String> outputs = Map.of();
      Failure lastFailure = null;
      List<JobStep> steps = List.of();
      String createdBy = null;
      Instant createdAt = null;
      Instant updatedAt = null;
      Instant finishedAt = null;
      dev.zop.provisioner.JobRevision revision = null;
      for (; token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (value == JsonToken.VALUE_NULL) {
          continue;
        }
        switch (field) {
          case "id" -> id = parser.getValueAsString();
          case "spaceId" -> spaceId = parser.getValueAsString();
          case "jobType" -> jobType = parser.getValueAsString();
          case "kind" -> kind = JobKind.fromWire(parser.getValueAsString());
          case "name" -> name = parser.getValueAsString();
          case "tags" -> tags = read(stringMap, parser, ctx);
          case "status" -> status = parser.getValueAsString();
          case "phase" -> phase = parser.getValueAsString();
          case "config" -> {
            if (kind == null) {
              config = ctx.readTree(parser);
            } else if (kind != JobKind.REMEDIATION) {
              spec = read(spec(ctx, kind), parser, ctx);
            } else {
              parser.skipChildren();
            }
          }
          case "outputs" -> outputs = read(stringMap, parser, ctx);
          case "lastFailure" -> lastFailure = read(failure, parser, ctx);
          case "steps" -> steps = readSteps(parser, ctx);
          case "createdBy" -> createdBy = parser.getValueAsString();
          case "createdAt" -> createdAt = read(instant, parser, ctx);
          case "updatedAt" -> updatedAt = read(instant, parser, ctx);
          case "finishedAt" -> finishedAt = read(instant, parser, ctx);
          case "revision" -> revision = ctx.readValue(parser, dev.zop.provisioner.JobRevision.class);
          default -> parser.skipChildren();
        }
      }
      if (kind == null) {
        kind = JobKind.fromWire("");
      }
      if (config != null && !config.isNull() && kind != JobKind.REMEDIATION) {
        spec = ctx.readTreeAsValue(config, ResourceSpec.typeFor(kind));
      }
      return new Job(JobId.of(id == null ? "" : id), spaceId == null ? null : SpaceId.of(spaceId),
          JobType.fromWire(jobType == null ? "" : jobType), kind, name, tags,
          JobStatus.fromWire(status == null ? "" : status), phase == null ? null : JobPhase.fromWire(phase), spec,
          outputs, lastFailure, steps, createdBy, createdAt, updatedAt, finishedAt, revision);
    }
  }

  /**
   * Reads the instants the service writes ({@code 2026-12-01T10:00:01.123456Z}: UTC, seconds, up to nine
   * fraction digits) without a {@link java.time.format.DateTimeFormatter}, whose parse was a quarter of reading a
   * page of jobs; anything else goes to the JSR-310 module's own deserializer, which also reports what is wrong.
   */
  static final class InstantReader extends StdDeserializer<Instant> {
    InstantReader() {
      super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext ctx) throws IOException {
      if (parser.hasToken(JsonToken.VALUE_STRING)) {
        Instant parsed = parseUtc(parser.getText());
        if (parsed != null) {
          return parsed;
        }
      }
      return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.deserialize(parser, ctx);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, or null when the text has any other shape or an invalid field. */
    static Instant parseUtc(String text) {
      int length = text.length();
      if (length < 20 || length > 30 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
          || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(length - 1) != 'Z') {
        return null;
      }
      int year = digits(text, 0, 4);
      int month = digits(text, 5, 7);
      int day = digits(text, 8, 10);
      int hour = digits(text, 11, 13);
      int minute = digits(text, 14, 16);
      int second = digits(text, 17, 19);
      if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0
          || minute > 59 || second < 0 || second > 59) {
        return null;
      }
      int nanos = 0;
      if (length > 20) {
        if (text.charAt(19) != '.' || length == 21) {
          return null;
        }
        int fraction = digits(text, 20, length - 1);
        if (fraction < 0) {
          return null;
        }
        nanos = fraction;
        for (int i = length - 1 - 20; i < 9; i++) {
          nanos *= 10;
        }
      } else if (text.charAt(19) != 'Z') {
        return null;
      }
      if (day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
        return null;
      }
      long days = java.time.LocalDate.of(year, month, day).toEpochDay();
      return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal number in {@code text[from, to)}, or -1 when a character there is not a digit. */
    private static int digits(String text, int from, int to) {
      int value = 0;
      for (int i = from; i < to; i++) {
        char c = text.charAt(i);
        if (c < '0' || c > '9') {
          return -1;
        }
        value = value * 10 + (c - '0');
      }
      return value;
    }
  }

  /**
   * Writes an instant exactly as {@link java.time.format.DateTimeFormatter#ISO_INSTANT} does (UTC, the fraction in
   * groups of three digits, none when it is zero) without the formatter, whose printing was a third of writing a
   * page of jobs; years outside 0000–9999, which the formatter writes with a sign, go to the JSR-310 module's own
   * serializer.
   */
  static final class InstantWriter extends StdSerializer<Instant> {
    private static final long MIN_SECOND = -62_167_219_200L; // 0000-01-01T00:00:00Z
    private static final long MAX_SECOND = 253_402_300_799L; // 9999-12-31T23:59:59Z

    InstantWriter() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      write(value, gen, provider);
    }

    static void write(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      char[] text = formatUtc(value);
      if (text == null) {
        com.fasterxml.jackson.datatype.jsr310.ser.InstantSerializer.INSTANCE.serialize(value, gen, provider);
      } else {
        gen.writeString(text, 0, text.length);
      }
    }

    /** The ISO-8601 text of {@code value}, or null for a year the four-digit form cannot hold. */
    static char[] formatUtc(Instant value) {
      long seconds = value.getEpochSecond();
      if (seconds < MIN_SECOND || seconds > MAX_SECOND) {
        return null;
      }
      long days = Math.floorDiv(seconds, 86_400L);
      int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
      java.time.LocalDate date = java.time.LocalDate.ofEpochDay(days);
      int nanos = value.getNano();
      int fractionDigits = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
      char[] out = new char[20 + (fractionDigits == 0 ? 0 : fractionDigits + 1)];
      put(out, 0, date.getYear(), 4);
      out[4] = '-';
      put(out, 5, date.getMonthValue(), 2);
      out[7] = '-';
      put(out, 8, date.getDayOfMonth(), 2);
      out[10] = 'T';
      put(out, 11, secondOfDay / 3_600, 2);
      out[13] = ':';
      put(out, 14, secondOfDay / 60 % 60, 2);
      out[16] = ':';
      put(out, 17, secondOfDay % 60, 2);
      if (fractionDigits > 0) {
        out[19] = '.';
        int fraction = nanos;
        for (int i = fractionDigits; i < 9; i++) {
          fraction /= 10;
        }
        put(out, 20, fraction, fractionDigits);
      }
      out[out.length - 1] = 'Z';
      return out;
    }

    /** {@code value} as exactly {@code width} decimal digits at {@code at}, zero-padded. */
    private static void put(char[] out, int at, int value, int width) {
      for (int i = at + width - 1; i >= at; i--) {
        out[i] = (char) ('0' + value % 10);
        value /= 10;
      }
    }
  }

  /**
   * Serializers for the enums that name their wire form with {@code @JsonValue}: each constant's text is found once,
   * where Jackson's own serializer calls the accessor reflectively for every value written (a sixth of writing a
   * page of jobs). Enums without a {@code String} accessor keep Jackson's serializer.
   */
  private static final class WireEnums extends com.fasterxml.jackson.databind.module.SimpleSerializers {
    @Override
    public com.fasterxml.jackson.databind.JsonSerializer<?> findSerializer(
        com.fasterxml.jackson.databind.SerializationConfig config, JavaType type,
        com.fasterxml.jackson.databind.BeanDescription description) {
      if (!type.isEnumType()) {
        return super.findSerializer(config, type, description);
      }
      com.fasterxml.jackson.databind.introspect.AnnotatedMember accessor = description.findJsonValueAccessor();
      if (!(accessor instanceof com.fasterxml.jackson.databind.introspect.AnnotatedMethod method)
          || method.getRawReturnType() != String.class) {
        return super.findSerializer(config, type, description);
      }
      Object[] constants = type.getRawClass().getEnumConstants();
      SerializedString[] names =
          new SerializedString[constants.length];
      for (int i = 0; i < constants.length; i++) {
        try {
          names[i] = new SerializedString((String) method.getAnnotated()
              .invoke(constants[i]));
        } catch (ReflectiveOperationException | RuntimeException e) {
          return super.findSerializer(config, type, description);
        }
      }
      return new StdSerializer<Enum<?>>(Enum.class, false) {
        @Override
        public void serialize(Enum<?> value, JsonGenerator gen, SerializerProvider provider) throws IOException {
          gen.writeString(names[value.ordinal()]);
        }
      };
    }
  }

  /**
   * Writes a job field by field, as Jackson's record serializer would (the same names, order and nulls), without
   * its reflective accessor call and serializer lookup for every component: a page of jobs is most of what the
   * service writes. The spec and the failure are written by Jackson's own serializers.
   */
  private static final class JobSerializer extends StdSerializer<Job> {

    JobSerializer() {
      super(Job.class);
    }

    @Override
    public void serialize(Job job, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeStartObject(job);
      gen.writeStringField("id", job.id().value());
      gen.writeStringField("spaceId", job.spaceId() == null ? null : job.spaceId().value());
      writeName(gen, "jobType", JOB_TYPES, job.jobType());
      writeName(gen, "kind", KINDS, job.kind());
      gen.writeStringField("name", job.name());
      writeStringMap(gen, "tags", job.tags());
      writeName(gen, "status", JOB_STATUSES, job.status());
      writeName(gen, "phase", PHASES, job.phase());
      gen.writeFieldName("config");
      provider.defaultSerializeValue(job.spec(), gen);
      writeStringMap(gen, "outputs", job.outputs());
      gen.writeFieldName("lastFailure");
      provider.defaultSerializeValue(job.lastFailure(), gen);
      gen.writeArrayFieldStart("steps");
      for (JobStep step : job.steps()) {
        JobStepSerializer.write(step, gen, provider);
      }
      gen.writeEndArray();
      gen.writeStringField("createdBy", job.createdBy());
      writeInstant(gen, "createdAt", job.createdAt(), provider);
      writeInstant(gen, "updatedAt", job.updatedAt(), provider);
      writeInstant(gen, "finishedAt", job.finishedAt(), provider);
      gen.writeFieldName("revision");
      provider.defaultSerializeValue(job.revision(), gen);
      gen.writeEndObject();
    }
  }

  /** A job's step, as {@link JobSerializer} writes its job. */
  private static final class JobStepSerializer extends StdSerializer<JobStep> {

    JobStepSerializer() {
      super(JobStep.class);
    }

    @Override
    public void serialize(JobStep step, JsonGenerator gen, SerializerProvider provider) throws IOException {
      write(step, gen, provider);
    }

    static void write(JobStep step, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeStartObject(step);
      gen.writeStringField("id", step.id() == null ? null : step.id().toString());
      writeName(gen, "phase", PHASES, step.phase());
      gen.writeNumberField("position", step.position());
      gen.writeStringField("name", step.name());
      writeName(gen, "status", STEP_STATUSES, step.status());
      gen.writeNumberField("attempts", step.attempts());
      gen.writeArrayFieldStart("permissions");
      for (String permission : step.permissions()) {
        gen.writeString(permission);
      }
      gen.writeEndArray();
      writeStringMap(gen, "outputs", step.outputs());
      gen.writeFieldName("failure");
      provider.defaultSerializeValue(step.failure(), gen);
      writeInstant(gen, "startedAt", step.startedAt(), provider);
      writeInstant(gen, "finishedAt", step.finishedAt(), provider);
      gen.writeEndObject();
    }
  }

  private static final SerializedString[] JOB_TYPES = names(JobType.values(), JobType::wireName);
  private static final SerializedString[] KINDS = names(JobKind.values(), JobKind::wireName);
  private static final SerializedString[] JOB_STATUSES = names(JobStatus.values(), JobStatus::wireName);
  private static final SerializedString[] PHASES = names(JobPhase.values(), JobPhase::wireName);
  private static final SerializedString[] STEP_STATUSES = names(StepStatus.values(), StepStatus::wireName);

  /** Each constant's wire name (its {@code @JsonValue}), by ordinal. */
  private static <E extends Enum<E>> SerializedString[] names(E[] constants,
      java.util.function.Function<E, String> wireName) {
    SerializedString[] names =
        new SerializedString[constants.length];
    for (E constant : constants) {
      names[constant.ordinal()] = new SerializedString(wireName.apply(constant));
    }
    return names;
  }

  private static void writeName(JsonGenerator gen, String field, SerializedString[] names,
      Enum<?> value) throws IOException {
    gen.writeFieldName(field);
    if (value == null) {
      gen.writeNull();
    } else {
      gen.writeString(names[value.ordinal()]);
    }
  }

  private static void writeStringMap(JsonGenerator gen, String field, Map<String, String> map) throws IOException {
    gen.writeObjectFieldStart(field);
    for (Map.Entry<String, String> entry : map.entrySet()) {
      gen.writeStringField(entry.getKey(), entry.getValue());
    }
    gen.writeEndObject();
  }

  private static void writeInstant(JsonGenerator gen, String field, Instant value, SerializerProvider provider)
      throws IOException {
    gen.writeFieldName(field);
    if (value == null) {
      gen.writeNull();
    } else {
      InstantWriter.write(value, gen, provider);
    }
  }


  private static final class SpaceSerializer extends StdSerializer<Space> {
    SpaceSerializer() {
      super(Space.class);
    }

    @Override
    public void serialize(Space space, JsonGenerator gen, SerializerProvider provider) throws IOException {
      ObjectMapper mapper = (ObjectMapper) gen.getCodec();
      gen.writeStartObject();
      gen.writeStringField("id", space.id().value());
      gen.writeStringField("name", space.name());
      gen.writeStringField("provider", space.provider());
      gen.writeStringField("spaceType", space.spaceType());
      gen.writeStringField("cloudAccountId", space.cloudAccountId().value());
      gen.writeStringField("status", space.status().wireName());
      gen.writeStringField("config", mapper.writeValueAsString(space.config()));
      gen.writeFieldName("createdAt");
      provider.defaultSerializeValue(space.createdAt(), gen);
      gen.writeFieldName("updatedAt");
      provider.defaultSerializeValue(space.updatedAt(), gen);
      gen.writeEndObject();
    }
  }

  private static final class SpaceDeserializer extends StdDeserializer<Space> {
    SpaceDeserializer() {
      super(Space.class);
    }

    @Override
    public Space deserialize(JsonParser parser, DeserializationContext ctx) throws IOException {
      ObjectMapper mapper = (ObjectMapper) parser.getCodec();
      JsonNode node = ctx.readTree(parser);
      JsonNode config = node.get("config");
      Map<String, String> settings = config == null || config.isNull() ? Map.of()
          : config.isTextual() ? mapper.readValue(config.asText(), STRING_MAP_TYPE)
          : map(ctx, config);
      return new Space(
          SpaceId.of(node.path("id").asText()),
          text(node, "name"),
          text(node, "provider"),
          text(node, "spaceType"),
          CloudAccountId.of(node.path("cloudAccountId").asText()),
          SpaceStatus.fromWire(node.path("status").asText()),
          settings,
          value(ctx, node.get("createdAt"), Instant.class),
          value(ctx, node.get("updatedAt"), Instant.class));
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Map<String, String> map(DeserializationContext ctx, JsonNode node) throws IOException {
    return node == null || node.isNull() ? Map.of() : ctx.readTreeAsValue(node, STRING_MAP_TYPE);
  }

  private static <T> T value(DeserializationContext ctx, JsonNode node, Class<T> type) throws IOException {
    return node == null || node.isNull() ? null : ctx.readTreeAsValue(node, type);
  }
}

package dev.zop.provisioner.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
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
import dev.zop.provisioner.spec.ResourceSpec;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The JSON both sides of the REST API speak. Records map by their component names, enums by their lower-case
 * wire names, ids as plain strings. Two documented shapes need help: a job's {@code config} is read by its
 * {@code kind}, and a space's {@code config} is a JSON-encoded string in responses, as the product documents
 * show it.
 */
public final class WireJson {
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

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

  private static ObjectMapper base() {
    SimpleModule wire = new SimpleModule("zop-wire");
    wire.addDeserializer(Job.class, new JobDeserializer());
    wire.addSerializer(Space.class, new SpaceSerializer());
    wire.addDeserializer(Space.class, new SpaceDeserializer());
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .registerModule(wire)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
  }

  /** Reads {@code config} as the spec of {@code kind}; the rest of the job as its record components. */
  private static final class JobDeserializer extends StdDeserializer<Job> {
    JobDeserializer() {
      super(Job.class);
    }

    @Override
    public Job deserialize(JsonParser parser, DeserializationContext ctx) throws IOException {
      ObjectMapper mapper = (ObjectMapper) parser.getCodec();
      JsonNode node = mapper.readTree(parser);
      JobKind kind = JobKind.fromWire(node.path("kind").asText());
      JsonNode config = node.get("config");
      ResourceSpec spec = config == null || config.isNull() || kind == JobKind.REMEDIATION ? null
          : mapper.treeToValue(config, ResourceSpec.typeFor(kind));
      return new Job(
          JobId.of(node.path("id").asText()),
          text(node, "spaceId") == null ? null : SpaceId.of(text(node, "spaceId")),
          JobType.fromWire(node.path("jobType").asText()),
          kind,
          text(node, "name"),
          map(mapper, node.get("tags")),
          JobStatus.fromWire(node.path("status").asText()),
          text(node, "phase") == null ? null : JobPhase.fromWire(text(node, "phase")),
          spec,
          map(mapper, node.get("outputs")),
          value(mapper, node.get("lastFailure"), Failure.class),
          node.has("steps") ? mapper.convertValue(node.get("steps"), new TypeReference<List<JobStep>>() {})
              : List.of(),
          text(node, "createdBy"),
          value(mapper, node.get("createdAt"), Instant.class),
          value(mapper, node.get("updatedAt"), Instant.class),
          value(mapper, node.get("finishedAt"), Instant.class));
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
      JsonNode node = mapper.readTree(parser);
      JsonNode config = node.get("config");
      Map<String, String> settings = config == null || config.isNull() ? Map.of()
          : config.isTextual() ? mapper.readValue(config.asText(), STRING_MAP)
          : mapper.convertValue(config, STRING_MAP);
      return new Space(
          SpaceId.of(node.path("id").asText()),
          text(node, "name"),
          text(node, "provider"),
          text(node, "spaceType"),
          CloudAccountId.of(node.path("cloudAccountId").asText()),
          SpaceStatus.fromWire(node.path("status").asText()),
          settings,
          value(mapper, node.get("createdAt"), Instant.class),
          value(mapper, node.get("updatedAt"), Instant.class));
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Map<String, String> map(ObjectMapper mapper, JsonNode node) {
    return node == null || node.isNull() ? Map.of() : mapper.convertValue(node, STRING_MAP);
  }

  private static <T> T value(ObjectMapper mapper, JsonNode node, Class<T> type) throws IOException {
    return node == null || node.isNull() ? null : mapper.treeToValue(node, type);
  }
}

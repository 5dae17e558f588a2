package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.naming.SchemaDefinitionNamingStrategy;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.wire.Requests;
import dev.zop.provisioner.wire.WireJson;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * JSON Schemas of what the service reads and writes, made from the records themselves with Jackson's view of them
 * (names, {@code @JsonProperty}, {@code @JsonValue} enums and ids). Where the wire format is written by hand
 * ({@link WireJson}'s {@link Space} serializer, a job's {@code config} chosen by its kind), the schema says so here.
 */
final class WireSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SchemaBuilder builder;

  WireSchemas() {
    SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(JSON, SchemaVersion.DRAFT_2020_12,
        OptionPreset.PLAIN_JSON)
        .with(new JacksonModule(JacksonOption.FLATTENED_ENUMS_FROM_JSONVALUE,
            JacksonOption.RESPECT_JSONPROPERTY_ORDER))
        .with(Option.DEFINITIONS_FOR_ALL_OBJECTS)
        // a field the service has no value for is written as null
        .with(Option.NULLABLE_FIELDS_BY_DEFAULT, Option.NULLABLE_ARRAY_ITEMS_ALLOWED)
        .without(Option.SCHEMA_VERSION_INDICATOR);
    config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> {
      Class<?> erased = type.getErasedType();
      if (erased == Instant.class) {
        return inline(JSON.createObjectNode().put("type", "string").put("format", "date-time"));
      }
      if (erased == UUID.class) {
        return inline(JSON.createObjectNode().put("type", "string").put("format", "uuid"));
      }
      if (erased == Duration.class) {
        // JavaTimeModule writes a duration as seconds, with nanoseconds as the fraction
        return inline(JSON.createObjectNode().put("type", "number").put("description", "seconds"));
      }
      if (erased == JsonNode.class) {
        return inline(JSON.createObjectNode());
      }
      if (erased == Space.class) {
        return new CustomDefinition(space());
      }
      if (erased == ResourceSpec.class) {
        // the job's kind says which; specs share field names, so more than one may match a given config
        ObjectNode oneOf = JSON.createObjectNode();
        ArrayNode kinds = oneOf.putArray("anyOf");
        for (JobKind kind : JobKind.values()) {
          if (kind != JobKind.REMEDIATION) {
            kinds.add(context.createDefinitionReference(context.getTypeContext().resolve(ResourceSpec.typeFor(kind))));
          }
        }
        oneOf.put("description", "the spec of the job's kind");
        return new CustomDefinition(oneOf);
      }
      Method value = jsonValue(erased);
      if (value != null && !erased.isEnum()) {
        // an id (JobId, SpaceId, ...) is written as its value
        return inline(context.createDefinition(context.getTypeContext().resolve(value.getGenericReturnType())));
      }
      return null;
    });
    config.forFields().withTargetTypeOverridesResolver(field ->
        field.getDeclaringType().getErasedType() == Requests.SubmitJob.class && field.getName().equals("config")
            ? List.of(field.getContext().resolve(ResourceSpec.class)) : null);
    config.forTypesInGeneral().withDefinitionNamingStrategy(new SchemaDefinitionNamingStrategy() {
      @Override
      public String getDefinitionNameForKey(com.github.victools.jsonschema.generator.impl.DefinitionKey key,
          com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
        return name(key.getType());
      }
    });
    builder = new SchemaGenerator(config.build()).buildMultipleSchemaDefinitions();
  }

  /** A reference to the schema of {@code shape}, filled in when {@link #definitions()} is called. */
  ObjectNode reference(Endpoint.Shape shape) {
    return builder.createSchemaReference(shape.type(), shape.arguments());
  }

  /** Every schema referred to so far, by name, as {@code components/schemas} holds them. */
  ObjectNode definitions() {
    return builder.collectDefinitions("components/schemas");
  }

  private static CustomDefinition inline(ObjectNode node) {
    return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE,
        CustomDefinition.AttributeInclusion.NO);
  }

  /** Written field by field by WireJson's serializer: {@code config} is the settings as a JSON-encoded string. */
  private static ObjectNode space() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    for (String text : List.of("id", "name", "provider", "spaceType", "cloudAccountId")) {
      properties.putObject(text).put("type", "string");
    }
    ArrayNode statuses = properties.putObject("status").put("type", "string").putArray("enum");
    Arrays.stream(SpaceStatus.values()).forEach(s -> statuses.add(s.wireName()));
    properties.putObject("config").put("type", "string")
        .put("description", "the provider's settings (region, resourceGroup, ...) as a JSON-encoded object");
    properties.putObject("createdAt").put("type", "string").put("format", "date-time");
    properties.putObject("updatedAt").put("type", "string").put("format", "date-time");
    ArrayNode required = schema.putArray("required");
    List.of("id", "name", "provider", "spaceType", "cloudAccountId", "status", "config").forEach(required::add);
    return schema;
  }

  private static Method jsonValue(Class<?> type) {
    for (Method method : type.getMethods()) {
      if (method.isAnnotationPresent(JsonValue.class) && !Modifier.isStatic(method.getModifiers())) {
        return method;
      }
    }
    return null;
  }

  /** {@code Page<Job>} is {@code PageOfJob}: names OpenAPI accepts ({@code [A-Za-z0-9._-]}). */
  private static String name(ResolvedType type) {
    StringBuilder name = new StringBuilder(type.getErasedType().getSimpleName());
    List<ResolvedType> arguments = type.getTypeParameters();
    for (int i = 0; i < arguments.size(); i++) {
      name.append(i == 0 ? "Of" : "And").append(name(arguments.get(i)));
    }
    return name.toString();
  }
}

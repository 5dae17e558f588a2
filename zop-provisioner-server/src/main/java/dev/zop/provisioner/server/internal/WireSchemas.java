package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
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
import dev.zop.provisioner.GuardrailRule;
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
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * JSON Schemas of what the service reads and writes, made from the records themselves with Jackson's view of them
 * (names, {@code @JsonProperty}, {@code @JsonValue} enums and ids). Where the wire format is written by hand
 * ({@link WireJson}'s {@link Space} serializer, a job's {@code config} chosen by its kind), the schema says so here.
 */
final class WireSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SchemaBuilder builder;
  /** Schemas this class writes itself beside the generated ones (a submit's body per kind). */
  private final java.util.SortedMap<String, ObjectNode> written = new java.util.TreeMap<>();

  WireSchemas() {
    SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(JSON, SchemaVersion.DRAFT_2020_12,
        OptionPreset.PLAIN_JSON)
        .with(new JacksonModule(JacksonOption.FLATTENED_ENUMS_FROM_JSONVALUE,
            JacksonOption.RESPECT_JSONPROPERTY_ORDER,
            // a guardrail's rule, the one type with a type property, is written below: one schema a kind
            JacksonOption.SKIP_SUBTYPE_LOOKUP, JacksonOption.IGNORE_TYPE_INFO_TRANSFORM))
        .with(Option.DEFINITIONS_FOR_ALL_OBJECTS)
        // a field the service has no value for is written as null
        .with(Option.NULLABLE_FIELDS_BY_DEFAULT, Option.NULLABLE_ARRAY_ITEMS_ALLOWED)
        .without(Option.SCHEMA_VERSION_INDICATOR);
    config.forTypesInGeneral().withCustomDefinitionProvider(new com.github.victools.jsonschema.generator
        .CustomDefinitionProviderV2() {
      @Override
      public CustomDefinition provideCustomSchemaDefinition(ResolvedType type,
          com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
        if (GuardrailRule.class.isAssignableFrom(type.getErasedType())) {
          return rule(type, context, this);
        }
        return custom(type, context);
      }
    });
    config.forFields().withNullableCheck(field -> nullable(field.getDeclaringType().getErasedType(),
        field.getRawMember()));
    config.forFields().withRequiredCheck(field -> required(field.getDeclaringType().getErasedType(),
        field.getSchemaPropertyName(), field.getType() != null && field.getType().isPrimitive(),
        field.getAnnotationConsideringFieldAndGetter(JsonInclude.class)));
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

  /**
   * A guardrail's rule: one of its kinds, each an object whose {@code type} names it ({@code space_budget}, ...), as
   * Jackson reads and writes them from {@link GuardrailRule}'s subtypes.
   */
  private static CustomDefinition rule(ResolvedType type,
      com.github.victools.jsonschema.generator.SchemaGenerationContext context,
      com.github.victools.jsonschema.generator.CustomDefinitionProviderV2 self) {
    com.fasterxml.jackson.annotation.JsonSubTypes kinds =
        GuardrailRule.class.getAnnotation(com.fasterxml.jackson.annotation.JsonSubTypes.class);
    if (type.getErasedType() == GuardrailRule.class) {
      // one of the kinds, told apart by type: a generated client picks the kind by it (without the discriminator,
      // a Python client took the first kind whose fields were all optional, and sent the wrong one)
      ObjectNode oneOf = JSON.createObjectNode();
      ArrayNode each = oneOf.putArray("oneOf");
      ObjectNode mapping = JSON.createObjectNode();
      for (com.fasterxml.jackson.annotation.JsonSubTypes.Type kind : kinds.value()) {
        ResolvedType resolved = context.getTypeContext().resolve(kind.value());
        each.add(context.createDefinitionReference(resolved));
        mapping.put(kind.name(), "#/components/schemas/" + name(resolved));
      }
      oneOf.putObject("discriminator").put("propertyName", "type").set("mapping", mapping);
      oneOf.put("description", "one rule; its type says which");
      return new CustomDefinition(oneOf);
    }
    String name = Arrays.stream(kinds.value()).filter(k -> k.value() == type.getErasedType())
        .map(com.fasterxml.jackson.annotation.JsonSubTypes.Type::name).findFirst().orElseThrow();
    ObjectNode definition = context.createStandardDefinition(type, self);
    ObjectNode properties = JSON.createObjectNode();
    // a one-value enum rather than const: generators that ignore const (openapi-generator's Python) honour an enum,
    // so a body matches its own kind alone
    properties.putObject("type").put("type", "string").putArray("enum").add(name);
    definition.withObject("properties").fields().forEachRemaining(e -> properties.set(e.getKey(), e.getValue()));
    definition.set("properties", properties);
    ArrayNode required = JSON.createArrayNode().add("type");
    definition.withArray("required").forEach(required::add);
    definition.set("required", required);
    return new CustomDefinition(definition);
  }

  /** The schemas written here rather than generated: see the class comment. */
  private CustomDefinition custom(ResolvedType type,
      com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
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
    if (Map.class.isAssignableFrom(erased) && type.getTypeParameters().size() == 2) {
      // a map's values typed (tags, outputs), or any JSON where it is free-form (a chart's values): a bare object
      // read as one with no keys at all (TypeScript's Record<string, never>)
      ResolvedType value = type.getTypeParameters().get(1);
      ObjectNode map = JSON.createObjectNode().put("type", "object");
      if (value.getErasedType() == Object.class) {
        map.putObject("additionalProperties");
      } else {
        map.set("additionalProperties", context.createDefinitionReference(value));
      }
      return new CustomDefinition(map);
    }
    if (erased == Requests.SubmitJob.class) {
      return new CustomDefinition(submitJob(context));
    }
    if (erased == Requests.ImportJob.class) {
      return new CustomDefinition(importJob(context));
    }
    if (erased == Requests.ReviseJob.class) {
      return new CustomDefinition(reviseJob(context));
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
  }

  /**
   * The fields a request body must carry, by the JSON names the server's own checks name when one is missing (a
   * test posts {@code {}} to each route and compares). Specs' are read from their own {@code validate()}.
   */
  private static final Map<Class<?>, Set<String>> REQUIRED_IN_REQUESTS = Map.ofEntries(
      Map.entry(Requests.SubmitJob.class, Set.of("spaceID", "kind", "config")),
      Map.entry(Requests.ReviseJob.class, Set.of("kind", "config")),
      Map.entry(Requests.InstallComponent.class, Set.of("spaceID", "componentID")),
      Map.entry(Requests.CreateNamespace.class, Set.of("name")),
      Map.entry(Requests.SpaceStatusChange.class, Set.of("status")),
      Map.entry(Requests.CreateDatabase.class, Set.of("name", "owner")),
      Map.entry(Requests.StartRemediation.class, Set.of("recommendationID", "subjectID")),
      Map.entry(Requests.Decision.class, Set.of()),
      Map.entry(dev.zop.provisioner.GuardrailRequest.class, Set.of("name", "level", "rule")),
      Map.entry(Requests.GuardrailPatch.class, Set.of()),
      Map.entry(dev.zop.provisioner.GuardrailExemptionRequest.class, Set.of("guardrailID", "reason", "expiresAt")),
      // a rule is read in a request and written in answers: what a request must carry is what a rule must have
      Map.entry(GuardrailRule.SpaceBudget.class, Set.of("monthlyMax")),
      Map.entry(GuardrailRule.CostIncrease.class, Set.of()),
      Map.entry(GuardrailRule.AllowedSizes.class, Set.of("sizes")),
      Map.entry(GuardrailRule.AllowedRegions.class, Set.of("regions")),
      Map.entry(GuardrailRule.AllowedVersions.class, Set.of("versions")),
      Map.entry(GuardrailRule.MaxCount.class, Set.of("max")),
      Map.entry(GuardrailRule.RequiredTags.class, Set.of("tags")),
      Map.entry(GuardrailRule.AllowedKinds.class, Set.of("kinds")),
      Map.entry(GuardrailRule.Cel.class, Set.of("expression")),
      Map.entry(dev.zop.provisioner.CloudAccountRequest.class, Set.of("provider", "name")),
      Map.entry(dev.zop.provisioner.SpaceRequest.class, Set.of("provider", "name", "cloudAccountId")),
      Map.entry(dev.zop.provisioner.JobPatch.class, Set.of()));

  private static final Map<Class<?>, Set<String>> REQUIRED_IN_SPECS = specRequirements();

  /**
   * Whether {@code property} of {@code owner} is listed as required: in a request body, when the server refuses
   * the body without it; in an answer, when the service always writes it (every field, null or not, unless the
   * type or field is written {@code NON_NULL}: then the primitives only).
   */
  private static boolean required(Class<?> owner, String property, boolean primitive, JsonInclude fieldInclusion) {
    Set<String> request = REQUIRED_IN_REQUESTS.get(owner);
    if (request != null) {
      return request.contains(property);
    }
    if (owner.getPackageName().equals(ResourceSpec.class.getPackageName())
        || owner == dev.zop.provisioner.remediation.Recommendation.class) {
      return REQUIRED_IN_SPECS.getOrDefault(owner, Set.of()).contains(property);
    }
    JsonInclude inclusion = fieldInclusion != null ? fieldInclusion : owner.getAnnotation(JsonInclude.class);
    boolean alwaysWritten = inclusion == null || inclusion.value() == JsonInclude.Include.ALWAYS
        || inclusion.value() == JsonInclude.Include.USE_DEFAULTS;
    return alwaysWritten || primitive;
  }

  /**
   * Whether a field may be written as null: in a type marked {@code @NullMarked} (or nested in one), only where the
   * field is {@code @Nullable}, as the record's own constructor enforces; elsewhere any field may be (null: the
   * default).
   */
  private static Boolean nullable(Class<?> owner, java.lang.reflect.Member member) {
    if (member instanceof java.lang.reflect.Field field && !field.getType().isPrimitive() && nullMarked(owner)) {
      return field.getAnnotatedType().isAnnotationPresent(Nullable.class);
    }
    return null;
  }

  private static boolean nullMarked(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (c.isAnnotationPresent(NullMarked.class)) {
        return true;
      }
    }
    return type.getPackage() != null && type.getPackage().isAnnotationPresent(NullMarked.class);
  }

  /** What each kind's spec reports missing when a {@code config} of {@code {}} is validated. */
  private static Map<Class<?>, Set<String>> specRequirements() {
    Map<Class<?>, Set<String>> required = new java.util.HashMap<>();
    for (JobKind kind : JobKind.values()) {
      if (kind == JobKind.REMEDIATION) {
        continue;
      }
      Class<? extends ResourceSpec> type = ResourceSpec.typeFor(kind);
      try {
        ResourceSpec empty = WireJson.lenient().readValue("{}", type);
        required.put(type, empty.validate().stream().filter(e -> e.code().equals("required"))
            .map(e -> e.field()).filter(f -> !f.contains(".") && !f.contains("[")).collect(Collectors.toSet()));
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot read {} as " + type.getSimpleName(), e);
      }
    }
    return Map.copyOf(required);
  }

  /** A reference to the schema of {@code shape}, filled in when {@link #definitions()} is called. */
  ObjectNode reference(Endpoint.Shape shape) {
    return builder.createSchemaReference(shape.type(), shape.arguments());
  }

  /** Every schema referred to so far, by name, as {@code components/schemas} holds them. */
  ObjectNode definitions() {
    ObjectNode all = builder.collectDefinitions("components/schemas");
    written.forEach(all::set);
    oneSchemaPerKind(all, "Job", "%sJob", "config", "a provisioning job: its kind says which spec its config is");
    oneSchemaPerKind(all, "JobRevision", "%sJobRevision", "config",
        "a revision of a job: its kind says which spec its config is");
    oneSchemaPerKind(all, "ImportPlan", "%sImportPlan", "observedConfig",
        "what an import would take over: its kind says which spec its observedConfig is");
    return all;
  }

  /**
   * A submit's body is one of a body per kind, told apart by {@code kind}, so that a client generated from the
   * document builds the right {@code config} (the specs share field names, so the config alone cannot say).
   */
  private ObjectNode submitJob(com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
    return byKind("the job to submit (or plan): its space, its kind and the spec of that kind", "Submit%sJob",
        written::put, (kind, body) -> {
          ObjectNode properties = body.putObject("properties");
          properties.putObject("spaceID").put("type", "string").put("description", "the space to provision into");
          properties.set("config", specReference(context, kind));
          properties.putObject("name").put("description", "a display name").putArray("type").add("string")
              .add("null");
          ObjectNode tags = properties.putObject("tags");
          tags.putArray("type").add("object").add("null");
          tags.putObject("additionalProperties").put("type", "string");
          body.put("type", "object").putArray("required").add("spaceID").add("kind").add("config");
        });
  }

  /**
   * An import's body is one of a body per kind, told apart by {@code kind}, as a submit's is: the config describes
   * what exists, in that kind's spec.
   */
  private ObjectNode importJob(com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
    return byKind("what exists, to import (or plan importing): its space, kind, id in the cloud and the spec of that"
        + " kind describing it", "Import%sJob", written::put, (kind, body) -> {
          ObjectNode properties = body.putObject("properties");
          properties.putObject("spaceID").put("type", "string").put("description", "the space it is in");
          properties.putObject("externalID").put("type", "string").put("description", "its id (or name) in the"
              + " cloud");
          properties.set("config", specReference(context, kind));
          body.put("type", "object").putArray("required").add("spaceID").add("kind").add("externalID").add("config");
        });
  }

  /**
   * A revision's body is one of a body per kind, told apart by {@code kind} (the job's, which a revision keeps), so
   * that a generated client builds, and a read-modify-write sends back, that kind's {@code config}.
   */
  private ObjectNode reviseJob(com.github.victools.jsonschema.generator.SchemaGenerationContext context) {
    return byKind("a job's whole config as it should be, and the job's kind, which says which spec it is",
        "Revise%sJob", written::put, (kind, body) -> {
          body.putObject("properties").set("config", specReference(context, kind));
          body.put("type", "object").putArray("required").add("kind").add("config");
        });
  }

  private static ObjectNode specReference(com.github.victools.jsonschema.generator.SchemaGenerationContext context,
      JobKind kind) {
    return context.createDefinitionReference(context.getTypeContext().resolve(ResourceSpec.typeFor(kind)));
  }

  /**
   * An answer that carries a spec (a job, a revision, an import's plan) is one of a schema per kind, told apart by
   * {@code kind}: each the answer's own fields with {@code kind} fixed and {@code specField} that kind's spec, so
   * that a generated client reads a datastore's config as a datastore's (an {@code anyOf} of specs sharing field
   * names read every config as the first that fitted). Each variant has every field rather than an {@code allOf} of
   * the common ones, which generators merge losing their nulls. Made from the generated schema {@code name} once
   * its references are filled in.
   */
  private static void oneSchemaPerKind(ObjectNode all, String name, String nameFormat, String specField,
      String description) {
    ObjectNode generated = (ObjectNode) all.get(name);
    if (generated == null) {
      return;
    }
    all.set(name, byKind(description, nameFormat, all::set, (kind, variant) -> {
      variant.setAll(generated.deepCopy());
      ((ObjectNode) variant.get("properties")).putObject(specField).put("$ref", "#/components/schemas/"
          + ResourceSpec.typeFor(kind).getSimpleName());
    }));
    // the specs' union is referred to by nothing now
    all.remove("ResourceSpec");
    all.remove("ResourceSpec-nullable");
  }

  /**
   * One of a schema per kind (but remediation), told apart by {@code kind}: {@code fill} writes each (named
   * {@code nameFormat} with the spec's name less "Spec") and {@code kind} is then fixed to that kind; each is kept
   * with {@code keep}.
   */
  private static ObjectNode byKind(String description, String nameFormat,
      java.util.function.BiConsumer<String, ObjectNode> keep,
      java.util.function.BiConsumer<JobKind, ObjectNode> fill) {
    ObjectNode schema = JSON.createObjectNode();
    schema.put("description", description);
    ArrayNode oneOf = schema.putArray("oneOf");
    ObjectNode mapping = JSON.createObjectNode();
    for (JobKind kind : JobKind.values()) {
      if (kind == JobKind.REMEDIATION) {
        continue;
      }
      String name = String.format(nameFormat, ResourceSpec.typeFor(kind).getSimpleName().replace("Spec", ""));
      ObjectNode variant = JSON.createObjectNode();
      fill.accept(kind, variant);
      ((ObjectNode) variant.get("properties")).putObject("kind").put("type", "string").putArray("enum")
          .add(kind.wireName());
      keep.accept(name, variant);
      oneOf.addObject().put("$ref", "#/components/schemas/" + name);
      mapping.put(kind.wireName(), "#/components/schemas/" + name);
    }
    ObjectNode discriminator = schema.putObject("discriminator");
    discriminator.put("propertyName", "kind");
    discriminator.set("mapping", mapping);
    return schema;
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

  /** The {@code @JsonValue} accessor Jackson writes a type as (an id as its string), or null. */
  static Method jsonValue(Class<?> type) {
    for (Method method : type.getMethods()) {
      if (method.isAnnotationPresent(JsonValue.class) && !Modifier.isStatic(method.getModifiers())) {
        return method;
      }
    }
    return null;
  }

  /** The component name of a shape's schema: {@code Job}; a map of strings (a status answer) is {@code Status}. */
  static String name(Endpoint.Shape shape) {
    return Map.class.isAssignableFrom(shape.type()) ? "Status" : shape.type().getSimpleName();
  }

  /**
   * {@code Page<Job>} is {@code PageOfJob}: names OpenAPI accepts ({@code [A-Za-z0-9._-]}). An enum declared in a
   * record, and a kind of guardrail rule, is named with it ({@code DriftReport.Status} is {@code DriftReportStatus}): two enums called Status
   * were {@code Status-1} and {@code Status-2}, and a generated client's {@code Status1}, {@code Status2}.
   */
  private static String name(ResolvedType type) {
    Class<?> erased = type.getErasedType();
    // a rule's kinds too: GuardrailRule.MaxCount is GuardrailRuleMaxCount, not a bare MaxCount
    boolean qualified = erased.getEnclosingClass() != null
        && (erased.isEnum() || erased.getEnclosingClass() == GuardrailRule.class);
    StringBuilder name = new StringBuilder(qualified
        ? erased.getEnclosingClass().getSimpleName() + erased.getSimpleName() : erased.getSimpleName());
    List<ResolvedType> arguments = type.getTypeParameters();
    for (int i = 0; i < arguments.size(); i++) {
      name.append(i == 0 ? "Of" : "And").append(name(arguments.get(i)));
    }
    return name.toString();
  }
}

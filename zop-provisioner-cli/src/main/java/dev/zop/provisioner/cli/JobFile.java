package dev.zop.provisioner.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.wire.WireJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A job file: the body of {@code POST /provisioning-jobs} ({@code spaceID}, {@code kind}, {@code config},
 * {@code name}, {@code tags}) in YAML or JSON. What is wrong with one is said in the file's terms — its line and
 * column, the field's path, what was expected — never as a Java type or a parser's internals ({@link Invalid}).
 */
record JobFile(SpaceId spaceId, ResourceSpec spec, String name, Map<String, String> tags) {
  /** A job file that cannot become a job, with where and why; the command exits with the usage code. */
  static final class Invalid extends IllegalArgumentException {
    Invalid(Path file, JsonLocation at, String field, String message) {
      super(file + (at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
          + ": " + (field == null ? "" : field + ": ") + message);
    }
  }

  static JobFile read(Path file) throws IOException {
    return read(file, null);
  }

  /** The job file, in the space {@code space} when given (then the file's own {@code spaceID} may be left out). */
  static JobFile read(Path file, String space) throws IOException {
    return read(file, space, true);
  }

  /**
   * A revised config for a job that exists: the same file as a submit's, whose {@code spaceID} (the job's space) may
   * be left out.
   */
  static ResourceSpec readRevision(Path file) throws IOException {
    return read(file, null, false).spec();
  }

  private static JobFile read(Path file, String space, boolean spaceRequired) throws IOException {
    ObjectMapper yaml = WireJson.strict().copyWith(new YAMLFactory()); // YAML is a superset of JSON
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new Invalid(file, null, null, "no such file");
    }
    JsonNode node;
    try {
      node = yaml.readTree(text);
    } catch (JsonProcessingException e) {
      throw new Invalid(file, e.getLocation(), null, "not YAML or JSON: " + firstLine(e.getOriginalMessage()));
    }
    if (node == null || !node.isObject()) {
      throw new Invalid(file, null, null, "a job file is a mapping of spaceID, kind and config (the REST body)");
    }
    String spaceField = node.hasNonNull("spaceID") ? "spaceID" : node.hasNonNull("spaceId") ? "spaceId" : null;
    List<String> missing = new ArrayList<>();
    if (spaceField == null && space == null && spaceRequired) {
      missing.add("spaceID");
    }
    for (String field : List.of("kind", "config")) {
      if (!node.hasNonNull(field)) {
        missing.add(field);
      }
    }
    if (!missing.isEmpty()) {
      throw new Invalid(file, null, null, String.join(", ", missing) + (missing.size() == 1 ? " is" : " are")
          + " required");
    }
    JobKind kind = kind(file, text, node.get("kind").asText());
    if (!node.get("config").isObject()) {
      throw new Invalid(file, locate(text, List.of("config")), "config", "a mapping of the " + kind.wireName()
          + " fields");
    }
    ObjectNode config = (ObjectNode) node.get("config");
    // a version written as a number keeps the digits it was written with: 1.30, not 1.3
    if (config.has("version") && config.get("version").isNumber()) {
      config.put("version", rawScalar(text, List.of("config", "version")));
    }
    ResourceSpec spec;
    try {
      spec = yaml.treeToValue(config, ResourceSpec.typeFor(kind));
    } catch (JsonMappingException e) {
      List<Object> path = new ArrayList<>(List.of("config"));
      e.getPath().forEach(ref -> path.add(ref.getFieldName() != null ? ref.getFieldName() : ref.getIndex()));
      throw new Invalid(file, locate(text, path), render(path), explain(e));
    }
    Map<String, String> tags = Map.of();
    if (node.has("tags")) {
      try {
        tags = yaml.convertValue(node.get("tags"), yaml.getTypeFactory().constructMapType(Map.class, String.class,
            String.class));
      } catch (IllegalArgumentException e) {
        throw new Invalid(file, locate(text, List.of("tags")), "tags", "a mapping of names to text");
      }
    }
    String spaceId = space != null ? space : spaceField != null ? node.get(spaceField).asText() : null;
    return new JobFile(spaceId == null ? null : SpaceId.of(spaceId), spec,
        node.hasNonNull("name") ? node.get("name").asText() : null, tags);
  }

  private static JobKind kind(Path file, String text, String value) {
    try {
      JobKind kind = JobKind.fromWire(value);
      if (kind != JobKind.REMEDIATION) {
        return kind;
      }
    } catch (IllegalArgumentException e) {
      // named below with the kinds there are
    }
    String kinds = Arrays.stream(JobKind.values()).filter(k -> k != JobKind.REMEDIATION).map(JobKind::wireName)
        .collect(Collectors.joining(", "));
    throw new Invalid(file, locate(text, List.of("kind")), "kind", "unknown kind '" + value + "'; one of: " + kinds);
  }

  /** What a binding error means for the person who wrote the file. */
  static String explain(JsonMappingException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      List<String> known = unknown.getKnownPropertyIds() == null ? List.of() : unknown.getKnownPropertyIds()
          .stream().map(String::valueOf).sorted().toList();
      return "unknown field" + (known.isEmpty() ? "" : "; the fields are " + String.join(", ", known));
    }
    if (e instanceof InvalidFormatException format) {
      return "expected " + expected(format.getTargetType()) + ", got '" + format.getValue() + "'";
    }
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return "expected " + expected(mismatch.getTargetType());
    }
    if (e instanceof ValueInstantiationException instantiation && instantiation.getCause() != null) {
      return instantiation.getCause().getMessage();
    }
    return firstLine(e.getOriginalMessage());
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "another value";
    }
    if (Number.class.isAssignableFrom(type) || type == int.class || type == long.class || type == double.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (List.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (type == String.class) {
      return "text";
    }
    if (type.isEnum()) {
      return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> String.valueOf(c).toLowerCase(Locale.ROOT))
          .collect(Collectors.joining(", "));
    }
    return "a mapping";
  }

  /** {@code config.nodeGroups[0].min}. */
  static String render(List<Object> path) {
    StringBuilder out = new StringBuilder();
    for (Object part : path) {
      if (part instanceof Integer index) {
        out.append('[').append(index).append(']');
      } else {
        out.append(out.isEmpty() ? "" : ".").append(part);
      }
    }
    return out.toString();
  }

  /** Where a field's value is in the file, or null; the nearest enclosing value when the field is not there. */
  static JsonLocation locate(String text, List<Object> path) {
    try (JsonParser parser = new YAMLFactory().createParser(text)) {
      if (parser.nextToken() == null) {
        return null;
      }
      return walk(parser, path, 0);
    } catch (IOException e) {
      return null;
    }
  }

  private static JsonLocation walk(JsonParser parser, List<Object> path, int depth) throws IOException {
    JsonLocation here = parser.currentTokenLocation();
    if (depth == path.size()) {
      return here;
    }
    Object wanted = path.get(depth);
    if (parser.currentToken() == JsonToken.START_OBJECT) {
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonLocation key = parser.currentTokenLocation();
        parser.nextToken();
        if (name.equals(wanted)) {
          // an unknown field is reported at its name
          return depth + 1 == path.size() ? key : walk(parser, path, depth + 1);
        }
        parser.skipChildren();
      }
    } else if (parser.currentToken() == JsonToken.START_ARRAY && wanted instanceof Integer index) {
      int at = 0;
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        if (at++ == index) {
          return walk(parser, path, depth + 1);
        }
        parser.skipChildren();
      }
    }
    return here;
  }

  /** A scalar as written in the file ({@code 1.30}), found by its path. */
  private static String rawScalar(String text, List<Object> path) throws IOException {
    try (JsonParser parser = new YAMLFactory().createParser(text)) {
      parser.nextToken();
      for (Object part : path) {
        while (parser.nextToken() == JsonToken.FIELD_NAME && !parser.currentName().equals(part)) {
          parser.nextToken();
          parser.skipChildren();
        }
        parser.nextToken();
      }
      return parser.getText();
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}

package dev.zop.provisioner.helm;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values an install uses: the catalog's defaults, then the caller's, either of which may use dotted keys
 * ({@code controller.service.type}) or nested maps. They reach Helm as a values file, not as {@code --set}
 * strings, so a value with a comma or a dot stays one value.
 */
final class ChartValues {
  private ChartValues() {}

  /** Thrown for values that contradict each other, such as {@code a: 1} beside {@code a.b: 2}. */
  static final class InvalidValuesException extends Exception {
    InvalidValuesException(String message) {
      super(message);
    }
  }

  static Map<String, Object> merge(Map<String, Object> defaults, Map<String, Object> overrides)
      throws InvalidValuesException {
    Map<String, Object> flat = new TreeMap<>();
    flatten("", defaults, flat);
    Map<String, Object> callers = new TreeMap<>();
    flatten("", overrides, callers);
    // a caller's key replaces every default under it (setting "a" replaces "a.b"), and vice versa
    for (String key : callers.keySet()) {
      flat.keySet().removeIf(k -> k.startsWith(key + ".") || key.startsWith(k + "."));
    }
    flat.putAll(callers);
    return nest(flat);
  }

  /** Whether a release's supplied values ({@code helm get values}, YAML) are {@code values}. */
  static boolean same(Map<String, Object> values, String releaseValues) throws IOException {
    YAMLMapper yaml = new YAMLMapper();
    com.fasterxml.jackson.databind.JsonNode supplied = yaml.readTree(releaseValues == null ? "" : releaseValues);
    com.fasterxml.jackson.databind.JsonNode wanted = yaml.valueToTree(values);
    boolean none = supplied == null || supplied.isMissingNode() || supplied.isNull()
        || supplied.isObject() && supplied.isEmpty();
    return none ? wanted.isEmpty() : supplied.equals(wanted);
  }

  /** A stable digest-friendly rendering: keys sorted. */
  static String yaml(Map<String, Object> values) throws IOException {
    return new YAMLMapper().writeValueAsString(values);
  }

  static Path write(Map<String, Object> values, Path dir) throws IOException {
    Path file = Files.createTempFile(dir, "values-", ".yaml",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, yaml(values));
    return file;
  }

  @SuppressWarnings("unchecked")
  private static void flatten(String prefix, Map<String, Object> values, Map<String, Object> into) {
    for (Map.Entry<String, Object> e : values.entrySet()) {
      String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
      if (e.getValue() instanceof Map<?, ?> nested && !nested.isEmpty()) {
        flatten(key, (Map<String, Object>) nested, into);
      } else {
        into.put(key, e.getValue());
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> nest(Map<String, Object> flat) throws InvalidValuesException {
    Map<String, Object> root = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : flat.entrySet()) {
      List<String> path = List.of(e.getKey().split("\\.", -1));
      if (path.stream().anyMatch(String::isEmpty)) {
        throw new InvalidValuesException("value key " + e.getKey() + " has an empty part");
      }
      Map<String, Object> node = root;
      for (String part : path.subList(0, path.size() - 1)) {
        Object child = node.computeIfAbsent(part, k -> new LinkedHashMap<String, Object>());
        if (!(child instanceof Map)) {
          throw new InvalidValuesException("value " + e.getKey() + " is under " + part + ", which is set to a "
              + "plain value");
        }
        node = (Map<String, Object>) child;
      }
      node.put(path.get(path.size() - 1), e.getValue());
    }
    return root;
  }
}

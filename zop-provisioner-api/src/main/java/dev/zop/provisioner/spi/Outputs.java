package dev.zop.provisioner.spi;

import java.util.Map;

/** Recorded outputs of a job's steps: names, ids and endpoints, never secrets (only secret references). */
public record Outputs(Map<String, String> values) {
  public Outputs {
    values = Map.copyOf(values);
  }

  public static Outputs empty() {
    return new Outputs(Map.of());
  }

  public static Outputs of(Map<String, String> values) {
    return new Outputs(values);
  }

  /** The value, or null when not recorded. */
  public String get(String key) {
    return values.get(key);
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  /** The value; throws when a step that should have recorded it did not. */
  public String require(String key) {
    String value = values.get(key);
    if (value == null) {
      throw new IllegalStateException("output '" + key + "' was not recorded");
    }
    return value;
  }
}

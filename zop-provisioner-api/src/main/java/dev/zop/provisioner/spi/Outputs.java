package dev.zop.provisioner.spi;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Recorded outputs of a job's steps: names, ids and endpoints, never secrets (only secret references). Read
 * them with the driver's declared {@link OutputKey}s.
 */
public final class Outputs {
  private static final Consumer<String> UNOBSERVED = key -> {};

  private final Map<String, String> values;
  private final Consumer<String> reads;

  private Outputs(Map<String, String> values, Consumer<String> reads) {
    this.values = Map.copyOf(values);
    this.reads = reads;
  }

  public static Outputs empty() {
    return of(Map.of());
  }

  public static Outputs of(Map<String, String> values) {
    return new Outputs(values, UNOBSERVED);
  }

  /**
   * These values, telling {@code reads} the name of every key asked of them by name; {@link #values()} tells it
   * nothing. For tests that check what steps read, such as the provider TCK.
   */
  public static Outputs observed(Map<String, String> values, Consumer<String> reads) {
    return new Outputs(values, Objects.requireNonNull(reads, "reads"));
  }

  /** Every value recorded, by key name. */
  public Map<String, String> values() {
    return values;
  }

  /** The value, or null when not recorded. */
  public <T> T get(OutputKey<T> key) {
    String text = get(key.name());
    return text == null ? null : key.read(text);
  }

  public boolean has(OutputKey<?> key) {
    return has(key.name());
  }

  /** The value; throws when a step that should have recorded it did not. */
  public <T> T require(OutputKey<T> key) {
    return key.read(require(key.name()));
  }

  /** The value, or null when not recorded. Prefer the declared {@link OutputKey}. */
  public String get(String key) {
    reads.accept(key);
    return values.get(key);
  }

  /** Prefer the declared {@link OutputKey}. */
  public boolean has(String key) {
    reads.accept(key);
    return values.containsKey(key);
  }

  /** The value; throws when a step that should have recorded it did not. Prefer the declared {@link OutputKey}. */
  public String require(String key) {
    String value = get(key);
    if (value == null) {
      throw new IllegalStateException("output '" + key + "' was not recorded");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Outputs other && other.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return "Outputs" + values;
  }
}

package dev.zop.provisioner.spi;

import dev.zop.provisioner.SecretRef;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One entry of the outputs a job's steps hand each other (what {@link Outputs} holds): its name and how its value
 * is written and read. A driver declares each key once, as a constant, and its create steps, its teardown and
 * its plan all use that constant; {@link ResourceDriver#outputKeys} lists them, and the provider TCK fails when a step
 * reads or writes an entry its driver does not declare.
 *
 * <pre>{@code
 * static final OutputKey<String> CLUSTER_NAME = OutputKey.text("clusterName");
 * static final OutputKey.PerPart<String> NODE_GROUP = OutputKey.textPerPart("nodegroup.%s.name");
 *
 * ctx.recordIntent(Map.ofEntries(CLUSTER_NAME.is(spec.name())));
 * if (recorded.has(NODE_GROUP.of(group.name()))) { ... }
 * }</pre>
 *
 * @param <T> the value's type; the job keeps every value as text
 */
public final class OutputKey<T> {
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.:/-]*");

  private final String name;
  private final String type;
  private final Function<String, T> read;
  private final Function<T, String> write;

  private OutputKey(String name, String type, Function<String, T> read, Function<T, String> write) {
    this.name = Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not an output key name: '" + name + "'");
    }
    this.type = type;
    this.read = read;
    this.write = write;
  }

  /** A key whose value is text: a name, an id, an address. */
  public static OutputKey<String> text(String name) {
    return new OutputKey<>(name, "text", Function.identity(), Function.identity());
  }

  /** A key whose value is a secret reference (never the secret). */
  public static OutputKey<SecretRef> secretRef(String name) {
    return new OutputKey<>(name, "secretRef", SecretRef::of, SecretRef::value);
  }

  /** A key whose value is a whole number (a port, a count). */
  public static OutputKey<Integer> number(String name) {
    return new OutputKey<>(name, "number", Integer::valueOf, String::valueOf);
  }

  /** A key whose value is true or false. */
  public static OutputKey<Boolean> flag(String name) {
    return new OutputKey<>(name, "flag", Boolean::valueOf, String::valueOf);
  }

  /** Keys of text, one for each named part of a spec (a node group, a subnet): {@code "nodegroup.%s.name"}. */
  public static PerPart<String> textPerPart(String template) {
    return new PerPart<>(template, "text", Function.identity(), Function.identity());
  }

  public String name() {
    return name;
  }

  /** How the value is written: {@code text}, {@code secretRef}, {@code number} or {@code flag}. */
  public String type() {
    return type;
  }

  /** The entry recording {@code value} under this key, for a step's result or its intent. */
  public Map.Entry<String, String> is(T value) {
    return Map.entry(name, write.apply(Objects.requireNonNull(value, () -> name + " needs a value")));
  }

  T read(String text) {
    return read.apply(text);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutputKey<?> other && other.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * A family of keys, one for each named part of a spec: the template's {@code %s} is the part's name.
   *
   * @param <T> the values' type
   */
  public static final class PerPart<T> {
    private final String template;
    private final String type;
    private final Pattern matches;
    private final Function<String, T> read;
    private final Function<T, String> write;

    private PerPart(String template, String type, Function<String, T> read, Function<T, String> write) {
      this.template = Objects.requireNonNull(template, "template");
      int at = template.indexOf("%s");
      if (at < 0 || template.indexOf("%s", at + 1) >= 0) {
        throw new IllegalArgumentException("a per-part key's template holds %s once: '" + template + "'");
      }
      this.matches = Pattern.compile(Pattern.quote(template.substring(0, at)) + ".+"
          + Pattern.quote(template.substring(at + 2)));
      this.type = type;
      this.read = read;
      this.write = write;
    }

    /** The key of the part named {@code part}. */
    public OutputKey<T> of(String part) {
      return new OutputKey<>(template.replace("%s", part), type, read, write);
    }

    /** How the values are written, as {@link OutputKey#type}. */
    public String type() {
      return type;
    }

    /** Whether {@code name} is the key of some part of this family. */
    public boolean covers(String name) {
      return matches.matcher(name).matches();
    }

    public String template() {
      return template;
    }

    @Override
    public String toString() {
      return template;
    }
  }
}

package dev.zop.provisioner.spi;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The outputs a driver's steps may record and read: its declared {@link OutputKey}s and {@link OutputKey.PerPart}
 * families. {@link ResourceDriver#outputKeys} returns it; the provider TCK checks every step against it.
 */
public final class OutputKeys {
  private static final OutputKeys NONE = new OutputKeys(List.of(), List.of());

  private final Set<String> names;
  private final List<OutputKey<?>> keys;
  private final List<OutputKey.PerPart<?>> families;

  private OutputKeys(List<OutputKey<?>> keys, List<OutputKey.PerPart<?>> families) {
    this.keys = List.copyOf(keys);
    this.names = keys.stream().map(OutputKey::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
    this.families = List.copyOf(families);
  }

  /** No declaration: a driver that has not declared its outputs. The TCK refuses it. */
  public static OutputKeys undeclared() {
    return NONE;
  }

  /** The keys and families given ({@link OutputKey}, {@link OutputKey.PerPart} or {@link OutputKeys}). */
  public static OutputKeys of(Object... keys) {
    Set<OutputKey<?>> singles = new LinkedHashSet<>();
    List<OutputKey.PerPart<?>> families = new ArrayList<>();
    for (Object key : keys) {
      if (key instanceof OutputKey<?> single) {
        singles.add(single);
      } else if (key instanceof OutputKey.PerPart<?> family) {
        families.add(family);
      } else if (key instanceof OutputKeys set) {
        singles.addAll(set.keys);
        families.addAll(set.families);
      } else {
        throw new IllegalArgumentException("not an output key: " + key);
      }
    }
    return new OutputKeys(List.copyOf(singles), families);
  }

  /** Every {@code static final} {@link OutputKey} and {@link OutputKey.PerPart} field of {@code holders}. */
  public static OutputKeys declaredIn(Class<?>... holders) {
    List<Object> keys = new ArrayList<>();
    for (Class<?> holder : holders) {
      for (Field field : holder.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        boolean isKey = OutputKey.class.equals(field.getType()) || OutputKey.PerPart.class.equals(field.getType());
        if (isKey && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
          try {
            field.setAccessible(true);
            keys.add(field.get(null));
          } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read output key " + holder.getName() + "." + field.getName(), e);
          }
        }
      }
    }
    return of(keys.toArray());
  }

  /** This declaration and {@code other}'s together. */
  public OutputKeys and(OutputKeys other) {
    return of(this, other);
  }

  public boolean isDeclared() {
    return !names.isEmpty() || !families.isEmpty();
  }

  /** Whether {@code name} is a declared key, or the key of a part of a declared family. */
  public boolean declares(String name) {
    return names.contains(name) || families.stream().anyMatch(f -> f.covers(name));
  }

  /**
   * The declaration as a plan shows it: each key, then each family with {@code {part}} for its part's name, each
   * once, sorted by name.
   */
  public List<dev.zop.provisioner.PlanOutput> asPlanned() {
    java.util.Map<String, dev.zop.provisioner.PlanOutput> planned = new java.util.TreeMap<>();
    keys.forEach(key -> planned.put(key.name(), new dev.zop.provisioner.PlanOutput(key.name(), key.type(), false)));
    families.forEach(family -> {
      String pattern = family.template().replace("%s", "{part}");
      planned.put(pattern, new dev.zop.provisioner.PlanOutput(pattern, family.type(), true));
    });
    return List.copyOf(planned.values());
  }

  @Override
  public String toString() {
    List<String> all = new ArrayList<>(names);
    families.forEach(f -> all.add(f.template()));
    return all.stream().sorted().toList().toString();
  }
}

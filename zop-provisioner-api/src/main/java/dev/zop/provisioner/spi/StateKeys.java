package dev.zop.provisioner.spi;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state a driver's steps may record and read: its declared {@link StateKey}s and {@link StateKey.PerPart}
 * families. {@link ResourceDriver#state} returns it; the provider TCK checks every step against it.
 */
public final class StateKeys {
  private static final StateKeys NONE = new StateKeys(List.of(), List.of());

  private final Set<String> names;
  private final List<StateKey<?>> keys;
  private final List<StateKey.PerPart<?>> families;

  private StateKeys(List<StateKey<?>> keys, List<StateKey.PerPart<?>> families) {
    this.keys = List.copyOf(keys);
    this.names = keys.stream().map(StateKey::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
    this.families = List.copyOf(families);
  }

  /** No declaration: a driver that has not declared its state. The TCK refuses it. */
  public static StateKeys undeclared() {
    return NONE;
  }

  /** The keys and families given ({@link StateKey}, {@link StateKey.PerPart} or {@link StateKeys}). */
  public static StateKeys of(Object... keys) {
    Set<StateKey<?>> singles = new LinkedHashSet<>();
    List<StateKey.PerPart<?>> families = new ArrayList<>();
    for (Object key : keys) {
      if (key instanceof StateKey<?> single) {
        singles.add(single);
      } else if (key instanceof StateKey.PerPart<?> family) {
        families.add(family);
      } else if (key instanceof StateKeys set) {
        singles.addAll(set.keys);
        families.addAll(set.families);
      } else {
        throw new IllegalArgumentException("not a state key: " + key);
      }
    }
    return new StateKeys(List.copyOf(singles), families);
  }

  /** Every {@code static final} {@link StateKey} and {@link StateKey.PerPart} field of {@code holders}. */
  public static StateKeys declaredIn(Class<?>... holders) {
    List<Object> keys = new ArrayList<>();
    for (Class<?> holder : holders) {
      for (Field field : holder.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        boolean isKey = StateKey.class.equals(field.getType()) || StateKey.PerPart.class.equals(field.getType());
        if (isKey && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
          try {
            field.setAccessible(true);
            keys.add(field.get(null));
          } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read state key " + holder.getName() + "." + field.getName(), e);
          }
        }
      }
    }
    return of(keys.toArray());
  }

  /** This declaration and {@code other}'s together. */
  public StateKeys and(StateKeys other) {
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
  public List<dev.zop.provisioner.PlanState> asPlanned() {
    java.util.Map<String, dev.zop.provisioner.PlanState> planned = new java.util.TreeMap<>();
    keys.forEach(key -> planned.put(key.name(), new dev.zop.provisioner.PlanState(key.name(), key.type(), false)));
    families.forEach(family -> {
      String pattern = family.template().replace("%s", "{part}");
      planned.put(pattern, new dev.zop.provisioner.PlanState(pattern, family.type(), true));
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

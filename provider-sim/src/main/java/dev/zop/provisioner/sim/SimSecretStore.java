package dev.zop.provisioner.sim;

import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.SecretStore;
import java.util.Map;
import java.util.NoSuchElementException;

/** <b>A test double</b>: the simulated cloud's secret manager, a map in memory. */
final class SimSecretStore implements SecretStore {
  private static final String PREFIX = "sim-secrets:";
  private final Map<String, String> values;

  SimSecretStore(Map<String, String> values) {
    this.values = values;
  }

  @Override
  public String id() {
    return "sim-secrets";
  }

  @Override
  public SecretRef put(String name, String value) {
    values.put(name, value);
    return SecretRef.of(PREFIX + name);
  }

  @Override
  public String get(SecretRef ref) {
    String value = values.get(name(ref));
    if (value == null) {
      throw new NoSuchElementException("no secret " + ref);
    }
    return value;
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref);
    values.put(name(ref), newValue);
    return ref;
  }

  @Override
  public void delete(SecretRef ref) {
    values.remove(name(ref));
  }

  private static String name(SecretRef ref) {
    if (!ref.value().startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a sim secret reference: " + ref);
    }
    return ref.value().substring(PREFIX.length());
  }
}

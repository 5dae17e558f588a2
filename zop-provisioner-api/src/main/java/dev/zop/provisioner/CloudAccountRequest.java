package dev.zop.provisioner;

import java.util.LinkedHashMap;
import java.util.Map;

/** What it takes to connect a cloud account. Immutable; each method returns a changed copy. */
public record CloudAccountRequest(
    String provider, String name, String credentialsRef, Map<String, String> properties) {

  public CloudAccountRequest {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  public static CloudAccountRequest of(String provider, String name) {
    return new CloudAccountRequest(provider, name, null, Map.of());
  }

  public CloudAccountRequest credentialsRef(String reference) {
    return new CloudAccountRequest(provider, name, reference, properties);
  }

  public CloudAccountRequest property(String key, String value) {
    Map<String, String> next = new LinkedHashMap<>(properties);
    next.put(key, value);
    return new CloudAccountRequest(provider, name, credentialsRef, next);
  }
}

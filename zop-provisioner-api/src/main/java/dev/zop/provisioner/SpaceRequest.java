package dev.zop.provisioner;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What it takes to register a space. Immutable; each method returns a changed copy:
 * {@code SpaceRequest.of("aws", "checkout-prod-us-east-1", accountId).region("us-east-1")
 * .clusterName("checkout-prod")}.
 *
 * <p>AWS and GCP spaces need {@code config.region}; Azure spaces need {@code config.resourceGroup}.
 * {@code spaceType} defaults to {@code kubernetes}.
 *
 * @param kubeconfig a kubeconfig (YAML) for a cluster the provider cannot mint credentials for, or null. It is
 *                   written to the secret store at once; the space keeps only {@code config.kubeconfigRef}.
 */
public record SpaceRequest(
    String name, String provider, String spaceType, CloudAccountId cloudAccountId, Map<String, String> config,
    String kubeconfig) {

  public static final String DEFAULT_SPACE_TYPE = "kubernetes";

  public SpaceRequest {
    spaceType = spaceType == null ? DEFAULT_SPACE_TYPE : spaceType;
    config = config == null ? Map.of() : Map.copyOf(config);
  }

  public SpaceRequest(String name, String provider, String spaceType, CloudAccountId cloudAccountId,
      Map<String, String> config) {
    this(name, provider, spaceType, cloudAccountId, config, null);
  }

  /** The space's cluster is reached with this kubeconfig (kept in the secret store, never returned). */
  public SpaceRequest kubeconfig(String yaml) {
    return new SpaceRequest(name, provider, spaceType, cloudAccountId, config, yaml);
  }

  @Override
  public String toString() {
    return "SpaceRequest[" + name + ", " + provider + ", " + spaceType + ", " + cloudAccountId + ", " + config
        + (kubeconfig == null ? "" : ", kubeconfig hidden") + "]";
  }

  public static SpaceRequest of(String provider, String name, CloudAccountId cloudAccountId) {
    return new SpaceRequest(name, provider, DEFAULT_SPACE_TYPE, cloudAccountId, Map.of());
  }

  /** @deprecated a provider is named by its id: {@code of("aws", name, cloudAccountId)}. */
  @Deprecated
  public static SpaceRequest aws(String name, CloudAccountId cloudAccountId) {
    return of("aws", name, cloudAccountId);
  }

  /** @deprecated a provider is named by its id: {@code of("gcp", name, cloudAccountId)}. */
  @Deprecated
  public static SpaceRequest gcp(String name, CloudAccountId cloudAccountId) {
    return of("gcp", name, cloudAccountId);
  }

  /** @deprecated a provider is named by its id: {@code of("azure", name, cloudAccountId)}. */
  @Deprecated
  public static SpaceRequest azure(String name, CloudAccountId cloudAccountId) {
    return of("azure", name, cloudAccountId);
  }

  public SpaceRequest region(String region) {
    return config("region", region);
  }

  public SpaceRequest clusterName(String clusterName) {
    return config("clusterName", clusterName);
  }

  public SpaceRequest resourceGroup(String resourceGroup) {
    return config("resourceGroup", resourceGroup);
  }

  public SpaceRequest spaceType(String type) {
    return new SpaceRequest(name, provider, type, cloudAccountId, config, kubeconfig);
  }

  public SpaceRequest config(String key, String value) {
    Map<String, String> next = new LinkedHashMap<>(config);
    next.put(key, value);
    return new SpaceRequest(name, provider, spaceType, cloudAccountId, next, kubeconfig);
  }
}

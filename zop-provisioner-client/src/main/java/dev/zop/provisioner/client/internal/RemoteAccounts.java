package dev.zop.provisioner.client.internal;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.CloudAccounts;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import java.util.List;
import okhttp3.HttpUrl;

/** {@link CloudAccounts} over {@code /cloud-accounts}. */
public final class RemoteAccounts implements CloudAccounts {

  private final HttpTransport http;

  public RemoteAccounts(HttpTransport http) {
    this.http = http;
  }

  @Override
  public CloudAccount create(CloudAccountRequest request) {
    return http.send("POST", request, CloudAccount.class, "cloud-accounts");
  }

  @Override
  public List<dev.zop.provisioner.ProviderInfo> providers() {
    return http.get(PROVIDERS.getType(), "providers");
  }

  private static final com.fasterxml.jackson.core.type.TypeReference<List<dev.zop.provisioner.ProviderInfo>> PROVIDERS =
      new com.fasterxml.jackson.core.type.TypeReference<>() {};

  @Override
  public CloudAccount get(CloudAccountId id) {
    return http.get(CloudAccount.class, "cloud-accounts", id.value());
  }

  @Override
  public List<CloudAccount> list() {
    return http.all(CloudAccount.class, "cloud-accounts");
  }

  @Override
  public List<DiscoveredCluster> clusters(CloudAccountId id, String region) {
    HttpUrl.Builder url = http.url("cloud-accounts", id.value(), "clusters");
    if (region != null) { // none: the service uses the account's own region
      url.addQueryParameter("region", region);
    }
    return http.get(url.build(), RemoteSpaces.CLUSTERS.getType());
  }

  @Override
  public ClusterAccessGrant registerClusterAccess(CloudAccountId id, String region, String clusterName) {
    return http.send("PUT", null, ClusterAccessGrant.class, "cloud-accounts", id.value(), "clusters", region,
        clusterName, "access");
  }

  @Override
  public void revokeClusterAccess(CloudAccountId id, String region, String clusterName) {
    http.send("DELETE", null, Void.class, "cloud-accounts", id.value(), "clusters", region, clusterName, "access");
  }
}

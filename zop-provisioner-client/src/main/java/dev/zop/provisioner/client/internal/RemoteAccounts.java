package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.CloudAccounts;
import java.util.List;

/** {@link CloudAccounts} over {@code /cloud-accounts}. */
public final class RemoteAccounts implements CloudAccounts {
  private static final TypeReference<List<CloudAccount>> LIST = new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteAccounts(HttpTransport http) {
    this.http = http;
  }

  @Override
  public CloudAccount create(CloudAccountRequest request) {
    return http.send("POST", request, CloudAccount.class, "cloud-accounts");
  }

  @Override
  public CloudAccount get(CloudAccountId id) {
    return http.get(CloudAccount.class, "cloud-accounts", id.value());
  }

  @Override
  public List<CloudAccount> list() {
    return http.get(LIST.getType(), "cloud-accounts");
  }
}

package dev.zop.provisioner;

import java.util.List;

/** Cloud accounts of the caller's organisation. */
public interface CloudAccounts {
  CloudAccount create(CloudAccountRequest request);

  CloudAccount get(CloudAccountId id);

  List<CloudAccount> list();
}

package dev.zop.provisioner.azure;

import dev.zop.provisioner.kit.OwnerTags;

/** The tags every resource the provider makes carries: the job that owns it and its part in the job. */
final class AzureTags {
  static final OwnerTags OWNER = new OwnerTags("zop-job", "zop-part");

  private AzureTags() {}
}

package dev.zop.provisioner.sim;

import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;

/** The state the simulated cloud's steps record: each part's name and id, and what a kind's parts expose. */
final class SimState {
  private SimState() {}

  /** A part's cloud name, under its key ({@code cluster.name}, {@code nodegroup.workers.name}). */
  static final OutputKey.PerPart<String> PART_NAME = OutputKey.textPerPart("%s.name");
  /** A part's simulated id. */
  static final OutputKey.PerPart<String> PART_ID = OutputKey.textPerPart("%s.id");
  static final OutputKey<String> ENDPOINT = OutputKey.text("endpoint");
  static final OutputKey<String> DNS_NAME = OutputKey.text("dnsName");
  static final OutputKey<String> REPOSITORY_URI = OutputKey.text("repositoryUri");

  static final OutputKeys ALL = OutputKeys.declaredIn(SimState.class)
      .and(OutputKeys.of(SharedOutputs.CLUSTER_NAME, SharedOutputs.datastore()));
}

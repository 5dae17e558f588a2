package dev.zop.provisioner.sim;

import dev.zop.provisioner.spi.SharedState;
import dev.zop.provisioner.spi.StateKey;
import dev.zop.provisioner.spi.StateKeys;

/** The state the simulated cloud's steps record: each part's name and id, and what a kind's parts expose. */
final class SimState {
  private SimState() {}

  /** A part's cloud name, under its key ({@code cluster.name}, {@code nodegroup.workers.name}). */
  static final StateKey.PerPart<String> PART_NAME = StateKey.textPerPart("%s.name");
  /** A part's simulated id. */
  static final StateKey.PerPart<String> PART_ID = StateKey.textPerPart("%s.id");
  static final StateKey<String> ENDPOINT = StateKey.text("endpoint");
  static final StateKey<String> DNS_NAME = StateKey.text("dnsName");
  static final StateKey<String> REPOSITORY_URI = StateKey.text("repositoryUri");

  static final StateKeys ALL = StateKeys.declaredIn(SimState.class)
      .and(StateKeys.of(SharedState.CLUSTER_NAME, SharedState.datastore()));
}

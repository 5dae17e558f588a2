package dev.zop.provisioner.spi;

import dev.zop.provisioner.SecretRef;

/**
 * The entries of a job's state that the engine itself reads, so every provider records them under the same
 * names: a datastore's connection (for its databases and credentials) and a Kubernetes cluster's name (for the
 * space made from it). A driver lists those it records in its {@link ResourceDriver#state}.
 */
public final class SharedState {
  private SharedState() {}

  /** A datastore's engine, as its wire name ({@code postgres}, {@code mysql}, {@code redis}). */
  public static final StateKey<String> ENGINE = StateKey.text("engine");
  /** The host a datastore answers on. */
  public static final StateKey<String> HOST = StateKey.text("host");
  /** The port a datastore answers on. */
  public static final StateKey<Integer> PORT = StateKey.number("port");
  /** Whether the datastore is reached over TLS. */
  public static final StateKey<Boolean> TLS = StateKey.flag("tls");
  /** The datastore's administrative user. */
  public static final StateKey<String> ADMIN_USER = StateKey.text("adminUser");
  /** Where the administrative user's password is kept (never the password). */
  public static final StateKey<SecretRef> ADMIN_SECRET_REF = StateKey.secretRef("adminSecretRef");
  /** A Kubernetes cluster's name in its cloud. */
  public static final StateKey<String> CLUSTER_NAME = StateKey.text("clusterName");

  /** A datastore's connection entries. */
  public static StateKeys datastore() {
    return StateKeys.of(ENGINE, HOST, PORT, TLS, ADMIN_USER, ADMIN_SECRET_REF);
  }
}

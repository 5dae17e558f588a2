package dev.zop.provisioner.spi;

import dev.zop.provisioner.SecretRef;

/**
 * The entries of a job's outputs that the engine itself reads, so every provider records them under the same
 * names: a datastore's connection (for its databases and credentials) and a Kubernetes cluster's name (for the
 * space made from it). A driver lists those it records in its {@link ResourceDriver#outputKeys}.
 */
public final class SharedOutputs {
  private SharedOutputs() {}

  /** A datastore's engine, as its wire name ({@code postgres}, {@code mysql}, {@code redis}). */
  public static final OutputKey<String> ENGINE = OutputKey.text("engine");
  /** The host a datastore answers on. */
  public static final OutputKey<String> HOST = OutputKey.text("host");
  /** The port a datastore answers on. */
  public static final OutputKey<Integer> PORT = OutputKey.number("port");
  /** Whether the datastore is reached over TLS. */
  public static final OutputKey<Boolean> TLS = OutputKey.flag("tls");
  /** The datastore's administrative user. */
  public static final OutputKey<String> ADMIN_USER = OutputKey.text("adminUser");
  /** Where the administrative user's password is kept (never the password). */
  public static final OutputKey<SecretRef> ADMIN_SECRET_REF = OutputKey.secretRef("adminSecretRef");
  /** A Kubernetes cluster's name in its cloud. */
  public static final OutputKey<String> CLUSTER_NAME = OutputKey.text("clusterName");

  /** A datastore's connection entries. */
  public static OutputKeys datastore() {
    return OutputKeys.of(ENGINE, HOST, PORT, TLS, ADMIN_USER, ADMIN_SECRET_REF);
  }
}

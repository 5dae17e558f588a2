package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the engine keeps its state: an H2 file store by default, PostgreSQL by flag or environment. */
final class StoreOptions {
  @Option(names = "--data-dir", description = "H2 store and local secrets (default: $ZOP_HOME, else"
      + " $XDG_DATA_HOME/zop-provisioner, else ~/.local/share/zop-provisioner)")
  Path dataDir;

  @Option(names = "--jdbc-url", defaultValue = "${env:ZOP_JDBC_URL}",
      description = "PostgreSQL store, e.g. jdbc:postgresql://db:5432/zop (env ZOP_JDBC_URL)")
  String jdbcUrl;

  @Option(names = "--jdbc-user", defaultValue = "${env:ZOP_JDBC_USER}", description = "(env ZOP_JDBC_USER)")
  String jdbcUser;

  @Option(names = "--jdbc-password", defaultValue = "${env:ZOP_JDBC_PASSWORD}", arity = "0..1", interactive = true,
      description = "(env ZOP_JDBC_PASSWORD)")
  String jdbcPassword;

  /**
   * The store for a one-shot command (no workers). An H2 file store has one user at a time: while a
   * {@code zop serve} holds it, this says so in one line instead of H2's lock error.
   */
  EmbeddedProvisioner open() {
    try {
      return engine().runWorkers(false).build();
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
        if (t instanceof java.sql.SQLException sql && sql.getErrorCode() == H2_DATABASE_IN_USE) {
          throw new IllegalArgumentException("the store is in use by another process (a running zop serve?)\n"
              + "  fix: stop it for a moment, or keep the service's store on PostgreSQL (--jdbc-url), where any"
              + " number of zop commands share it");
        }
      }
      throw e;
    }
  }

  /** H2's "Database may be already in use" (ErrorCode.DATABASE_ALREADY_OPEN_1). */
  private static final int H2_DATABASE_IN_USE = 90020;

  EmbeddedProvisionerBuilder engine() {
    EmbeddedProvisionerBuilder builder = EmbeddedProvisioner.builder();
    if (dataDir != null) {
      builder.dataDirectory(dataDir);
    }
    if (jdbcUrl != null && !jdbcUrl.isBlank()) {
      builder.jdbc(jdbcUrl, jdbcUser, jdbcPassword);
    }
    return builder;
  }
}

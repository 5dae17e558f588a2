package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import java.nio.file.Path;
import java.util.Optional;
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
   * The store for a one-shot command (no workers). An H2 file store a running {@code zop serve} holds is reached
   * through the loopback port it serves it on ({@link SharedH2Store}); one held by a program that does not share
   * it is said so in one line instead of H2's lock error.
   */
  EmbeddedProvisioner open() {
    if (h2()) {
      Optional<String> served = SharedH2Store.servedUrl(directory());
      if (served.isPresent()) {
        try {
          return engine().jdbc(served.get(), "sa", "").runWorkers(false).build();
        } catch (RuntimeException e) {
          if (cause(e, java.net.ConnectException.class) == null) {
            throw e;
          }
          // the service that wrote the address is gone (killed before it could remove it): open the file
        }
      }
    }
    try {
      return engine().runWorkers(false).build();
    } catch (RuntimeException e) {
      java.sql.SQLException sql = cause(e, java.sql.SQLException.class);
      if (sql != null && sql.getErrorCode() == H2_DATABASE_IN_USE) {
        throw new IllegalArgumentException("the store is held by a program that does not share it\n"
            + "  fix: stop it for a moment (a running zop serve shares its store with zop tokens), or keep the"
            + " store on PostgreSQL (--jdbc-url)");
      }
      throw e;
    }
  }

  /** H2's "Database may be already in use" (ErrorCode.DATABASE_ALREADY_OPEN_1). */
  private static final int H2_DATABASE_IN_USE = 90020;

  /** Whether the store is the H2 file in the data directory (no --jdbc-url). */
  boolean h2() {
    return jdbcUrl == null || jdbcUrl.isBlank();
  }

  /** The data directory: H2's file, the local secrets and the served store's address. */
  Path directory() {
    return dataDir != null ? dataDir : EmbeddedProvisionerBuilder.defaultDataDirectory();
  }

  EmbeddedProvisionerBuilder engine() {
    EmbeddedProvisionerBuilder builder = EmbeddedProvisioner.builder().dataDirectory(directory());
    if (!h2()) {
      builder.jdbc(jdbcUrl, jdbcUser, jdbcPassword);
    }
    return builder;
  }

  static <T extends Throwable> T cause(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}

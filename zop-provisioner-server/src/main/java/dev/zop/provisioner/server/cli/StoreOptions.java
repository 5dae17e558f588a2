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

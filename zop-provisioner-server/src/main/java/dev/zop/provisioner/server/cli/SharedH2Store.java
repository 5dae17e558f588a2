package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Optional;
import org.h2.tools.Server;

/**
 * The H2 file store of a running {@code zop serve}, served to the other zop commands of this machine: H2 lets one
 * process at a time open the file, so the service also listens on a loopback port, and {@code zop tokens} reaches
 * the store through it instead of being refused. The address and a random key (without which H2 opens nothing)
 * are in {@value #ADDRESS_FILE} in the data directory, readable by its owner only; the file goes when the service
 * stops. H2's own AUTO_SERVER does the same but closes the store in its own shutdown hook, before the engine has
 * let its running steps end.
 */
final class SharedH2Store implements AutoCloseable {
  static final String ADDRESS_FILE = "store.address";

  private final Server server;
  private final Path addressFile;

  private SharedH2Store(Server server, Path addressFile) {
    this.server = server;
    this.addressFile = addressFile;
  }

  /** Serves the store in {@code dataDirectory}, which this process has open, on a loopback port. */
  static SharedH2Store serve(Path dataDirectory) {
    // H2 reads where to listen once per JVM; left alone it listens on every interface
    System.setProperty("h2.bindAddress", InetAddress.getLoopbackAddress().getHostAddress());
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String key = HexFormat.of().formatHex(random);
    Server server;
    try {
      server = Server.createTcpServer("-tcpPort", "0", "-tcpDaemon", "-key", key,
          EmbeddedProvisionerBuilder.h2Database(dataDirectory)).start();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot share the store with other zop commands: " + e.getMessage(), e);
    }
    Path file = dataDirectory.resolve(ADDRESS_FILE);
    try {
      Path written = Files.createTempFile(dataDirectory, ADDRESS_FILE, ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(written, "jdbc:h2:tcp://" + InetAddress.getLoopbackAddress().getHostAddress() + ":"
          + server.getPort() + "/" + key + "\n");
      Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      server.stop();
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return new SharedH2Store(server, file);
  }

  /** The JDBC URL a running service serves the store in {@code dataDirectory} on, if one does. */
  static Optional<String> servedUrl(Path dataDirectory) {
    try {
      return Optional.of(Files.readString(dataDirectory.resolve(ADDRESS_FILE)).strip());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop();
    try {
      Files.deleteIfExists(addressFile);
    } catch (IOException e) {
      // a stale address is harmless: the next command finds nothing listening and opens the file itself
    }
  }
}

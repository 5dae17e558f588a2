package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.cli.ZopExtension;
import java.util.List;

/**
 * {@code zop serve}, {@code zop tokens} and {@code zop prices}: the commands that need the service's classes, its
 * store or its providers.
 */
public final class ServerCommands implements ZopExtension {
  @Override
  public List<Object> commands() {
    return List.of(new ServeCommand(), new TokensCommand(), new PricesCommand());
  }
}

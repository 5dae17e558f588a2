package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.cli.ZopExtension;
import java.util.List;

/** {@code zop serve} and {@code zop tokens}: the commands that need the service's classes and its store. */
public final class ServerCommands implements ZopExtension {
  @Override
  public List<Object> commands() {
    return List.of(new ServeCommand(), new TokensCommand());
  }
}

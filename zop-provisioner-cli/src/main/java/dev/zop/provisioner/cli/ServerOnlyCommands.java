package dev.zop.provisioner.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * What {@code zop} says of {@code serve}, {@code tokens} and {@code prices} on the client's class path alone: they
 * need the service's classes, which {@code scripts/zop} puts on the class path for exactly these commands.
 */
final class ServerOnlyCommands {
  private ServerOnlyCommands() {}

  static String refusal(String command) {
    return "`zop " + command + "` needs the service's classes, which this client-only class path does not carry\n"
        + "  fix: run it through scripts/zop (it picks the server's class path for serve, tokens and prices), or"
        + " put zop-provisioner-server on the class path";
  }

  @Command(name = "serve", description = "Run the provisioning service (runs on the server's class path).")
  static final class Serve implements Callable<Integer> {
    @Unmatched
    List<String> ignored;

    @Override
    public Integer call() {
      throw new IllegalArgumentException(refusal("serve"));
    }
  }

  @Command(name = "tokens", description = "Make and revoke API tokens (runs on the server's class path).")
  static final class Tokens implements Callable<Integer> {
    @Unmatched
    List<String> ignored;

    @Override
    public Integer call() {
      throw new IllegalArgumentException(refusal("tokens"));
    }
  }

  @Command(name = "prices", description = "Refresh the price tables from the vendors' files (runs on the server's"
      + " class path).")
  static final class Prices implements Callable<Integer> {
    @Unmatched
    List<String> ignored;

    @Override
    public Integer call() {
      throw new IllegalArgumentException(refusal("prices"));
    }
  }
}

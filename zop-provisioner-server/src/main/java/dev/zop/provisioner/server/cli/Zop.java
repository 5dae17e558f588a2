package dev.zop.provisioner.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code zop} command: run the service, make tokens, and drive a running service from a shell. */
@Command(name = "zop", mixinStandardHelpOptions = true, version = "zop 0.1.0",
    description = "Zop Provisioner: the provisioning service and its command-line client.",
    subcommands = {ServeCommand.class, TokensCommand.class, AccountsCommand.class, SpacesCommand.class,
        JobsCommand.class, RemediationsCommand.class})
public final class Zop implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command and returns its exit code: 0 done, 1 refused by the service, 2 bad usage. */
  public static int execute(String... args) {
    return new CommandLine(new Zop()).setExecutionExceptionHandler(new ErrorReporter()).execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}

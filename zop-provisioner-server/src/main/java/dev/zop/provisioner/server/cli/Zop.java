package dev.zop.provisioner.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code zop} command: run the service, make tokens, and drive a running service from a shell. */
@Command(name = "zop", mixinStandardHelpOptions = true, versionProvider = Zop.Version.class,
    description = "Zop Provisioner: the provisioning service and its command-line client.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done (a watched job succeeded)", "1:refused by the service (the error says why)",
        "2:usage: a bad option or job file (the error says where)", "3:the service cannot be reached",
        "4:the watched job ended failed"},
    subcommands = {ServeCommand.class, TokensCommand.class, AccountsCommand.class, SpacesCommand.class,
        JobsCommand.class, RemediationsCommand.class, ConfigCommand.class, CommandLine.HelpCommand.class,
        picocli.AutoComplete.GenerateCompletion.class})
public final class Zop implements Runnable {
  static final int DONE = 0;
  static final int REFUSED = 1;
  static final int USAGE = 2;
  static final int UNREACHABLE = 3;
  static final int JOB_FAILED = 4;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // the service logs what it does; a one-shot command prints its answer, and only warnings beside it
    // (ZOP_LOG_LEVEL sets it for either); read once, when the first logger is made
    String level = System.getenv("ZOP_LOG_LEVEL");
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level != null ? level
        : args.length > 0 && args[0].equals("serve") ? "info" : "warn");
    System.exit(execute(args));
  }

  /**
   * Runs the command and returns its exit code: 0 done, 1 refused by the service, 2 bad usage or job file,
   * 3 the service unreachable, 4 a watched job ended failed.
   */
  public static int execute(String... args) {
    return new CommandLine(new Zop()).setExecutionExceptionHandler(new ErrorReporter()).execute(args);
  }

  /** The version the build stamped into the client jar, not one written here. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"zop " + dev.zop.provisioner.client.ProvisionerClient.VERSION};
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}

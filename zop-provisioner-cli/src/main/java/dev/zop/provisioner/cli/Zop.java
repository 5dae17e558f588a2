package dev.zop.provisioner.cli;

import java.util.ServiceLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code zop} command: drive a running service from a shell; with the server module on the class path
 * (a {@link ZopExtension}), also run the service and make tokens.
 */
@Command(name = "zop", mixinStandardHelpOptions = true, versionProvider = Zop.Version.class,
    description = "Zop Provisioner: the provisioning service and its command-line client.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done (a watched job succeeded)", "1:refused by the service (the error says why), or a plan a guardrail denies",
        "2:usage: a bad option or job file (the error says where)", "3:the service cannot be reached",
        "4:the watched job ended failed", "5:drift found (zop jobs drift)"},
    subcommands = {AccountsCommand.class, SpacesCommand.class, JobsCommand.class, RemediationsCommand.class,
        GuardrailsCommand.class, ConfigCommand.class, CommandLine.HelpCommand.class, CompletionCommand.class})
public final class Zop implements Runnable {
  public static final int DONE = 0;
  public static final int REFUSED = 1;
  public static final int USAGE = 2;
  public static final int UNREACHABLE = 3;
  public static final int JOB_FAILED = 4;
  public static final int DRIFTED = 5;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // the service logs what it does; a one-shot command prints its answer, and only warnings beside it
    // (ZOP_LOG_LEVEL sets it for either); read once, when the first logger is made
    String level = System.getenv("ZOP_LOG_LEVEL");
    boolean serve = args.length > 0 && args[0].equals("serve");
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level != null ? level : serve ? "info" : "warn");
    if (serve && level == null) {
      // the service's own lines at info; its libraries' start-up chatter (each migration, Jetty's and Javalin's
      // banners) only when something is wrong, so the address and the demo's ids are what a person sees
      for (String library : LIBRARIES) {
        System.setProperty("org.slf4j.simpleLogger.log." + library, "warn");
      }
      QUIET_JUL.setLevel(java.util.logging.Level.WARNING);
    }
    System.exit(execute(args));
  }

  private static final java.util.List<String> LIBRARIES = java.util.List.of("org.flywaydb", "org.eclipse.jetty",
      "io.javalin", "com.zaxxer.hikari");

  /** OpenTelemetry's note that its SDK is present but not autoconfigured (kept: JUL holds loggers weakly). */
  private static final java.util.logging.Logger QUIET_JUL = java.util.logging.Logger.getLogger(
      "io.opentelemetry.api.GlobalOpenTelemetry");

  /**
   * Runs the command and returns its exit code: 0 done, 1 refused by the service, 2 bad usage or job file,
   * 3 the service unreachable, 4 a watched job ended failed, 5 drift found.
   */
  public static int execute(String... args) {
    return command().execute(args);
  }

  /** The command tree: the client's commands, and {@code serve}/{@code tokens} from the server module if present. */
  static CommandLine command() {
    CommandLine zop = new CommandLine(new Zop());
    for (ZopExtension extension : ServiceLoader.load(ZopExtension.class)) {
      extension.commands().forEach(zop::addSubcommand);
    }
    if (!zop.getSubcommands().containsKey("serve")) {
      zop.addSubcommand(new ServerOnlyCommands.Serve());
    }
    if (!zop.getSubcommands().containsKey("tokens")) {
      zop.addSubcommand(new ServerOnlyCommands.Tokens());
    }
    if (!zop.getSubcommands().containsKey("prices")) {
      zop.addSubcommand(new ServerOnlyCommands.Prices());
    }
    return zop.setExecutionExceptionHandler(new ErrorReporter());
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

package dev.zop.provisioner.cli;

import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code zop generate-completion}: picocli's bash/zsh completion script, which offers every command, flag and the
 * values a flag lists, with one addition: where a command takes a job id, a Tab asks the service for the ids of
 * the newest jobs (through the same {@code zop}, with the same URL, token and context it would use).
 */
@Command(name = "generate-completion", mixinStandardHelpOptions = true,
    description = "Print a bash/zsh completion script for zop: source <(zop generate-completion)")
final class CompletionCommand implements Callable<Integer> {
  /** The function the script asks for job ids; its output is one id a line. */
  private static final String JOB_IDS = """

      # The newest jobs' ids, from the service this shell's zop talks to (ZOP_URL/ZOP_TOKEN or the context)
      function _zop_job_ids() {
        "${COMP_WORDS[0]}" jobs list -q --limit 100 2>/dev/null
      }
      """;

  @CommandLine.Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    System.out.print(script(spec.root().commandLine()));
    return 0;
  }

  static String script(CommandLine root) {
    String script = AutoComplete.bash(root.getCommandName(), root);
    // provisioning jobs' commands only: a remediation's id is another list
    for (CommandLine sub : root.getSubcommands().get("jobs").getSubcommands().values()) {
      if (takesJobId(sub.getCommandSpec())) {
        script = withJobIds(script, "_picocli_" + root.getCommandName() + "_jobs_" + sub.getCommandName());
      }
    }
    return script + JOB_IDS;
  }

  private static boolean takesJobId(CommandSpec command) {
    return command.positionalParameters().stream().map(PositionalParamSpec::paramLabel)
        .anyMatch("JOB_ID"::equals);
  }

  /** In {@code function}, the positional parameter's candidates become the service's job ids. */
  private static String withJobIds(String script, String function) {
    Matcher start = Pattern.compile("function " + Pattern.quote(function) + "\\(\\) \\{").matcher(script);
    if (!start.find()) {
      throw new IllegalStateException("no " + function + " in picocli's completion script");
    }
    int at = script.indexOf("local positionals=\"\"", start.end());
    int end = script.indexOf("\n}\n", start.end());
    if (at < 0 || at > end) {
      throw new IllegalStateException(function + " has no positional candidates to fill");
    }
    return script.substring(0, at) + "local positionals=$(_zop_job_ids)"
        + script.substring(at + "local positionals=\"\"".length());
  }
}

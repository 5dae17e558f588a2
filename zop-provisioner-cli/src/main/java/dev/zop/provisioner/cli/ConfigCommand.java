package dev.zop.provisioner.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "config", mixinStandardHelpOptions = true,
    description = "Contexts: named services, each a URL and where its token is kept (a variable or a file).",
    subcommands = {ConfigCommand.SetContext.class, ConfigCommand.UseContext.class, ConfigCommand.GetContexts.class})
final class ConfigCommand {
  @Command(name = "set-context", mixinStandardHelpOptions = true,
      description = "Add or change a context; the first one added becomes the current one.")
  static final class SetContext implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "the context's name")
    String name;

    @Option(names = "--url", required = true, description = "the service, e.g. https://zop.internal:5087")
    String url;

    static final class TokenSource {
      @Option(names = "--token-env", description = "the environment variable that holds the token")
      String env;

      @Option(names = "--token-file", description = "a file that holds the token (keep it owner-only)")
      String file;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    TokenSource token;

    @Override
    public Integer call() {
      Contexts contexts = Contexts.standard(System.getenv());
      contexts.set(name, new Contexts.Context(url, token.env, token.file));
      System.out.println("context " + name + " saved in " + contexts.file());
      return 0;
    }
  }

  @Command(name = "use-context", mixinStandardHelpOptions = true, description = "Make a context the current one.")
  static final class UseContext implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "the context's name")
    String name;

    @Override
    public Integer call() {
      Contexts.standard(System.getenv()).use(name);
      System.out.println("current context: " + name);
      return 0;
    }
  }

  @Command(name = "get-contexts", mixinStandardHelpOptions = true, description = "List the contexts.")
  static final class GetContexts implements Callable<Integer> {
    @Override
    public Integer call() {
      Contexts contexts = Contexts.standard(System.getenv());
      String current = contexts.current();
      for (Map.Entry<String, Contexts.Context> e : contexts.all().entrySet()) {
        Map<String, String> shown = new LinkedHashMap<>();
        shown.put("url", e.getValue().url());
        shown.put("token", e.getValue().tokenEnv() != null ? "env " + e.getValue().tokenEnv()
            : "file " + e.getValue().tokenFile());
        System.out.println((e.getKey().equals(current) ? "* " : "  ") + e.getKey() + "  " + shown.get("url")
            + "  (token from " + shown.get("token") + ")");
      }
      return 0;
    }
  }
}

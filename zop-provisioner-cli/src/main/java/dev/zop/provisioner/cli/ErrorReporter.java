package dev.zop.provisioner.cli;

import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.ValidationException;
import picocli.CommandLine;

/**
 * A refusal is printed as the service's code and message (and bad fields), not as a stack trace; the exit code
 * says which kind of trouble it was ({@link Zop}).
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
    if (e instanceof ProviderException unreachable
        && "service_unreachable".equals(unreachable.failure().code())) {
      cmd.getErr().println("error: " + unreachable.getMessage());
      cmd.getErr().println("  fix: start it (zop serve), or point --url / ZOP_URL at it");
      return Zop.UNREACHABLE;
    }
    if (e instanceof ProvisionerException refused) {
      cmd.getErr().println("error: " + refused.code() + ": " + refused.getMessage());
      if (refused instanceof ValidationException invalid) {
        invalid.fieldErrors().forEach(f -> cmd.getErr().println("  " + f.field() + ": " + f.message()));
        if (invalid.observedConfig() != null) {
          cmd.getErr().println("  the resource has, as a job file's kind and config:");
          cmd.getErr().println("    " + observed(invalid.observedConfig()));
        }
      }
      if (refused instanceof dev.zop.provisioner.GuardrailDeniedException denied) {
        denied.fieldErrors().forEach(f -> cmd.getErr().println("  " + f.field() + ": " + f.message()));
      }
      if (refused instanceof ProviderException provider && provider.failure().fixHint() != null) {
        cmd.getErr().println("  fix: " + provider.failure().fixHint());
      }
      return Zop.REFUSED;
    }
    if (e instanceof java.io.IOException || e instanceof IllegalArgumentException) {
      cmd.getErr().println("error: " + e.getMessage());
      return Zop.USAGE;
    }
    throw new IllegalStateException(e);
  }

  /** The observed config as a job file's {@code kind} and {@code config}, one line of JSON (which YAML reads). */
  private static String observed(dev.zop.provisioner.spec.ResourceSpec config) {
    try {
      java.util.Map<String, Object> file = new java.util.LinkedHashMap<>();
      file.put("kind", config.kind().wireName());
      file.put("config", config);
      return dev.zop.provisioner.wire.WireJson.lenient().writeValueAsString(file);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return String.valueOf(config);
    }
  }
}

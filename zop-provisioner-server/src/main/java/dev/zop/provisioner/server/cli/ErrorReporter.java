package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.ValidationException;
import picocli.CommandLine;

/** A refusal is printed as the service's code and message (and bad fields), not as a stack trace. */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
    if (e instanceof ProvisionerException refused) {
      cmd.getErr().println("error: " + refused.code() + ": " + refused.getMessage());
      if (refused instanceof ValidationException invalid) {
        invalid.fieldErrors().forEach(f -> cmd.getErr().println("  " + f.field() + ": " + f.message()));
      }
      if (refused instanceof ProviderException provider && provider.failure().fixHint() != null) {
        cmd.getErr().println("  fix: " + provider.failure().fixHint());
      }
      return 1;
    }
    if (e instanceof java.io.IOException || e instanceof IllegalArgumentException) {
      cmd.getErr().println("error: " + e.getMessage());
      return 2;
    }
    throw new IllegalStateException(e);
  }
}

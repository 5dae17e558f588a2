package dev.zop.provisioner.core.internal.remediation;

import java.util.function.Function;

/**
 * When remediation notifications go out. Approval-required always goes to the organisation's admins; terminal
 * success and failure go out only when {@code REMEDIATION_NOTIFY_TERMINAL} is {@code true}, so high-volume runs
 * stay quiet.
 */
public record NotificationRules(boolean notifyTerminal) {
  public static final String TERMINAL_VARIABLE = "REMEDIATION_NOTIFY_TERMINAL";

  /** Reads the rules from an environment (normally {@code System::getenv}). */
  public static NotificationRules fromEnvironment(Function<String, String> environment) {
    return new NotificationRules(Boolean.parseBoolean(environment.apply(TERMINAL_VARIABLE)));
  }
}

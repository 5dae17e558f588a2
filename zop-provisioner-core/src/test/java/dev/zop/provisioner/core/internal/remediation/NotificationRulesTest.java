package dev.zop.provisioner.core.internal.remediation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationRulesTest {
  @Test
  void terminalNotificationsFollowTheEnvironmentVariable() {
    assertThat(NotificationRules.fromEnvironment(Map.of("REMEDIATION_NOTIFY_TERMINAL", "true")::get)
        .notifyTerminal()).isTrue();
    assertThat(NotificationRules.fromEnvironment(Map.of("REMEDIATION_NOTIFY_TERMINAL", "TRUE")::get)
        .notifyTerminal()).isTrue();
    assertThat(NotificationRules.fromEnvironment(Map.of("REMEDIATION_NOTIFY_TERMINAL", "false")::get)
        .notifyTerminal()).isFalse();
    assertThat(NotificationRules.fromEnvironment(Map.of("REMEDIATION_NOTIFY_TERMINAL", "yes")::get)
        .notifyTerminal()).isFalse();
    assertThat(NotificationRules.fromEnvironment(Map.<String, String>of()::get).notifyTerminal()).isFalse();
  }
}

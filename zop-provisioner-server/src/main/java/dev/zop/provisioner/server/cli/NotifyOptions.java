package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.notify.EmailNotifier;
import dev.zop.provisioner.notify.Notifiers;
import dev.zop.provisioner.notify.WebhookNotifier;
import dev.zop.provisioner.spi.Notifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where {@code zop serve} delivers notifications (approval requests to the organisation's admins; results when
 * {@code REMEDIATION_NOTIFY_TERMINAL} is set): a signed webhook, email over SMTP, or both; the log when neither is
 * configured. Secrets come only from the environment.
 */
final class NotifyOptions {
  @Option(names = "--notify-webhook-url", defaultValue = "${env:ZOP_NOTIFY_WEBHOOK_URL}",
      description = "POST notifications here as signed JSON (env ZOP_NOTIFY_WEBHOOK_URL); the signing secret is "
          + "read from ZOP_NOTIFY_WEBHOOK_SECRET")
  String webhookUrl;

  @Option(names = "--notify-smtp-host", defaultValue = "${env:ZOP_NOTIFY_SMTP_HOST}",
      description = "send notifications by email through this SMTP server (env ZOP_NOTIFY_SMTP_HOST); a login, if "
          + "needed, from ZOP_NOTIFY_SMTP_USER and ZOP_NOTIFY_SMTP_PASSWORD")
  String smtpHost;

  @Option(names = "--notify-smtp-port", defaultValue = "${env:ZOP_NOTIFY_SMTP_PORT:-587}",
      description = "default 587 (env ZOP_NOTIFY_SMTP_PORT)")
  int smtpPort;

  @Option(names = "--notify-smtp-starttls", defaultValue = "${env:ZOP_NOTIFY_SMTP_STARTTLS:-true}",
      description = "require STARTTLS (default true; env ZOP_NOTIFY_SMTP_STARTTLS)")
  boolean startTls;

  @Option(names = "--notify-email-from", defaultValue = "${env:ZOP_NOTIFY_EMAIL_FROM}",
      description = "the sender address (env ZOP_NOTIFY_EMAIL_FROM)")
  String from;

  @Option(names = "--notify-admins", defaultValue = "${env:ZOP_NOTIFY_ADMINS}",
      description = "comma-separated addresses of the organisation's admins, who get approval requests "
          + "(env ZOP_NOTIFY_ADMINS)")
  String admins;

  /** The notifiers configured, or null for the engine's default (the log). */
  Notifier build(Map<String, String> env) {
    List<Notifier> notifiers = new ArrayList<>();
    if (webhookUrl != null && !webhookUrl.isBlank()) {
      String secret = env.get("ZOP_NOTIFY_WEBHOOK_SECRET");
      if (secret == null || secret.isBlank()) {
        throw new IllegalArgumentException("--notify-webhook-url needs ZOP_NOTIFY_WEBHOOK_SECRET (16 characters "
            + "or more) in the environment to sign with");
      }
      notifiers.add(WebhookNotifier.to(URI.create(webhookUrl.trim()), secret).build());
    }
    if (smtpHost != null && !smtpHost.isBlank()) {
      if (from == null || from.isBlank() || admins == null || admins.isBlank()) {
        throw new IllegalArgumentException("--notify-smtp-host needs --notify-email-from and --notify-admins");
      }
      EmailNotifier.Builder email = EmailNotifier.via(smtpHost.trim(), smtpPort, from.trim()).startTls(startTls)
          .group("org-admins", Arrays.asList(admins.split(",")));
      String user = env.get("ZOP_NOTIFY_SMTP_USER");
      if (user != null && !user.isBlank()) {
        email.login(user, env.getOrDefault("ZOP_NOTIFY_SMTP_PASSWORD", ""));
      }
      notifiers.add(email.build());
    }
    return notifiers.isEmpty() ? null : notifiers.size() == 1 ? notifiers.get(0) : Notifiers.all(notifiers);
  }
}

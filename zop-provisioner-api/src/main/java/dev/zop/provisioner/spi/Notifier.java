package dev.zop.provisioner.spi;

/** Delivers notifications (mail, chat, a notification service). The default writes them to the log. */
@FunctionalInterface
public interface Notifier {
  void send(Notification notification);
}

package dev.zop.provisioner.notify;

import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import java.util.List;

/** Fan-out: every notifier gets every notification; one that throws does not keep it from the others. */
public final class Notifiers {
  private Notifiers() {}

  public static Notifier all(List<? extends Notifier> notifiers) {
    List<Notifier> copy = List.copyOf(notifiers);
    return (Notification n) -> {
      RuntimeException first = null;
      for (Notifier notifier : copy) {
        try {
          notifier.send(n);
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }
}

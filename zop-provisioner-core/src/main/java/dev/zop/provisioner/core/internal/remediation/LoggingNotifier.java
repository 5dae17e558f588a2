package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The default notifier: writes each notification to the log, for a host that has not wired its own. */
public final class LoggingNotifier implements Notifier {
  private static final Logger LOG = LoggerFactory.getLogger(LoggingNotifier.class);

  @Override
  public void send(Notification n) {
    LOG.info("notification {} to {} of {}: job {} {}", n.template(), n.recipients(), n.orgId(), n.jobId(), n.data());
  }
}

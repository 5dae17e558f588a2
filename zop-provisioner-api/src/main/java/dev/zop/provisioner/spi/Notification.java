package dev.zop.provisioner.spi;

import dev.zop.provisioner.JobId;
import java.util.Map;

/**
 * A message for people.
 *
 * @param template   e.g. {@code remediation.approval_required}, {@code remediation.succeeded}
 * @param recipients who should get it, e.g. {@code org-admins}
 * @param data       the template's fields; never secrets
 */
public record Notification(String template, String orgId, String recipients, JobId jobId, Map<String, String> data) {
  public Notification {
    data = Map.copyOf(data);
  }
}

package dev.zop.provisioner.remediation;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One line of a remediation's audit timeline.
 *
 * @param eventType {@code created}, {@code approved}, {@code rejected}, {@code completed}, {@code failed} or
 *                  {@code cancelled}
 * @param stepName  null for job-level entries
 * @param reason    the approver's reason, or the failure message; null when none
 */
@NullMarked
public record AuditEntry(long seq, @Nullable String stepName, String eventType, String actor, @Nullable String reason,
    Instant createdAt) {
  public AuditEntry {
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}

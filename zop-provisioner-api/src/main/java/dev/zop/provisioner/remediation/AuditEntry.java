package dev.zop.provisioner.remediation;

import java.time.Instant;

/**
 * One line of a remediation's audit timeline.
 *
 * @param eventType {@code created}, {@code approved}, {@code rejected}, {@code completed}, {@code failed} or
 *                  {@code cancelled}
 * @param stepName  null for job-level entries
 * @param reason    the approver's reason, or the failure message; null when none
 */
public record AuditEntry(long seq, String stepName, String eventType, String actor, String reason,
    Instant createdAt) {}

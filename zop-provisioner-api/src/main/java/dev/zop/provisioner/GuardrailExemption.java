package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Leave for one job, or every job of one space, to break one guardrail until a moment: a broken verdict it covers is
 * {@code exempted}, naming it, and the change goes ahead. Granted by someone holding
 * {@link Policies#GUARDRAIL_EXEMPT}; it stops applying when it expires or is revoked, and is kept either way.
 *
 * @param jobId the job it covers, or null when it covers a space
 * @param spaceId the space it covers (every job in it), or null when it covers a job
 */
@NullMarked
public record GuardrailExemption(String id, GuardrailId guardrailId, @Nullable JobId jobId, @Nullable SpaceId spaceId,
    String reason, Instant expiresAt, String grantedBy, Instant grantedAt, @Nullable String revokedBy,
    @Nullable Instant revokedAt) {

  public GuardrailExemption {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(guardrailId, "guardrailId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(grantedBy, "grantedBy");
    Objects.requireNonNull(grantedAt, "grantedAt");
  }

  /** Whether it lets a change through at {@code now}: not revoked, not expired. */
  public boolean inForce(Instant now) {
    return revokedAt == null && now.isBefore(expiresAt);
  }

  /** Whether it covers a change of {@code job} (null for a job not written yet) in {@code space}. */
  public boolean covers(GuardrailId guardrail, @Nullable JobId job, SpaceId space) {
    return guardrailId.equals(guardrail) && (jobId != null ? jobId.equals(job) : space.equals(spaceId));
  }
}

package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What guardrails decided on one change, as the audit keeps it: the versions that answered (in {@code verdicts}),
 * the hash of the plan document they read, and what came of it. A person's decision on a held job is one too
 * ({@code approved} or {@code rejected}, by its {@code actor}, with the reason in its one verdict's message).
 *
 * @param jobId the job the change made or changed; null for a change refused before any job was written
 * @param action {@code create}, {@code revise}, {@code reconcile}, {@code retry}, or {@code approve} / {@code reject}
 * @param planHash the SHA-256 of the plan document the guardrails read, hex
 */
@NullMarked
public record GuardrailDecision(String id, @Nullable JobId jobId, SpaceId spaceId, String action, String planHash,
    Outcome outcome, List<GuardrailVerdict> verdicts, String actor, Instant decidedAt) {

  public GuardrailDecision {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(outcome, "outcome");
    verdicts = List.copyOf(verdicts);
  }

  /** What came of a change. */
  public enum Outcome {
    /** Every guardrail passed (or none applied). */
    ALLOWED,
    /** An advisory guardrail is broken; the change went ahead. */
    WARNED,
    /** The job waits for a person holding the approver grant. */
    APPROVAL_REQUIRED,
    /** The change was refused; nothing was written but this record. */
    DENIED,
    /** A person approved a held job. */
    APPROVED,
    /** A person rejected a held job; it is cancelled. */
    REJECTED;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Outcome fromWire(String value) {
      return EnumNames.parse(Outcome.class, value);
    }
  }
}

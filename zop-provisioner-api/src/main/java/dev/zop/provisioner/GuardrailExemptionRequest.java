package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * An exemption as its grantor asks for it: one guardrail, for one job or one space (exactly one of the two), a
 * reason, and when it ends (at most a year ahead). As a request body its ids are spelt as the product documents spell
 * them, {@code guardrailID}, {@code jobID}, {@code spaceID} ({@code guardrailId} and the like are read too).
 */
@NullMarked
public record GuardrailExemptionRequest(
    @JsonProperty("guardrailID") @JsonAlias("guardrailId") @Nullable GuardrailId guardrailId,
    @JsonProperty("jobID") @JsonAlias("jobId") @Nullable JobId jobId,
    @JsonProperty("spaceID") @JsonAlias("spaceId") @Nullable SpaceId spaceId,
    @Nullable String reason, @Nullable Instant expiresAt) {

  public static GuardrailExemptionRequest forSpace(GuardrailId guardrail, SpaceId space, String reason,
      Instant expiresAt) {
    return new GuardrailExemptionRequest(guardrail, null, space, reason, expiresAt);
  }

  public static GuardrailExemptionRequest forJob(GuardrailId guardrail, JobId job, String reason, Instant expiresAt) {
    return new GuardrailExemptionRequest(guardrail, job, null, reason, expiresAt);
  }
}

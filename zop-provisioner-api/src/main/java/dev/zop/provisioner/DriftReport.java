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
 * What a drift check of a job found: every resource the job made read back from the cloud and compared with its
 * config. A check changes nothing; {@link Jobs#reconcile} puts back what it reports.
 *
 * @param drifts each attribute that differs and each resource that is missing; empty when in sync
 * @param cloudCalls how many read calls the check made to the cloud; -1 when its provider does not count them
 * @param elapsedMillis how long the check took, cloud calls included
 */
@NullMarked
public record DriftReport(JobId jobId, Status status, List<Drift> drifts, Instant checkedAt,
    @Nullable String checkedBy, int cloudCalls, long elapsedMillis) {

  public DriftReport {
    Objects.requireNonNull(checkedAt, "checkedAt");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(status, "status");
    drifts = drifts == null ? List.of() : List.copyOf(drifts);
  }

  /** Whether what the job made is as its config says. */
  public enum Status {
    IN_SYNC,
    DRIFTED;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Status fromWire(String value) {
      return EnumNames.parse(Status.class, value);
    }
  }

  /** Whether a resource the job made is gone. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean anyMissing() {
    return drifts.stream().anyMatch(Drift::isMissing);
  }
}

package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One config a job was given: revision 1 is the one it was submitted with, each later one a change applied to it.
 *
 * @param kind the job's kind, which says how {@code config} reads
 * @param finishedAt when the revision was applied or failed, or null while it is applied
 */
@NullMarked
public record JobRevision(int number, JobKind kind, @JsonProperty("config") ResourceSpec spec, Status status,
    String createdBy, Instant createdAt, @Nullable Instant finishedAt) {

  public JobRevision {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(status, "status");
  }

  /** Where a revision stands. */
  public enum Status {
    /** Being applied (or, for revision 1, being created). */
    APPLYING,
    /** Applied: the job's resources have this config. */
    APPLIED,
    /** Failed at a step; the job can be retried, and the last applied revision is its last good config. */
    FAILED;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Status fromWire(String value) {
      return EnumNames.parse(Status.class, value);
    }
  }
}

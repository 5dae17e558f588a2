package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Which step list a job is working through: building its resources, changing them to a revised config, or tearing
 * them down.
 */
public enum JobPhase {
  CREATE,
  TEARDOWN,
  /** Applying a revision: changing what the job made to its revised config. */
  UPDATE;

  /** The status a job has while a worker works through this phase: running, or deleting for a teardown. */
  public JobStatus working() {
    return this == TEARDOWN ? JobStatus.DELETING : JobStatus.RUNNING;
  }

  /** The status a job has once this phase's last step succeeded: succeeded, or deleted after a teardown. */
  public JobStatus done() {
    return this == TEARDOWN ? JobStatus.DELETED : JobStatus.SUCCEEDED;
  }

  /** Whether this phase's steps make or change resources, so that what they record is the job's state. */
  public boolean buildsState() {
    return this != TEARDOWN;
  }

  /** Made once: a job's every write names its steps' statuses and phases, and its events' types. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wire;
  }

  @JsonCreator
  public static JobPhase fromWire(String value) {
    return EnumNames.parse(JobPhase.class, value);
  }
}

package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a job provisions, or {@code remediation} for a remediation workflow. */
public enum JobKind {
  KUBERNETES,
  VM_POOL,
  DATASTORE,
  NETWORK,
  REGISTRY,
  LOAD_BALANCER,
  COMPONENT,
  REMEDIATION;

  /** Made once: a job's every write names its steps' statuses and phases, and its events' types. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wire;
  }

  @JsonCreator
  public static JobKind fromWire(String value) {
    return EnumNames.parse(JobKind.class, value);
  }
}

package dev.zop.provisioner.core.internal.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Times as the stores keep them, so a value returned at once equals the same value read back later. */
public final class Timestamps {
  private Timestamps() {}

  /** Now, to the microsecond: the precision of both H2's and PostgreSQL's timestamps. */
  public static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MICROS);
  }
}

package dev.zop.provisioner.core.internal.jobs;

import java.util.Objects;

/** What a {@link DecisionStep} found when it ran: a person's decision, or none yet. */
public sealed interface Decision {

  /**
   * A person's request the workflow received: who, why, and the workflow's own reference to it, handed back to
   * its {@link Journal} in the write that applies it.
   */
  record Request(long ref, String actor, String reason) {
    public Request {
      Objects.requireNonNull(actor, "actor");
    }
  }

  /** The step is approved: the job goes on. */
  record Approved(Request by) implements Decision {
    public Approved {
      Objects.requireNonNull(by, "by");
    }
  }

  /** The step is rejected: the job ends cancelled, nothing after the step runs. */
  record Rejected(Request by) implements Decision {
    public Rejected {
      Objects.requireNonNull(by, "by");
    }
  }

  /** No decision yet: the job waits for one, holding no thread. {@code message} is shown to the deciders. */
  record Pending(String message) implements Decision {}
}

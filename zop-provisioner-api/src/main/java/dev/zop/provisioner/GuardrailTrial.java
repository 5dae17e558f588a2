package dev.zop.provisioner;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a guardrail would do before it is switched on: its verdicts on the organisation's recent changes (the plan
 * documents their decisions kept) and on its succeeded jobs as they are today. Only the verdicts that are not
 * {@code passed} are listed.
 *
 * @param plansChecked how many recorded changes in the guardrail's scope it read
 * @param jobsChecked how many succeeded jobs in its scope it read
 * @param plans what it would have done to those changes
 * @param jobs which of those jobs break it today
 */
@NullMarked
public record GuardrailTrial(int plansChecked, int jobsChecked, List<Finding> plans, List<Finding> jobs) {

  public GuardrailTrial {
    plans = List.copyOf(plans);
    jobs = List.copyOf(jobs);
  }

  /**
   * One verdict of the trial.
   *
   * @param jobId the job the change made or changed, or null for a change refused before any job was written
   * @param action the change ({@code create}, {@code revise}, ...), or {@code existing} for a job as it is
   * @param at when the change was decided, or when the job was last changed
   */
  public record Finding(@Nullable JobId jobId, SpaceId spaceId, String action, Instant at, GuardrailVerdict verdict) {
    public Finding {
      Objects.requireNonNull(spaceId, "spaceId");
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(verdict, "verdict");
    }
  }
}

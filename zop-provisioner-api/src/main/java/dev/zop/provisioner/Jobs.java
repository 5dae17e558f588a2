package dev.zop.provisioner;

import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.SpecBuilder;
import java.time.Duration;
import java.util.List;

/** Provisioning jobs: submit, observe, change, retry and tear down. */
public interface Jobs {

  /** Plans a spec (the "Review" step): steps, IAM operations and monthly cost; nothing changes in the cloud. */
  Plan plan(SpaceId spaceId, ResourceSpec spec);

  /**
   * Plans a submit with {@code options}: the job's name and tags are part of what guardrails read, so a plan made
   * with them shows the verdicts the submit will meet ({@link Plan#verdicts()}).
   */
  Plan plan(SpaceId spaceId, ResourceSpec spec, SubmitOptions options);

  default Plan plan(SpaceId spaceId, SpecBuilder<?> spec) {
    return plan(spaceId, spec.build());
  }

  /** Submits a job and returns at once; the work continues in the background. */
  Job submit(SpaceId spaceId, ResourceSpec spec, SubmitOptions options);

  default Job submit(SpaceId spaceId, ResourceSpec spec) {
    return submit(spaceId, spec, SubmitOptions.none());
  }

  default Job submit(SpaceId spaceId, SpecBuilder<?> spec) {
    return submit(spaceId, spec.build(), SubmitOptions.none());
  }

  /**
   * Installs a catalog component into the space's cluster: a {@code component} job whose teardown uninstalls it.
   * {@code values} go over the catalog's defaults; dotted keys ({@code controller.service.type}) are allowed.
   */
  default Job installComponent(SpaceId spaceId, String componentId, java.util.Map<String, Object> values) {
    return submit(spaceId, dev.zop.provisioner.spec.ComponentSpec.of(componentId, values));
  }

  Job get(JobId id);

  Page<Job> list(JobQuery query);

  /** Changes name or tags; nothing is re-run. */
  Job update(JobId id, JobPatch patch);

  /** Tears the job's resources down, in reverse order, from what its steps recorded. */
  Job delete(JobId id);

  /** Resumes a failed job at the step that failed; completed steps and their outputs are kept. */
  Job retry(JobId id);

  /**
   * Plans a revision of a succeeded job's config: each field that changes and whether in place or by a
   * replacement, the steps and their IAM operations, the monthly cost before and after. Nothing changes in the
   * cloud. A change the provider cannot make, or that would lose data, is a {@link ValidationException} naming the
   * field.
   */
  RevisionPlan planRevision(JobId id, ResourceSpec revised);

  default RevisionPlan planRevision(JobId id, SpecBuilder<?> revised) {
    return planRevision(id, revised.build());
  }

  /**
   * Applies a revision of a succeeded job's config as the plan showed it: the job runs its update steps and ends
   * succeeded with the revised config, or failed at a step, retryable, with its last applied config in
   * {@link #revisions}. Returns at once.
   */
  Job revise(JobId id, ResourceSpec revised);

  default Job revise(JobId id, SpecBuilder<?> revised) {
    return revise(id, revised.build());
  }

  /** The job's configs, oldest first: revision 1 the one it was submitted with. */
  List<JobRevision> revisions(JobId id);

  /**
   * Checks a succeeded job for drift now: reads back every resource it made and compares each with its config,
   * changing nothing. The report is kept as the job's latest; when it differs from the one before and something
   * drifted, a {@code drifted} event is written and a {@code job.drifted} notification sent.
   *
   * @throws ConflictException when the job is not succeeded, or its provider cannot check its kind
   */
  DriftReport checkDrift(JobId id);

  /**
   * The job's latest drift report, from a check on request or on its space's schedule.
   *
   * @throws NotFoundException when the job has never been checked
   */
  DriftReport drift(JobId id);

  /**
   * Plans a reconcile: a revision that re-applies the job's config, putting back what a drift check (made now)
   * found changed. Its changes are the drifts, each from the cloud's value to the config's.
   *
   * @throws ConflictException when nothing drifted ({@code in_sync}), or a resource is missing
   *     ({@code resource_missing}: tear the job down and submit it again)
   */
  RevisionPlan planReconcile(JobId id);

  /** Applies a reconcile as {@link #planReconcile} showed it: the job's next revision, with its config unchanged. */
  Job reconcile(JobId id);

  /**
   * Plans an import: finds the resources by the cloud's id, says what the job would adopt, the config they have
   * now, and what a revision to the requested config would change. Nothing changes in the cloud.
   *
   * @throws ConflictException when another job owns them ({@code owned_by_another_job})
   * @throws NotFoundException when nothing in the space's account and region has that id
   */
  ImportPlan planImport(SpaceId spaceId, ImportRequest request);

  /**
   * Imports existing resources as a new job, as {@link #planImport} showed it: the job's steps adopt them (tagging
   * them as its own where the cloud allows) and it ends succeeded with the config they have, revision 1. From then
   * on it is revised, checked for drift and torn down like any other; revise it to the requested config to make the
   * cloud match. Returns at once.
   */
  Job importExisting(SpaceId spaceId, ImportRequest request);

  /**
   * Blocks until the job is terminal (succeeded, failed, cancelled, deleted) and returns it.
   *
   * @throws AwaitTimeoutException when {@code timeout} passes first
   */
  Job await(JobId id, Duration timeout);

  /** Streams the job's progress events, starting with those already recorded. */
  Subscription watch(JobId id, JobEventListener listener);

  /** The events recorded after {@code afterSeq} (0 for all), oldest first. */
  List<JobEvent> events(JobId id, long afterSeq);

  /** The databases on a datastore job's server. */
  Databases databases(JobId datastoreJob);

  /** Job-scoped connections of a datastore job: its server's admin login. */
  Connections connections(JobId datastoreJob);
}

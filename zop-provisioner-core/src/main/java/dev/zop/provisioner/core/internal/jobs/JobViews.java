package dev.zop.provisioner.core.internal.jobs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Provisioning jobs as the API shows them, read by id or a page at a time (a finished job's view is kept), and
 * awaited until they finish.
 */
final class JobViews {
  private final Database db;
  private final JobRepository jobs;
  private final JobSignals signals;
  private final Duration awaitPoll;

  JobViews(Database db, JobRepository jobs, JobSignals signals, Duration awaitPoll) {
    this.db = db;
    this.jobs = jobs;
    this.signals = signals;
    this.awaitPoll = awaitPoll;
  }

  public Job get(Principal principal, JobId id) {
    return db.read(c -> {
      JobRepository.StoredJob row = jobs.findStored(c, principal.orgId(), id);
      if (row == null || JobType.fromWire(row.jobType()) != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      Job kept = finishedView(row);
      if (kept != null) {
        return kept;
      }
      JobRecord job = row.parse();
      return keptIfFinished(row, view(job, jobs.steps(c, id), revisionBeside(c, job)));
    });
  }

  public Page<Job> list(Principal principal, JobQuery query) {
    long after = JobCursors.parse(query.cursor(), query.order());
    return db.read(c -> {
      List<Map.Entry<Long, JobRepository.StoredJob>> rows =
          jobs.list(c, principal.orgId(), JobType.PROVISIONING, query.spaceId(), query.statuses(), after,
              query.order(), query.limit());
      boolean more = rows.size() > query.limit();
      List<Map.Entry<Long, JobRepository.StoredJob>> page = more ? rows.subList(0, query.limit()) : rows;
      Job[] items = new Job[page.size()];
      List<String> unread = new ArrayList<>();
      for (int i = 0; i < items.length; i++) {
        items[i] = finishedView(page.get(i).getValue());
        if (items[i] == null) {
          unread.add(page.get(i).getValue().id());
        }
      }
      Map<String, List<StepRecord>> steps = unread.isEmpty() ? Map.of() : jobs.steps(c, unread);
      for (int i = 0; i < items.length; i++) {
        if (items[i] == null) {
          JobRepository.StoredJob row = page.get(i).getValue();
          JobRecord job = row.parse();
          items[i] = keptIfFinished(row, view(job, steps.getOrDefault(row.id(), List.of()), revisionBeside(c, job)));
        }
      }
      String next = more ? JobCursors.next(page.get(page.size() - 1).getKey(), query.order()) : null;
      return new Page<>(List.of(items), next);
    });
  }

  /**
   * Views of finished jobs as last read, by job id, each with the row it was built from. A kept view is used
   * only when the row read now is equal to that one, column for column, so a changed name, tag, status or output
   * is never missed. The steps are not in the row, and are what the view saves reading: a finished job's steps
   * change only while it runs again or is retried or torn down, and each of those leaves its row different for
   * good (a claim bumps the version, which never goes back; a retry, cancel or teardown moves the status and
   * sets a new finish time). Steps read just after the row can only be newer than it, so a view kept under an
   * older row is one no later row matches. Component jobs are not kept: their values may nest maps a caller could
   * change in place.
   */
  private final Cache<String, FinishedView> finishedViews = Caffeine.newBuilder().maximumWeight(FINISHED_VIEWS_WEIGHT)
          .weigher((String id, FinishedView kept) -> kept.weight()).build();

  /** Weighed in characters of text kept: two million is some two thousand one-step jobs, forty full pages. */
  private static final long FINISHED_VIEWS_WEIGHT = 2_000_000;

  private record FinishedView(JobRepository.StoredJob row, Job view) {
    /** Its row's text and its steps' names, outputs and permissions, in characters. */
    int weight() {
      int weight = row.textLength();
      for (JobStep step : view.steps()) {
        weight += 200 + step.name().length();
        for (Map.Entry<String, String> output : step.outputs().entrySet()) {
          weight += output.getKey().length() + output.getValue().length();
        }
        for (String permission : step.permissions()) {
          weight += permission.length();
        }
      }
      return weight;
    }
  }

  private Job finishedView(JobRepository.StoredJob row) {
    FinishedView kept = finishedViews.getIfPresent(row.id());
    return kept != null && kept.row().equals(row) ? kept.view() : null;
  }

  private Job keptIfFinished(JobRepository.StoredJob row, Job view) {
    if (view.status().isTerminal() && view.kind() != JobKind.COMPONENT) {
      finishedViews.put(row.id(), new FinishedView(row, view));
    }
    return view;
  }

  /** Waits until the job (of either type) is terminal; on timeout reports it as the provisioning view. */
  public void awaitTerminal(Principal principal, JobId id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (JobSignals.JobWaiter waiter = signals.waiter(id)) {
      while (true) {
        JobRecord record = db.read(c -> jobs.find(c, principal.orgId(), id));
        if (record == null) {
          throw new NotFoundException("job", id);
        }
        if (record.status().isTerminal()) {
          return;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw new AwaitTimeoutException(db.read(c -> view(record, jobs.steps(c, id), revisionBeside(c, record))));
        }
        try {
          waiter.await(Math.min(left, awaitPoll.toMillis()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AwaitTimeoutException(db.read(c -> view(record, jobs.steps(c, id), revisionBeside(c, record))));
        }
      }
    }
  }

  static Job view(JobRecord job, List<StepRecord> steps) {
    return view(job, steps, null);
  }

  static Job view(JobRecord job, List<StepRecord> steps, JobRevision revision) {
    return new Job(job.id(), job.spaceId(), job.jobType(), job.kind(), job.name(), job.tags(), job.status(),
        job.phase(), job.spec(), job.outputs(), job.failure(), steps.stream().map(StepRecord::toView).toList(),
        job.createdBy(), job.createdAt(), job.updatedAt(), job.finishedAt(), revision);
  }

  /**
   * The revision shown beside the job's config ({@link Job#revision}): the latest, while it is applied or after it
   * failed. Only a job in its update phase that has not succeeded has one, so only such a job's revisions are read.
   */
  private static JobRevision revisionBeside(Connection c, JobRecord job) throws SQLException {
    if (job.phase() != JobPhase.UPDATE || job.status() == JobStatus.SUCCEEDED) {
      return null;
    }
    RevisionRows.RevisionRow latest = RevisionRows.latest(RevisionRows.all(c, job.id()));
    return latest == null || latest.outcome().equals(RevisionRows.APPLIED) ? null : latest.view(job.kind());
  }
}

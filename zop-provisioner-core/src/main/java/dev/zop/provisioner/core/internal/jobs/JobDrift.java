package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.DriftReport;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.spaces.DriftSchedule;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drift checks: a succeeded job's resources read back from the cloud by its driver's read-only observe and compared
 * with its config. A check changes no status: it keeps its report as the job's latest, and when something drifted
 * that the report before did not say, writes a {@code drifted} event and sends a {@code job.drifted} notification.
 * Checks run on request or on a space's schedule ({@link DriftSchedule}, off when its config has none),
 * which any engine running workers takes up: a due job is claimed by moving its next check forward, so two engines
 * do not check it twice.
 */
public final class JobDrift {
  /** The scheduled checks of one pass, at most: a pass that finds more leaves the rest to the next. */
  static final int PASS_LIMIT = 5_000;
  private static final Logger LOG = LoggerFactory.getLogger(JobDrift.class);
  private static final TypeReference<List<Drift>> DRIFTS = new TypeReference<>() {};

  private final Database db;
  private final JobRepository jobs;
  private final JobService service;
  private final JobSignals signals;
  private final Notifier notifier;

  JobDrift(Database db, JobRepository jobs, JobService service, JobSignals signals, Notifier notifier) {
    this.db = db;
    this.jobs = jobs;
    this.service = service;
    this.signals = signals;
    this.notifier = notifier;
  }

  /** Checks a job now, for {@code principal}. */
  public DriftReport check(Principal principal, JobId id) {
    JobRecord job = db.read(c -> jobs.find(c, principal.orgId(), id));
    if (job == null || job.jobType() != JobType.PROVISIONING) {
      throw new NotFoundException("job", id);
    }
    return check(job, principal.actor());
  }

  /** The job's latest report. */
  public DriftReport latest(Principal principal, JobId id) {
    DriftReport report = db.read(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (job == null || job.jobType() != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      return read(c, id);
    });
    if (report == null) {
      throw new NotFoundException("drift report", id);
    }
    return report;
  }

  /** What the cloud differs in, read now, for a reconcile's plan; a job that cannot be reconciled is refused. */
  List<Drift> driftsToPutBack(JobRecord job, String actor) {
    DriftReport report = check(job, actor);
    if (report.status() == DriftReport.Status.IN_SYNC) {
      throw new ConflictException("in_sync", "job " + job.id() + " is as its config says; nothing to reconcile");
    }
    if (report.anyMissing()) {
      throw new ConflictException("resource_missing", "job " + job.id() + " lost "
          + String.join(", ", report.drifts().stream().filter(Drift::isMissing).map(Drift::resource).toList())
          + "; a reconcile puts attributes back, not resources: delete the job and submit it again");
    }
    return report.drifts();
  }

  /**
   * What the cloud differs in from the job's config, read now and kept nowhere: a plan's look at the cloud before
   * it says what a change does. Null when the job's provider cannot read its kind back.
   */
  List<Drift> observed(JobRecord job) {
    JobSteps.Driving driving = service.driving(job);
    List<StepRecord> steps = db.read(c -> jobs.steps(c, job.id()));
    CloudRead<List<Drift>> read = driving.driver().observe(job.spec(),
        JobSteps.recordedOutputs(steps, Integer.MAX_VALUE));
    return read == null ? null : ProviderCalls.classified(driving.session(), read::read);
  }

  /** Checks {@code job} and keeps the report; when its schedule checks it next is left as a claim set it. */
  private DriftReport check(JobRecord job, String actor) {
    if (job.status() != JobStatus.SUCCEEDED) {
      throw new ConflictException("job_not_checkable", "job " + job.id() + " is " + job.status().wireName()
          + "; a drift check reads what a succeeded job made");
    }
    JobSteps.Driving driving = service.driving(job);
    List<StepRecord> steps = db.read(c -> jobs.steps(c, job.id()));
    CloudRead<List<Drift>> read = driving.driver().observe(job.spec(),
        JobSteps.recordedOutputs(steps, Integer.MAX_VALUE));
    if (read == null) {
      throw new ConflictException("drift_unsupported", job.provider() + " cannot check a "
          + job.kind().wireName() + " for drift");
    }
    long started = System.nanoTime();
    List<Drift> drifts = ProviderCalls.classified(driving.session(), read::read);
    long elapsed = Duration.ofNanos(System.nanoTime() - started).toMillis();
    DriftReport report = new DriftReport(job.id(), drifts.isEmpty() ? DriftReport.Status.IN_SYNC
        : DriftReport.Status.DRIFTED, drifts, Timestamps.now(), actor, read.calls(), elapsed);
    boolean news = db.tx(c -> {
      DriftReport before = read(c, job.id());
      write(c, report);
      boolean changed = report.status() == DriftReport.Status.DRIFTED
          && (before == null || !before.drifts().equals(report.drifts()));
      if (changed) {
        jobs.appendEvent(c, job.id(), JobEventType.DRIFTED, null, job.status(), describe(report));
      }
      return changed;
    });
    if (news) {
      signals.changed(job.id());
      Map<String, String> data = new LinkedHashMap<>();
      data.put("jobId", job.id().value());
      data.put("kind", job.kind().wireName());
      data.put("name", job.name());
      data.put("drifts", String.valueOf(report.drifts().size()));
      data.put("summary", describe(report));
      try {
        notifier.send(new Notification("job.drifted", job.orgId(), "org-admins", job.id(), data));
      } catch (RuntimeException e) {
        // the report and its event are kept; a notifier's outage must not fail the check
        LOG.warn("could not send job.drifted for {}", job.id(), e);
      }
    }
    return report;
  }

  /** The event's message: each drift, cut short past what an event holds (the report keeps them all). */
  private static String describe(DriftReport report) {
    List<String> parts = new ArrayList<>();
    for (Drift drift : report.drifts()) {
      parts.add(drift.isMissing() ? drift.resource() + " is missing"
          : drift.resource() + " " + drift.field() + ": expected " + drift.expected() + ", found "
              + (drift.actual() == null ? "nothing" : drift.actual()));
    }
    String text = "drifted: " + String.join("; ", parts);
    return text.length() <= 2_000 ? text : text.substring(0, 1_990) + " (and more)";
  }

  /**
   * One scheduled pass: every succeeded job in a space with a schedule whose check is due is claimed and checked.
   * Returns how many were checked. A job whose check fails is tried again at its next time.
   */
  public int scheduledPass() {
    record Due(JobId id, int minutes) {}
    Instant now = Instant.now();
    List<Due> due = db.read(c -> {
      Map<String, Integer> schedules = new LinkedHashMap<>();
      for (String[] space : Database.query(c, "SELECT id, config FROM deployment_spaces WHERE status = 'active'"
          + " AND config LIKE ?", rs -> new String[] {rs.getString(1), rs.getString(2)}, "%" + DriftSchedule.KEY + "%")) {
        Integer minutes = DriftSchedule.minutes(Json.stringMap(space[1]));
        if (minutes != null) {
          schedules.put(space[0], minutes);
        }
      }
      List<Due> found = new ArrayList<>();
      for (Map.Entry<String, Integer> space : schedules.entrySet()) {
        found.addAll(Database.query(c, "SELECT j.id FROM provisioning_jobs j LEFT JOIN job_drift d ON d.job_id = j.id"
            + " WHERE j.space_id = ? AND j.job_type = 'provisioning' AND j.status = 'succeeded'"
            + " AND (d.next_check_at IS NULL OR d.next_check_at <= ?)",
            rs -> new Due(JobId.of(rs.getString(1)), space.getValue()), space.getKey(), now));
      }
      return found.size() > PASS_LIMIT ? found.subList(0, PASS_LIMIT) : found;
    });
    int checked = 0;
    for (Due job : due) {
      Instant next = now.plus(Duration.ofMinutes(job.minutes()));
      if (!Boolean.TRUE.equals(db.tx(c -> claim(c, job.id(), now, next)))) {
        continue; // another engine took it
      }
      try {
        JobRecord record = db.read(c -> jobs.findAnyOrg(c, job.id()));
        if (record != null && record.status() == JobStatus.SUCCEEDED) {
          check(record, "schedule");
          checked++;
        }
      } catch (RuntimeException e) {
        LOG.warn("scheduled drift check of {} failed; it is tried again at {}", job.id(), next, e);
      }
    }
    return checked;
  }

  /** Moves the job's next check to {@code next} if it is due; false when another engine did first. */
  private static boolean claim(Connection c, JobId id, Instant now, Instant next) throws SQLException {
    int moved = Database.update(c, "UPDATE job_drift SET next_check_at = ? WHERE job_id = ?"
        + " AND (next_check_at IS NULL OR next_check_at <= ?)", next, id.value(), now);
    if (moved == 1) {
      return true;
    }
    if (Database.queryOne(c, "SELECT job_id FROM job_drift WHERE job_id = ?", rs -> rs.getString(1),
        id.value()) != null) {
      return false;
    }
    // never checked: the claim is the row; two engines inserting it meet on the primary key
    Database.update(c, "INSERT INTO job_drift (job_id, next_check_at) VALUES (?, ?)", id.value(), next);
    return true;
  }

  private static void write(Connection c, DriftReport report) throws SQLException {
    String drifts = Json.write(report.drifts());
    int updated = Database.update(c, "UPDATE job_drift SET status = ?, drifts = ?, checked_at = ?, checked_by = ?,"
        + " cloud_calls = ?, elapsed_ms = ? WHERE job_id = ?", report.status(), drifts, report.checkedAt(),
        report.checkedBy(), report.cloudCalls(), report.elapsedMillis(), report.jobId().value());
    if (updated == 0) {
      Database.update(c, "INSERT INTO job_drift (job_id, status, drifts, checked_at, checked_by, cloud_calls,"
          + " elapsed_ms) VALUES (?, ?, ?, ?, ?, ?, ?)", report.jobId().value(), report.status(), drifts,
          report.checkedAt(), report.checkedBy(), report.cloudCalls(), report.elapsedMillis());
    }
  }

  private static DriftReport read(Connection c, JobId id) throws SQLException {
    return Database.queryOne(c, "SELECT status, drifts, checked_at, checked_by, cloud_calls, elapsed_ms"
        + " FROM job_drift WHERE job_id = ? AND status IS NOT NULL", rs -> new DriftReport(id,
            DriftReport.Status.fromWire(rs.getString(1)), parse(rs.getString(2)), Database.instant(rs, 3),
            rs.getString(4), rs.getInt(5), rs.getLong(6)), id.value());
  }

  private static List<Drift> parse(String json) {
    try {
      return Json.MAPPER.readValue(json, DRIFTS);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("unreadable drift report", e);
    }
  }
}

package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ImportPlan;
import dev.zop.provisioner.ImportRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.PlanStep;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Adoption;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.Step;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Imports: resources that exist in the cloud taken over by a new job. The driver finds them by the cloud's id (a
 * read), the job is written with the config they have as its config and its create phase made of the driver's
 * adopt steps, which tag them as the job's where the cloud allows and record the state its create steps would have.
 * Resources another job owns, by the cloud's tags or by an engine job that holds their id, are refused.
 */
public final class JobImports {
  /** The job output that marks an imported job, holding the cloud's id it was imported from. */
  public static final String IMPORTED_FROM = "importedFrom";
  private static final Pattern EXTERNAL_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,254}");

  private final Database db;
  private final JobRepository jobs;
  private final JobService service;
  private final JobSignals signals;
  private final Runnable wakeWorker;

  JobImports(Database db, JobRepository jobs, JobService service, JobSignals signals, Runnable wakeWorker) {
    this.db = db;
    this.jobs = jobs;
    this.service = service;
    this.signals = signals;
    this.wakeWorker = wakeWorker;
  }

  /** What an import found and checked: the adoption, its steps, and what a revision to the config would change. */
  private record Found(JobPlaces.Importing where, ResourceSpec asked, Adoption<ResourceSpec> adoption,
      List<Step> steps, List<RevisionChange> changes) {}

  public ImportPlan plan(Principal principal, SpaceId spaceId, ImportRequest request) {
    Found found = find(principal, spaceId, request, false);
    GuardrailService.Answer answer = guardrails(principal, found, request);
    return new ImportPlan(spaceId, found.asked().kind(), request.externalId(), found.adoption().resources(),
        found.adoption().config(), found.changes(), found.steps().stream()
            .map(s -> new PlanStep(s.name(), s.permissions())).toList(),
        answer == null ? List.of() : answer.verdicts());
  }

  /**
   * The guardrails' answer to taking the resources over with the config they have: what they cost is already
   * being paid, so the change adds nothing; the rest (sizes, versions, tags, the space's budget) is read as for a
   * submit. Null when none applies.
   */
  private GuardrailService.Answer guardrails(Principal principal, Found found, ImportRequest request) {
    ResourceSpec config = found.adoption().config();
    return service.guardrails().answer(principal, "import", found.where().space(), found.where().driver(), config,
        name(config, request), Map.of(), found.where().driver().price(config, found.where().space().region()), null);
  }

  private static String name(ResourceSpec config, ImportRequest request) {
    return config.name() != null ? config.name() : request.externalId();
  }

  public Job importExisting(Principal principal, SpaceId spaceId, ImportRequest request) {
    Found found = find(principal, spaceId, request, true);
    ResourceSpec config = found.adoption().config();
    // a refusal writes its decision and nothing else; a hold writes the job awaiting a person
    GuardrailService.Answer answer = service.guardrails().enforce(principal, guardrails(principal, found, request),
        spaceId, null);
    boolean held = answer != null && answer.approvalRequired();
    JobStatus initial = held ? JobStatus.AWAITING_APPROVAL : JobStatus.PENDING;
    JobId id = JobId.random();
    Instant now = Timestamps.now();
    List<StepRecord> rows = new ArrayList<>();
    for (int i = 0; i < found.steps().size(); i++) {
      rows.add(StepRecord.pending(id.value(), JobPhase.CREATE, i, found.steps().get(i).name(),
          found.steps().get(i).permissions()));
    }
    String name = name(config, request);
    JobRecord job = new JobRecord(id, principal.orgId(), spaceId, JobType.PROVISIONING, config.kind(), name,
        Map.of(), found.where().space().provider(), found.where().account().id(), found.where().space().region(),
        config, initial, JobPhase.CREATE, Map.of(IMPORTED_FROM, request.externalId()), null,
        principal.actor(), now, now, null, 0, null);
    db.tx(c -> {
      // checked again inside the write: two imports of one resource at once leave one job
      JobId owner = ownerOf(c, found.where(), config.kind(), request.externalId());
      if (owner != null) {
        throw owned(request.externalId(), owner.value());
      }
      jobs.insert(c, job, null, null, rows);
      jobs.appendEvent(c, id, JobEventType.SUBMITTED, null, initial, "import of "
          + request.externalId() + " (" + String.join(", ", found.adoption().resources()) + ") requested by "
          + principal.actor() + (found.changes().isEmpty() ? ""
              : "; a revision to the requested config would change "
                  + String.join(", ", found.changes().stream().map(RevisionChange::field).toList())));
      service.guardrails().written(c, principal, answer, id, spaceId, initial);
      return null;
    });
    signals.changed(id);
    if (!held) {
      wakeWorker.run();
    }
    return service.get(principal, id);
  }

  private Found find(Principal principal, SpaceId spaceId, ImportRequest request, boolean submitting) {
    if (request == null || request.config() == null) {
      throw ValidationException.of("config", "required", "the config the imported job should have is required");
    }
    String externalId = request.externalId();
    if (externalId == null || !EXTERNAL_ID.matcher(externalId).matches()) {
      throw ValidationException.of("externalID", "invalid_value", "the cloud's id of the resource to import:"
          + " 1-255 letters, digits and . _ : / -");
    }
    ResourceSpec asked = request.config();
    JobPlaces.Importing where = service.places().importing(principal, spaceId, asked, submitting);
    CloudRead<Adoption<ResourceSpec>> read = where.driver().findExisting(externalId);
    if (read == null) {
      throw new ConflictException("import_unsupported", where.space().provider() + " cannot import a "
          + asked.kind().wireName());
    }
    Adoption<ResourceSpec> adoption = ProviderCalls.classified(where.session(), read::read);
    if (adoption == null) {
      throw new NotFoundException(asked.kind().wireName(), externalId);
    }
    if (adoption.ownerJobId() != null) {
      throw owned(externalId, adoption.ownerJobId());
    }
    JobId owner = db.read(c -> ownerOf(c, where, asked.kind(), externalId));
    if (owner != null) {
      throw owned(externalId, owner.value());
    }
    List<Step> steps = where.driver().adopt(adoption.config(), externalId);
    if (steps.isEmpty()) {
      throw new ConflictException("import_unsupported", where.space().provider() + " cannot import a "
          + asked.kind().wireName());
    }
    return new Found(where, asked, adoption, steps, changes(where, adoption, asked));
  }

  /** What a revision from what exists to the requested config would change, classified by the driver. */
  private static List<RevisionChange> changes(JobPlaces.Importing where, Adoption<ResourceSpec> adoption,
      ResourceSpec asked) {
    List<ConfigPaths.FieldChange> diff = ConfigPaths.diff(adoption.config(), asked);
    if (diff.isEmpty()) {
      return List.of();
    }
    Revision revision = where.driver().revise(adoption.config(), asked, Outputs.of(adoption.outputs()));
    List<RevisionChange> changes = new ArrayList<>();
    List<FieldError> refused = new ArrayList<>();
    for (ConfigPaths.FieldChange field : diff) {
      RevisionChange.Effect effect = revision.effectOf(field.field());
      if (effect == null) {
        refused.add(FieldError.of("config." + field.field(), "not_revisable", "the resource has "
            + field.from() + " where the config says " + field.to() + ", and " + where.space().provider()
            + " cannot change it after the import; import with the config it has"));
      } else {
        changes.add(new RevisionChange(field.field(), field.from(), field.to(), effect,
            revision.noteOf(field.field())));
      }
    }
    revision.refused().forEach(e -> refused.add(e.under("config")));
    if (!refused.isEmpty()) {
      // what the resource has, so the import can be asked again with it
      throw new ValidationException(refused, adoption.config());
    }
    return changes;
  }

  /**
   * The live job of the kind that already holds {@code externalId}: imported from it, or recording it in its outputs.
   * Jobs of other kinds may name it too (a cluster records the network it runs in) without owning it.
   */
  private static JobId ownerOf(Connection c, JobPlaces.Importing where, dev.zop.provisioner.JobKind kind,
      String externalId) throws SQLException {
    String quoted = "%\"" + externalId.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "\"%";
    return Database.queryOne(c, "SELECT j.id FROM provisioning_jobs j WHERE j.cloud_account_id = ? AND j.region = ?"
            + " AND j.job_type = 'provisioning' AND j.kind = ? AND j.status <> 'deleted' AND j.outputs LIKE ?"
            + " ESCAPE '\\'", rs -> JobId.of(rs.getString(1)), where.account().id().value(), where.space().region(),
        kind, quoted);
  }

  private static ConflictException owned(String externalId, String owner) {
    return new ConflictException("owned_by_another_job", externalId + " belongs to job " + owner
        + "; a resource has one owner: revise that job, or delete it first");
  }
}

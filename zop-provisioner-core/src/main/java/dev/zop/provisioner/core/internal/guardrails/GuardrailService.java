package dev.zop.provisioner.core.internal.guardrails;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cel.runtime.CelRuntime;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailExemption;
import dev.zop.provisioner.GuardrailExemptionRequest;
import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.StoreException;
import dev.zop.provisioner.core.internal.store.Timestamps;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An organisation's guardrails: their versions, and their answers to a plan's document. Checking a plan is a pure
 * function of the guardrails that apply and the document; the caller decides what an answer means for its change
 * and records the decision with the change's own rows.
 */
public final class GuardrailService {
  /** How long one CEL rule may run on one plan before it fails closed. */
  static final long EVAL_MILLIS = 100;

  private final Database db;
  private final GuardrailRepository rows = new GuardrailRepository();
  /** Compiled once per guardrail version: a version never changes. */
  private final Cache<String, Compiled> compiled = Caffeine.newBuilder().maximumSize(10_000).build();
  private final Cache<String, Known> latestByOrg = Caffeine.newBuilder().maximumSize(10_000).build();

  private record Compiled(CelRuntime.Program rule, CelRuntime.Program message, String error) {}

  public GuardrailService(Database db) {
    this.db = db;
  }

  /**
   * The guardrails' answer to one plan.
   *
   * @param planJson the document as recorded with the decision
   * @param planHash the SHA-256 of {@code planJson}, hex
   */
  public record Answer(PlanDocument plan, String planJson, String planHash, List<GuardrailVerdict> verdicts) {
    public GuardrailDecision.Outcome outcome() {
      if (has(GuardrailVerdict.Outcome.DENIED)) {
        return GuardrailDecision.Outcome.DENIED;
      }
      if (has(GuardrailVerdict.Outcome.APPROVAL_REQUIRED)) {
        return GuardrailDecision.Outcome.APPROVAL_REQUIRED;
      }
      return has(GuardrailVerdict.Outcome.WARNED) ? GuardrailDecision.Outcome.WARNED
          : GuardrailDecision.Outcome.ALLOWED;
    }

    public boolean denied() {
      return has(GuardrailVerdict.Outcome.DENIED);
    }

    public boolean approvalRequired() {
      return outcome() == GuardrailDecision.Outcome.APPROVAL_REQUIRED;
    }

    /** The verdicts that warn: advisory guardrails the plan breaks, and guardrails an exemption lets it break. */
    public List<GuardrailVerdict> warnings() {
      return verdicts.stream().filter(v -> v.outcome() == GuardrailVerdict.Outcome.WARNED
          || v.outcome() == GuardrailVerdict.Outcome.EXEMPTED).toList();
    }

    private boolean has(GuardrailVerdict.Outcome outcome) {
      return verdicts.stream().anyMatch(v -> v.outcome() == outcome);
    }

    /** This answer as the audit keeps it. */
    public GuardrailDecision decision(JobId job, SpaceId space, Principal by) {
      return new GuardrailDecision(UUID.randomUUID().toString(), job, space, plan.action(), planHash, outcome(),
          verdicts, by.actor(), Timestamps.now());
    }
  }

  // ---- answers ----

  /** The guardrails that check a change in {@code space}, on {@code provider}, of {@code kind}; by name. */
  public List<Guardrail> applicable(String orgId, SpaceId space, String provider, JobKind kind) {
    return latest(orgId).stream().filter(g -> g.appliesTo(space, provider, kind)).toList();
  }

  /**
   * The latest version of each of the organisation's guardrails. Versions are only ever added, so their count says
   * whether anything changed, in this engine or another: one count a plan, and the versions read and parsed again
   * only when it moved.
   */
  private List<Guardrail> latest(String orgId) {
    return db.read(c -> {
      long versions = rows.versionCount(c, orgId);
      Known known = latestByOrg.getIfPresent(orgId);
      if (known != null && known.versions() == versions) {
        return known.guardrails();
      }
      List<Guardrail> read = rows.latest(c, orgId);
      latestByOrg.put(orgId, new Known(versions, read));
      return read;
    });
  }

  private record Known(long versions, List<Guardrail> guardrails) {}

  /**
   * Every guardrail of {@code guardrails} answers {@code plan}: a change of {@code job} (null for a new one) in
   * {@code space}. A broken verdict an exemption in force covers is {@code exempted}.
   */
  public Answer answer(String orgId, List<Guardrail> guardrails, PlanDocument plan, JobId job, SpaceId space) {
    List<GuardrailExemption> exemptions = guardrails.isEmpty() ? List.of()
        : db.read(c -> rows.exemptionsInForce(c, orgId, Timestamps.now()));
    return answer(guardrails, plan, exemptions, job, space);
  }

  /** As {@link #answer(String, List, PlanDocument, JobId, SpaceId)}, with the exemptions in force given. */
  Answer answer(List<Guardrail> guardrails, PlanDocument plan, List<GuardrailExemption> exemptions, JobId job,
      SpaceId space) {
    Map<String, Object> celValue = null;
    List<GuardrailVerdict> verdicts = new ArrayList<>(guardrails.size());
    for (Guardrail g : guardrails) {
      RuleChecks.Broken broken;
      if (g.rule() instanceof GuardrailRule.Cel cel) {
        celValue = celValue == null ? plan.asCelValue() : celValue;
        broken = runCel(g, cel, celValue);
      } else {
        broken = RuleChecks.check(g.rule(), plan);
      }
      GuardrailExemption exempted = broken == null ? null : exemptions.stream()
          .filter(e -> e.covers(g.id(), job, space)).findFirst().orElse(null);
      verdicts.add(exempted != null ? new GuardrailVerdict(g.id(), g.name(), g.version(), g.level(),
          GuardrailVerdict.Outcome.EXEMPTED, broken.field(), broken.message(), broken.fixHint(), exempted.id())
          : verdict(g, broken));
    }
    String json = Json.write(plan);
    return new Answer(plan, json, sha256(json), verdicts);
  }

  private static GuardrailVerdict verdict(Guardrail g, RuleChecks.Broken broken) {
    if (broken == null) {
      return new GuardrailVerdict(g.id(), g.name(), g.version(), g.level(), GuardrailVerdict.Outcome.PASSED, null,
          "passed", null);
    }
    GuardrailVerdict.Outcome outcome = broken.failClosed() ? GuardrailVerdict.Outcome.DENIED : switch (g.level()) {
      case ADVISORY -> GuardrailVerdict.Outcome.WARNED;
      case APPROVAL -> GuardrailVerdict.Outcome.APPROVAL_REQUIRED;
      case DENY -> GuardrailVerdict.Outcome.DENIED;
    };
    return new GuardrailVerdict(g.id(), g.name(), g.version(), g.level(), outcome, broken.field(), broken.message(),
        broken.fixHint());
  }

  private RuleChecks.Broken runCel(Guardrail g, GuardrailRule.Cel cel, Map<String, Object> plan) {
    Compiled program = compiled.get(g.id().value() + "@" + g.version(), key -> compile(cel));
    if (program.error() != null) {
      return RuleChecks.Broken.cannotTell(null, "its expression no longer compiles: " + program.error(),
          "fix the guardrail's expression");
    }
    Object result;
    try {
      result = CelPrograms.run(program.rule(), plan, EVAL_MILLIS);
    } catch (Exception e) { // an evaluation error, a bound crossed: the check cannot tell, so it refuses
      return RuleChecks.Broken.cannotTell(null, "its expression failed on this plan: " + rootMessage(e),
          "fix the guardrail's expression, or exempt this change");
    }
    if (Boolean.TRUE.equals(result)) {
      return null;
    }
    String message = "the plan does not satisfy " + cel.expression();
    if (program.message() != null) {
      try {
        message = String.valueOf(CelPrograms.run(program.message(), plan, EVAL_MILLIS));
      } catch (Exception e) {
        message += " (its message failed: " + rootMessage(e) + ")";
      }
    }
    return RuleChecks.Broken.of(null, message, "change the plan so that the guardrail's expression holds");
  }

  private static Compiled compile(GuardrailRule.Cel cel) {
    CelPrograms.Result rule = CelPrograms.compileRule(cel.expression(), "rule.expression");
    if (!rule.errors().isEmpty()) {
      return new Compiled(null, null, rule.errors().get(0).message());
    }
    CelPrograms.Result message = cel.message() == null ? null : CelPrograms.compileMessage(cel.message(),
        "rule.message");
    if (message != null && !message.errors().isEmpty()) {
      return new Compiled(null, null, message.errors().get(0).message());
    }
    return new Compiled(rule.program(), message == null ? null : message.program(), null);
  }

  /** The decision's row, written in the transaction of the change it decided. */
  public RowWrite decisionRow(String orgId, GuardrailDecision decision, String planJson) {
    return new RowWrite("INSERT INTO guardrail_decisions (id, job_id, space_id, action, plan_hash, outcome, verdicts,"
        + " actor, decided_at, plan, org_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        decision.id(), decision.jobId() == null ? Database.NULL_TEXT : decision.jobId().value(),
        decision.spaceId().value(), decision.action(), decision.planHash(), decision.outcome().wireName(),
        Json.write(decision.verdicts()), decision.actor(), decision.decidedAt(), planJson, orgId);
  }

  /** Records a decision on its own: a refusal, which writes nothing else. */
  public void record(String orgId, GuardrailDecision decision, String planJson) {
    db.tx(c -> {
      rows.decided(c, orgId, decision, planJson);
      return null;
    });
  }

  /** The organisation's latest {@code limit} decisions, newest first. */
  public List<GuardrailDecision> decisions(Principal principal, int limit) {
    if (limit < 1 || limit > 1000) {
      throw ValidationException.of("limit", "out_of_range", "limit must be between 1 and 1000");
    }
    return db.read(c -> rows.latestDecisions(c, principal.orgId(), limit));
  }

  /** The decisions on a job, oldest first. */
  public List<GuardrailDecision> decisions(Principal principal, JobId job) {
    return db.read(c -> rows.decisions(c, principal.orgId(), job));
  }

  // ---- the guardrails themselves ----

  public Guardrail create(Principal principal, GuardrailRequest request) {
    GuardrailValidation.validate(request);
    Guardrail made = new Guardrail(GuardrailId.random(), request.name(), 1, request.level(), request.rule(),
        request.scope(), request.approverGrant(), request.description(),
        request.enabled() == null || request.enabled(), false, principal.actor(), Timestamps.now());
    try {
      db.tx(c -> {
        rows.takeName(c, principal.orgId(), made.name(), made.id());
        rows.insert(c, principal.orgId(), made);
        return null;
      });
    } catch (StoreException e) {
      throw nameTaken(e, made.name());
    }
    return made;
  }

  public Guardrail get(Principal principal, GuardrailId id) {
    List<Guardrail> all = versions(principal, id);
    return all.get(all.size() - 1);
  }

  public Guardrail get(Principal principal, GuardrailId id, int version) {
    return versions(principal, id).stream().filter(g -> g.version() == version).findFirst()
        .orElseThrow(() -> new NotFoundException("guardrail version", id.value() + " v" + version));
  }

  /** The latest version of each guardrail not deleted, by name. */
  public List<Guardrail> list(Principal principal) {
    return db.read(c -> rows.latest(c, principal.orgId())).stream().filter(g -> !g.deleted()).toList();
  }

  public List<Guardrail> versions(Principal principal, GuardrailId id) {
    List<Guardrail> all = db.read(c -> rows.versions(c, principal.orgId(), id));
    if (all.isEmpty()) {
      throw new NotFoundException("guardrail", id.value());
    }
    return all;
  }

  public Guardrail update(Principal principal, GuardrailId id, GuardrailRequest request) {
    Guardrail current = get(principal, id);
    if (current.deleted()) {
      throw new ConflictException("guardrail_deleted", "guardrail " + id + " was deleted at version "
          + current.version() + "; make a new one");
    }
    GuardrailRequest merged = new GuardrailRequest(
        request.name() != null ? request.name() : current.name(),
        request.level() != null ? request.level() : current.level(),
        request.rule() != null ? request.rule() : current.rule(),
        request.scope() != null ? request.scope() : current.scope(),
        request.approverGrant() != null ? request.approverGrant() : current.approverGrant(),
        request.description() != null ? request.description() : current.description(),
        request.enabled() != null ? request.enabled() : current.enabled());
    GuardrailValidation.validate(merged);
    Guardrail next = new Guardrail(id, merged.name(), current.version() + 1, merged.level(), merged.rule(),
        merged.scope(), merged.approverGrant(), merged.description(), merged.enabled(), false, principal.actor(),
        Timestamps.now());
    write(principal, current, next);
    return next;
  }

  public Guardrail delete(Principal principal, GuardrailId id) {
    Guardrail current = get(principal, id);
    if (current.deleted()) {
      return current;
    }
    Guardrail gone = new Guardrail(id, current.name(), current.version() + 1, current.level(), current.rule(),
        current.scope(), current.approverGrant(), current.description(), false, true, principal.actor(),
        Timestamps.now());
    write(principal, current, gone);
    return gone;
  }

  /** The next version, and the name it holds moved with it; a version another change wrote first is a conflict. */
  private void write(Principal principal, Guardrail current, Guardrail next) {
    try {
      db.tx(c -> {
        if (next.deleted() || !next.name().equals(current.name())) {
          rows.freeName(c, principal.orgId(), current.name(), current.id());
        }
        if (!next.deleted() && !next.name().equals(current.name())) {
          rows.takeName(c, principal.orgId(), next.name(), next.id());
        }
        rows.insert(c, principal.orgId(), next);
        return null;
      });
    } catch (StoreException e) {
      if (e.sqlCause() != null && db.dialect().isUniqueViolation(e.sqlCause())
          && next.name().equals(current.name())) {
        throw new ConflictException("guardrail_changed", "guardrail " + current.id() + " was changed by another"
            + " call while this one made version " + next.version() + "; read it again and retry");
      }
      throw nameTaken(e, next.name());
    }
  }

  private RuntimeException nameTaken(StoreException e, String name) {
    if (e.sqlCause() != null && db.dialect().isUniqueViolation(e.sqlCause())) {
      return new ConflictException("name_taken", "the organisation already has a guardrail named " + name);
    }
    return e;
  }

  // ---- trying a guardrail before it is switched on ----

  /** A guardrail as {@code request} would make it, checked as a create checks it, and saved nowhere. */
  public Guardrail unsaved(Principal principal, GuardrailRequest request) {
    GuardrailValidation.validate(request);
    return new Guardrail(GuardrailId.of("grd_trial"), request.name(), 0, request.level(), request.rule(),
        request.scope(), request.approverGrant(), request.description(), true, false, principal.actor(),
        Timestamps.now());
  }

  /** A change recorded with its decision, its plan document read back. */
  public record Recorded(JobId job, SpaceId space, String action, java.time.Instant at, PlanDocument plan) {}

  /** The organisation's last {@code limit} changes guardrails decided, newest first. */
  public List<Recorded> recentChanges(String orgId, int limit) {
    return db.read(c -> rows.recentChanges(c, orgId, limit)).stream()
        .map(r -> new Recorded(r.job(), r.space(), r.action(), r.at(), PlanDocument.read(r.plan()))).toList();
  }

  /** One guardrail's verdict on a plan, no exemption considered. */
  public GuardrailVerdict verdict(Guardrail guardrail, PlanDocument plan) {
    return answer(List.of(guardrail), plan, List.of(), null, null).verdicts().get(0);
  }

  // ---- exemptions ----

  /** The most an exemption may run: a year. */
  static final java.time.Duration LONGEST_EXEMPTION = java.time.Duration.ofDays(366);

  public GuardrailExemption exempt(Principal principal, GuardrailExemptionRequest request) {
    List<FieldError> errors = new ArrayList<>();
    java.time.Instant now = Timestamps.now();
    if (request.guardrailId() == null) {
      errors.add(FieldError.required("guardrailID"));
    } else if (db.read(c -> rows.versions(c, principal.orgId(), request.guardrailId())).isEmpty()) {
      errors.add(FieldError.of("guardrailID", "not_found", "no guardrail " + request.guardrailId()));
    }
    if ((request.jobId() == null) == (request.spaceId() == null)) {
      errors.add(FieldError.of("jobID", "one_of", "name a job or a space, not both and not neither"));
    } else if (request.jobId() != null
        && !db.read(c -> rows.has(c, principal.orgId(), "provisioning_jobs", request.jobId().value()))) {
      errors.add(FieldError.of("jobID", "not_found", "no job " + request.jobId()));
    } else if (request.spaceId() != null
        && !db.read(c -> rows.has(c, principal.orgId(), "deployment_spaces", request.spaceId().value()))) {
      errors.add(FieldError.of("spaceID", "not_found", "no space " + request.spaceId()));
    }
    if (request.reason() == null || request.reason().isBlank()) {
      errors.add(FieldError.required("reason"));
    } else if (request.reason().length() > 2000) {
      errors.add(FieldError.of("reason", "too_long", "reason is longer than 2000 characters"));
    }
    if (request.expiresAt() == null) {
      errors.add(FieldError.required("expiresAt"));
    } else if (!request.expiresAt().isAfter(now) || request.expiresAt().isAfter(now.plus(LONGEST_EXEMPTION))) {
      errors.add(FieldError.of("expiresAt", "out_of_range", "expiresAt must be in the future and at most "
          + LONGEST_EXEMPTION.toDays() + " days ahead"));
    }
    ValidationException.throwIfAny(errors);
    GuardrailExemption made = new GuardrailExemption("exm_" + UUID.randomUUID().toString().replace("-", "")
        .substring(0, 20), request.guardrailId(), request.jobId(), request.spaceId(), request.reason(),
        request.expiresAt(), principal.actor(), now, null, null);
    db.tx(c -> {
      rows.insertExemption(c, principal.orgId(), made);
      return null;
    });
    return made;
  }

  public List<GuardrailExemption> exemptions(Principal principal) {
    return db.read(c -> rows.exemptions(c, principal.orgId()));
  }

  public GuardrailExemption revokeExemption(Principal principal, String id) {
    return db.tx(c -> {
      if (!rows.revokeExemption(c, principal.orgId(), id, principal.actor(), Timestamps.now())) {
        throw new NotFoundException("exemption", id);
      }
      return rows.exemption(c, principal.orgId(), id);
    });
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}

package dev.zop.provisioner.testkit.guardrails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailDeniedException;
import dev.zop.provisioner.GuardrailExemption;
import dev.zop.provisioner.GuardrailExemptionRequest;
import dev.zop.provisioner.GuardrailLevel;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailScope;
import dev.zop.provisioner.GuardrailTrial;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.GuardrailVerdict.Outcome;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Guardrails on the sim cloud: each rule kind and level, versions, scope, approvals, and refusals that write nothing;
 * once per store.
 */
abstract class GuardrailBehaviour {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final Map<String, String> OWNED = Map.of("owner", "team-payments", "cost-center", "cc-1234");

  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;
  Provisioner alice; // a developer: submits, cannot approve
  Provisioner bob; // a finance approver: holds the approver grant, not admin

  abstract EmbeddedProvisionerBuilder engine(SimCloud simCloud);

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    zop = engine(cloud).build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "guardrails"));
    space = zop.spaces().create(SpaceRequest.of("sim", "guardrails", account.id()).region("sim-east-1"));
    alice = zop.as(new Principal("default", "alice", Set.of("operator")));
    bob = zop.as(new Principal("default", "bob", Set.of("viewer", "guardrail:approve")));
  }

  @AfterEach
  void stop() {
    if (zop != null) {
      zop.close();
    }
  }

  static KubernetesSpec cluster(String name, String size, int max) {
    return KubernetesSpec.named(name).version("1.30").nodeGroup("general", size, 1, max).build();
  }

  Guardrail guardrail(String name, GuardrailLevel level, GuardrailRule rule) {
    return zop.guardrails().create(GuardrailRequest.of(name, level, rule));
  }

  static GuardrailVerdict only(List<GuardrailVerdict> verdicts) {
    assertThat(verdicts).hasSize(1);
    return verdicts.get(0);
  }

  @Test
  void aDenyGuardrailShowsOnThePlanAndRefusesTheSubmitWritingNoJob() {
    guardrail("sizes", GuardrailLevel.DENY, new GuardrailRule.AllowedSizes(List.of("m5.large", "t3.medium")));

    Plan plan = alice.jobs().plan(space.id(), cluster("big", "m5.4xlarge", 3));
    GuardrailVerdict verdict = only(plan.verdicts());
    assertThat(verdict.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(verdict.field()).isEqualTo("config.nodeGroups[0].instanceType");
    assertThat(verdict.message()).contains("m5.4xlarge").contains("[m5.large, t3.medium]");
    assertThat(verdict.fixHint()).contains("m5.large");

    assertThatThrownBy(() -> alice.jobs().submit(space.id(), cluster("big", "m5.4xlarge", 3)))
        .isInstanceOfSatisfying(GuardrailDeniedException.class, e -> {
          assertThat(e.code()).isEqualTo("guardrail_denied");
          assertThat(e.fieldErrors()).extracting(FieldError::field, FieldError::code)
              .containsExactly(tuple("config.nodeGroups[0].instanceType", "guardrail_denied"));
          assertThat(e.fieldErrors().get(0).message()).startsWith("sizes (v1): ").contains("fix: use one of");
        });
    assertThat(zop.jobs().list(JobQuery.all()).items()).isEmpty();
    assertThat(cloud.resources()).isEmpty();
    // the refusal is kept, with no job
    assertThat(zop.guardrails().decisions(10)).singleElement().satisfies(d -> {
      assertThat(d.jobId()).isNull();
      assertThat(d.outcome()).isEqualTo(GuardrailDecision.Outcome.DENIED);
      assertThat(d.actor()).isEqualTo("alice");
    });

    // an allowed size passes, and the job records the decision with the plan's hash
    Job job = alice.jobs().await(alice.jobs().submit(space.id(), cluster("small", "m5.large", 3)).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    GuardrailDecision decision = only(zop.guardrails().decisions(job.id()));
    assertThat(decision.outcome()).isEqualTo(GuardrailDecision.Outcome.ALLOWED);
    assertThat(decision.planHash()).hasSize(64);
    assertThat(decision.verdicts()).extracting(GuardrailVerdict::name, GuardrailVerdict::version,
        GuardrailVerdict::outcome).containsExactly(tuple("sizes", 1, Outcome.PASSED));
  }

  private static GuardrailDecision only(List<GuardrailDecision> decisions, Object... ignored) {
    assertThat(decisions).hasSize(1);
    return decisions.get(0);
  }

  @Test
  void anAdvisoryGuardrailWarnsOnThePlanAndAsAnEventAndTheJobRuns() {
    guardrail("tagged", GuardrailLevel.ADVISORY, new GuardrailRule.RequiredTags(
        new LinkedHashMap<>(Map.of("owner", "team-[a-z]+"))));

    Plan untagged = alice.jobs().plan(space.id(), cluster("c1", "m5.large", 2));
    assertThat(only(untagged.verdicts())).extracting(GuardrailVerdict::outcome, GuardrailVerdict::field)
        .containsExactly(Outcome.WARNED, "tags.owner");
    Plan badlyTagged = alice.jobs().plan(space.id(), cluster("c1", "m5.large", 2),
        SubmitOptions.none().withTags(Map.of("owner", "Payments")));
    assertThat(only(badlyTagged.verdicts()).message()).contains("'Payments'").contains("does not match");
    Plan tagged = alice.jobs().plan(space.id(), cluster("c1", "m5.large", 2),
        SubmitOptions.none().withTags(OWNED));
    assertThat(only(tagged.verdicts()).outcome()).isEqualTo(Outcome.PASSED);

    Job job = alice.jobs().await(alice.jobs().submit(space.id(), cluster("c1", "m5.large", 2)).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(alice.jobs().events(job.id(), 0)).filteredOn(e -> e.type() == JobEventType.GUARDRAIL_WARNING)
        .extracting(JobEvent::message).singleElement().asString()
        .startsWith("guardrail tagged (v1): tag 'owner' is missing");
    assertThat(only(zop.guardrails().decisions(job.id())).outcome()).isEqualTo(GuardrailDecision.Outcome.WARNED);
  }

  @Test
  void anApprovalGuardrailHoldsTheJobUntilAnotherPersonWithTheGrantApprovesIt() {
    guardrail("node-cap", GuardrailLevel.APPROVAL, new GuardrailRule.MaxCount(5));

    Job held = alice.jobs().submit(space.id(), cluster("wide", "m5.large", 8));
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThat(alice.jobs().list(JobQuery.all().withStatus(JobStatus.AWAITING_APPROVAL)).items())
        .extracting(Job::id).containsExactly(held.id());
    assertThat(alice.jobs().events(held.id(), 0)).filteredOn(e -> e.type() == JobEventType.GUARDRAIL_DECISION)
        .extracting(JobEvent::message).singleElement().asString()
        .contains("node-cap (v1): node_group 'general' runs up to 8 nodes, more than the 5 allowed");

    // nothing runs while it waits
    assertThat(cloud.resources()).isEmpty();
    // the submitter cannot approve their own job, even as an admin would
    assertThatThrownBy(() -> alice.guardrails().approve(held.id(), "mine"))
        .isInstanceOfSatisfying(ForbiddenException.class, e -> assertThat(e.code()).isEqualTo("self_approval"));
    // someone without the grant cannot either
    Provisioner carol = zop.as(new Principal("default", "carol", Set.of("operator")));
    assertThatThrownBy(() -> carol.guardrails().approve(held.id(), "looks fine"))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("guardrail:approve (guardrail node-cap)");

    Job approved = bob.guardrails().approve(held.id(), "peak season");
    assertThat(approved.status()).isIn(JobStatus.PENDING, JobStatus.RUNNING, JobStatus.SUCCEEDED);
    assertThat(zop.jobs().await(held.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.resources()).isNotEmpty();
    // one decision wins: the job is no longer awaiting
    assertThatThrownBy(() -> bob.guardrails().reject(held.id(), "late"))
        .isInstanceOfSatisfying(ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("not_awaiting_approval"));
    assertThat(zop.guardrails().decisions(held.id())).extracting(GuardrailDecision::outcome,
            GuardrailDecision::actor, GuardrailDecision::action)
        .containsExactly(tuple(GuardrailDecision.Outcome.APPROVAL_REQUIRED, "alice", "create"),
            tuple(GuardrailDecision.Outcome.APPROVED, "bob", "approve"));
    assertThat(zop.guardrails().decisions(held.id()).get(1).verdicts().get(0).message())
        .isEqualTo("approved by bob: peak season");
  }

  @Test
  void aRejectedJobIsCancelledWithNothingMadeAndANarrowerApproverGrantIsHonoured() {
    zop.guardrails().create(GuardrailRequest.of("node-cap", GuardrailLevel.APPROVAL, new GuardrailRule.MaxCount(5))
        .withApproverGrant("guardrail:approve:platform"));
    Job held = alice.jobs().submit(space.id(), cluster("wide", "m5.large", 8));

    // bob holds guardrail:approve, not the narrower grant this guardrail asks for
    assertThatThrownBy(() -> bob.guardrails().reject(held.id(), "no"))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("guardrail:approve:platform");
    Provisioner dana = zop.as(new Principal("default", "dana", Set.of("viewer", "guardrail:approve:platform")));
    Job rejected = dana.guardrails().reject(held.id(), "use the shared cluster");
    assertThat(rejected.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(cloud.resources()).isEmpty();
    assertThat(zop.jobs().events(held.id(), 0)).extracting(JobEvent::message)
        .contains("rejected by dana: use the shared cluster");
    // a cancelled job with nothing made tears down to deleted
    assertThat(zop.jobs().await(zop.jobs().delete(held.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aSpaceBudgetCountsTheSpacesJobsAtTheirMaximumSizeAndThePlan() {
    // on the sim a cluster's control plane is $73.00 a month and an m5.large node $70.08
    Job first = alice.jobs().await(alice.jobs().submit(space.id(), cluster("first", "m5.large", 3)).id(), WAIT);
    assertThat(first.status()).isEqualTo(JobStatus.SUCCEEDED);
    BigDecimal firstAtMax = zop.jobs().plan(space.id(), cluster("first", "m5.large", 3)).monthlyTotalAtMax();
    guardrail("budget", GuardrailLevel.DENY, new GuardrailRule.SpaceBudget(firstAtMax.add(new BigDecimal("150"))));

    // a second cluster of one node at most fits under the extra $150 a month ($143.08); of two it does not
    assertThat(only(alice.jobs().plan(space.id(), cluster("second", "m5.large", 1)).verdicts()).outcome())
        .isEqualTo(Outcome.PASSED);
    GuardrailVerdict over = only(alice.jobs().plan(space.id(), cluster("second", "m5.large", 2)).verdicts());
    assertThat(over.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(over.message()).contains("up to $" + firstAtMax.add(new BigDecimal("213.16")).setScale(2))
        .contains("over its budget of $" + firstAtMax.add(new BigDecimal("150")).setScale(2));

    // a registry's storage has no price: under the budget, the space's cost cannot be known, so it refuses
    GuardrailVerdict unknown = only(alice.jobs().plan(space.id(), RegistrySpec.named("images")).verdicts());
    assertThat(unknown.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(unknown.message()).startsWith("the guardrail could not be evaluated, so it refuses");
  }

  @Test
  void aCostIncreaseGuardrailBoundsWhatANewJobAdds() {
    guardrail("increase", GuardrailLevel.DENY, new GuardrailRule.CostIncrease(new BigDecimal("150"), null));
    assertThat(only(alice.jobs().plan(space.id(), cluster("a", "m5.large", 2)).verdicts()).outcome())
        .isEqualTo(Outcome.PASSED);
    // what a job adds is priced at the size it starts at: the control plane and two m5.xlarge, $353.32
    KubernetesSpec big = KubernetesSpec.named("b").version("1.30").nodeGroup("general", "m5.xlarge", 2, 4).build();
    Plan plan = alice.jobs().plan(space.id(), big);
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("353.32");
    assertThat(only(plan.verdicts()).message())
        .isEqualTo("the change adds $353.32 a month, more than the $150.00 allowed");
  }

  @Test
  void regionsVersionsAndKindsAreCheckedAgainstTheirLists() {
    guardrail("regions", GuardrailLevel.DENY, new GuardrailRule.AllowedRegions(List.of("sim-west-2")));
    guardrail("versions", GuardrailLevel.DENY, new GuardrailRule.AllowedVersions(List.of("1.31", "16")));
    guardrail("kinds", GuardrailLevel.DENY, new GuardrailRule.AllowedKinds(List.of(JobKind.KUBERNETES)));

    Plan plan = alice.jobs().plan(space.id(), DatastoreSpec.postgres().name("orders").version("15.4")
        .instanceClass("db.t3.medium").allocatedStorageGb(20).build());
    assertThat(plan.verdicts()).extracting(GuardrailVerdict::name, GuardrailVerdict::outcome, GuardrailVerdict::field)
        .containsExactly(tuple("kinds", Outcome.DENIED, "kind"), tuple("regions", Outcome.DENIED, "region"),
            tuple("versions", Outcome.DENIED, "config.version"));
    // "16" allows 16.3, not 1.6 or 160
    assertThat(alice.jobs().plan(space.id(), DatastoreSpec.postgres().name("orders").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(20).build()).verdicts())
        .filteredOn(v -> v.name().equals("versions")).extracting(GuardrailVerdict::outcome)
        .containsExactly(Outcome.PASSED);
    assertThat(alice.jobs().plan(space.id(), cluster("c", "m5.large", 2)).verdicts())
        .filteredOn(v -> v.name().equals("versions")).extracting(GuardrailVerdict::message).singleElement()
        .asString().contains("runs version '1.30', not one of [1.31, 16]");
  }

  @Test
  void aCelRuleReadsThePlansDocumentAndItsMessageSaysWhatToFix() {
    guardrail("gpu-free", GuardrailLevel.DENY, new GuardrailRule.Cel(
        "plan.resources.all(r, r.type != 'node_group' || r.countMax <= 4) && plan.cost.afterAtMax < 1000.0",
        "'at most 4 nodes a group and $1000 a month; asked ' + string(plan.maxCount) + ' nodes'"));

    assertThat(only(alice.jobs().plan(space.id(), cluster("ok", "m5.large", 4)).verdicts()).outcome())
        .isEqualTo(Outcome.PASSED);
    GuardrailVerdict refused = only(alice.jobs().plan(space.id(), cluster("wide", "m5.large", 6)).verdicts());
    assertThat(refused.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(refused.message()).isEqualTo("at most 4 nodes a group and $1000 a month; asked 6 nodes");
  }

  @Test
  void aCelExpressionThatDoesNotCompileOrCostsTooMuchIsRefusedWhenSaved() {
    assertThatThrownBy(() -> guardrail("typo", GuardrailLevel.DENY, new GuardrailRule.Cel("plan.kind == 'x' &&\n"
        + "  plan.cots.after < 10.0", null)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field, FieldError::code, FieldError::message)
            .containsExactly(tuple("rule.expression", "cel_invalid", "line 2, column 7: undefined field 'cots'")));
    assertThatThrownBy(() -> guardrail("not-bool", GuardrailLevel.DENY, new GuardrailRule.Cel("plan.kind", null)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("expected type 'bool'");
    // three loops deep over the resources: some fifteen million nodes at a hundred resources
    assertThatThrownBy(() -> guardrail("costly", GuardrailLevel.DENY, new GuardrailRule.Cel(
        "plan.resources.all(a, plan.resources.all(b, plan.resources.all(c, a.countMax + b.countMax + c.countMax"
            + " < 100)))", null)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::code).containsExactly("cel_too_costly"));
    // two loops deep is allowed
    guardrail("pairs", GuardrailLevel.ADVISORY, new GuardrailRule.Cel(
        "plan.resources.all(a, plan.resources.all(b, a.name == b.name || a.size == b.size))", null));
    assertThat(zop.guardrails().list()).extracting(Guardrail::name).containsExactly("pairs");
  }

  @Test
  void aChangeIsANewVersionTheOldOnesStayReadableAndScopeNarrowsWhereItApplies() {
    Guardrail v1 = guardrail("sizes", GuardrailLevel.ADVISORY, new GuardrailRule.AllowedSizes(List.of("t3.medium")));
    assertThatThrownBy(() -> guardrail("sizes", GuardrailLevel.DENY, new GuardrailRule.MaxCount(1)))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("name_taken"));
    Guardrail v2 = zop.guardrails().update(v1.id(), new GuardrailRequest(null, GuardrailLevel.DENY, null, null, null,
        null, null));
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.rule()).isEqualTo(v1.rule());
    assertThat(zop.guardrails().get(v1.id(), 1).level()).isEqualTo(GuardrailLevel.ADVISORY);
    assertThat(only(alice.jobs().plan(space.id(), cluster("c", "m5.large", 2)).verdicts()))
        .extracting(GuardrailVerdict::version, GuardrailVerdict::outcome).containsExactly(2, Outcome.DENIED);

    // narrowed to another space, it no longer applies here
    CloudAccount other = zop.accounts().create(CloudAccountRequest.of("sim", "other"));
    Space elsewhere = zop.spaces().create(SpaceRequest.of("sim", "elsewhere", other.id()).region("sim-east-1"));
    zop.guardrails().update(v1.id(), new GuardrailRequest(null, null, null,
        new GuardrailScope(List.of(elsewhere.id()), List.of(), List.of()), null, null, null));
    assertThat(alice.jobs().plan(space.id(), cluster("c", "m5.large", 2)).verdicts()).isEmpty();
    assertThat(alice.jobs().plan(elsewhere.id(), cluster("c", "m5.large", 2)).verdicts()).hasSize(1);

    // deleted: not listed, not checked, its versions readable, its name free again
    Guardrail gone = zop.guardrails().delete(v1.id());
    assertThat(gone.version()).isEqualTo(4);
    assertThat(zop.guardrails().list()).isEmpty();
    assertThat(zop.guardrails().versions(v1.id())).extracting(Guardrail::version).containsExactly(1, 2, 3, 4);
    assertThat(alice.jobs().plan(elsewhere.id(), cluster("c", "m5.large", 2)).verdicts()).isEmpty();
    assertThat(guardrail("sizes", GuardrailLevel.DENY, new GuardrailRule.MaxCount(1)).id()).isNotEqualTo(v1.id());

    // only those granted guardrail:manage change guardrails; anyone who may plan reads them
    assertThatThrownBy(() -> alice.guardrails().create(GuardrailRequest.of("mine", GuardrailLevel.ADVISORY,
        new GuardrailRule.MaxCount(3)))).isInstanceOf(ForbiddenException.class).hasMessageContaining("guardrail:manage");
    assertThat(alice.guardrails().list()).hasSize(1);
  }

  @Test
  void badRulesAreRefusedFieldByField() {
    assertThatThrownBy(() -> zop.guardrails().create(new GuardrailRequest("Bad Name", null,
        new GuardrailRule.RequiredTags(Map.of("owner", "team-[")), null, "approve-all", null, null)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("name", "level", "rule.tags.owner", "approverGrant"));
    assertThatThrownBy(() -> guardrail("budget", GuardrailLevel.DENY,
        new GuardrailRule.SpaceBudget(new BigDecimal("-1"))))
        .isInstanceOf(ValidationException.class).hasMessageContaining("rule.monthlyMax");
    assertThat(zop.guardrails().list()).isEmpty();
  }

  static DatastoreSpec.Builder orders() {
    return DatastoreSpec.postgres().name("orders").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(20);
  }

  @Test
  void aRevisionIsDecidedAsASubmitIsDeniedWithNothingChangedOrHeldAndRejectedBackToWhereItWas() {
    Job job = alice.jobs().await(alice.jobs().submit(space.id(), orders().build()).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    Guardrail classes = guardrail("classes", GuardrailLevel.DENY, new GuardrailRule.AllowedSizes(
        List.of("db.t3.medium", "db.m5.large")));

    // denied: on the plan, and the revision refused with the job as it was
    assertThat(only(alice.jobs().planRevision(job.id(), orders().instanceClass("db.r5.large").build()).verdicts()))
        .extracting(GuardrailVerdict::outcome, GuardrailVerdict::field)
        .containsExactly(Outcome.DENIED, "config.instanceClass");
    assertThatThrownBy(() -> alice.jobs().revise(job.id(), orders().instanceClass("db.r5.large").build()))
        .isInstanceOf(GuardrailDeniedException.class);
    assertThat(zop.jobs().get(job.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(zop.jobs().revisions(job.id())).extracting(r -> r.number()).containsExactly(1);

    // held: the revision waits, nothing changes in the cloud; rejected, the job is back as it was
    zop.guardrails().update(classes.id(), new GuardrailRequest(null, GuardrailLevel.APPROVAL, null, null, null,
        null, null));
    Job held = alice.jobs().revise(job.id(), orders().instanceClass("db.r5.large").build());
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("instanceClass", "db.t3.medium");
    Job back = bob.guardrails().reject(job.id(), "too large for orders");
    assertThat(back.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(back.spec()).isEqualTo(job.spec());
    assertThat(zop.jobs().revisions(job.id())).extracting(r -> r.number()).containsExactly(1);
    assertThat(cloud.modifyCount("db-instance", "orders")).isZero();

    // held again and approved: the revision is applied
    Job heldAgain = alice.jobs().revise(job.id(), orders().instanceClass("db.r5.large").build());
    assertThat(heldAgain.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    bob.guardrails().approve(job.id(), "month-end load");
    Job revised = zop.jobs().await(job.id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("instanceClass", "db.r5.large");
    assertThat(zop.guardrails().decisions(job.id())).extracting(GuardrailDecision::action,
            GuardrailDecision::outcome)
        .containsExactly(tuple("revise", GuardrailDecision.Outcome.DENIED),
            tuple("revise", GuardrailDecision.Outcome.APPROVAL_REQUIRED),
            tuple("reject", GuardrailDecision.Outcome.REJECTED),
            tuple("revise", GuardrailDecision.Outcome.APPROVAL_REQUIRED),
            tuple("approve", GuardrailDecision.Outcome.APPROVED));
  }

  @Test
  void aRetryIsDecidedByTheGuardrailsInForceNow() {
    cloud.quotaExceeded("db-instance");
    Job failed = alice.jobs().await(alice.jobs().submit(space.id(), orders().build()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    cloud.clearQuota("db-instance");
    Guardrail classes = guardrail("classes", GuardrailLevel.DENY, new GuardrailRule.AllowedSizes(
        List.of("db.m5.large")));

    assertThatThrownBy(() -> alice.jobs().retry(failed.id())).isInstanceOf(GuardrailDeniedException.class);
    assertThat(zop.jobs().get(failed.id()).status()).isEqualTo(JobStatus.FAILED);

    zop.guardrails().update(classes.id(), new GuardrailRequest(null, GuardrailLevel.APPROVAL, null, null, null,
        null, null));
    assertThat(alice.jobs().retry(failed.id()).status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    Job stillFailed = bob.guardrails().reject(failed.id(), "use db.m5.large");
    assertThat(stillFailed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(stillFailed.lastFailure()).isNotNull();
    assertThat(stillFailed.lastFailure().code()).isEqualTo(failed.lastFailure().code());

    alice.jobs().retry(failed.id());
    bob.guardrails().approve(failed.id(), "just this once");
    assertThat(zop.jobs().await(failed.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /** The worked example of docs/using.md: nothing said below $50 a month, finance asked above it, refused above $5,000. */
  @Test
  void gradedCostBehaviourIsTwoGuardrailsOnWhatAChangeAdds() {
    zop.guardrails().create(GuardrailRequest.of("cost-ask-finance", GuardrailLevel.APPROVAL,
        new GuardrailRule.CostIncrease(new BigDecimal("50"), null)).withApproverGrant("guardrail:approve:finance"));
    zop.guardrails().create(GuardrailRequest.of("cost-ceiling", GuardrailLevel.DENY,
        new GuardrailRule.CostIncrease(new BigDecimal("5000"), null)));
    Provisioner finance = zop.as(new Principal("default", "fiona", Set.of("viewer", "guardrail:approve:finance")));

    // a small database, well under $50 a month: nothing said
    Job small = alice.jobs().submit(space.id(), DatastoreSpec.postgres().name("small").version("16.3")
        .instanceClass("db.t3.micro").allocatedStorageGb(20).build());
    assertThat(small.status()).isIn(JobStatus.PENDING, JobStatus.RUNNING, JobStatus.SUCCEEDED);
    // a cluster: $353.32, finance decides
    Job cluster = alice.jobs().submit(space.id(), KubernetesSpec.named("mid").version("1.30")
        .nodeGroup("general", "m5.xlarge", 2, 4).build());
    assertThat(cluster.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThatThrownBy(() -> bob.guardrails().approve(cluster.id(), "ok"))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("guardrail:approve:finance");
    finance.guardrails().approve(cluster.id(), "budgeted in Q1");
    assertThat(zop.jobs().await(cluster.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    // forty m5.4xlarge from the start: refused outright
    assertThatThrownBy(() -> alice.jobs().submit(space.id(), KubernetesSpec.named("huge").version("1.30")
        .nodeGroup("general", "m5.4xlarge", 40, 40).build()))
        .isInstanceOfSatisfying(GuardrailDeniedException.class, e -> assertThat(e.denied())
            .extracting(GuardrailVerdict::name).containsExactly("cost-ceiling"));
    assertThat(zop.jobs().await(small.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void anExemptionLetsItsJobOrSpaceBreakTheGuardrailUntilItEndsAndIsKept() {
    Guardrail sizes = guardrail("sizes", GuardrailLevel.DENY, new GuardrailRule.AllowedSizes(List.of("m5.large")));
    Provisioner finops = zop.as(new Principal("default", "erin", Set.of("viewer", "guardrail:exempt")));
    assertThatThrownBy(() -> alice.guardrails().exempt(GuardrailExemptionRequest.forSpace(sizes.id(), space.id(),
        "mine", Instant.now().plus(Duration.ofDays(1))))).isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("guardrail:exempt");
    assertThatThrownBy(() -> finops.guardrails().exempt(new GuardrailExemptionRequest(sizes.id(), JobId.of("job_x"),
        space.id(), " ", Instant.now().minusSeconds(1))))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("jobID", "reason", "expiresAt"));

    // a space's exemption: the verdict is exempted, naming it, and the submit goes ahead with a warning
    GuardrailExemption leave = finops.guardrails().exempt(GuardrailExemptionRequest.forSpace(sizes.id(), space.id(),
        "load test until Friday", Instant.now().plus(Duration.ofDays(3))));
    GuardrailVerdict exempted = only(alice.jobs().plan(space.id(), cluster("load", "c5.2xlarge", 3)).verdicts());
    assertThat(exempted).extracting(GuardrailVerdict::outcome, GuardrailVerdict::exemption)
        .containsExactly(Outcome.EXEMPTED, leave.id());
    Job load = alice.jobs().await(alice.jobs().submit(space.id(), cluster("load", "c5.2xlarge", 3)).id(), WAIT);
    assertThat(load.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(alice.jobs().events(load.id(), 0)).filteredOn(e -> e.type() == JobEventType.GUARDRAIL_WARNING)
        .extracting(JobEvent::message).singleElement().asString().contains("exempted by " + leave.id());

    // revoked, it stops at once and is kept
    GuardrailExemption revoked = finops.guardrails().revokeExemption(leave.id());
    assertThat(revoked.revokedBy()).isEqualTo("erin");
    assertThat(only(alice.jobs().plan(space.id(), cluster("load", "c5.2xlarge", 3)).verdicts()).outcome())
        .isEqualTo(Outcome.DENIED);
    assertThat(alice.guardrails().exemptions()).extracting(GuardrailExemption::id).containsExactly(leave.id());

    // a job's exemption covers that job's changes only, until it ends
    GuardrailExemption forLoad = finops.guardrails().exempt(GuardrailExemptionRequest.forJob(sizes.id(), load.id(),
        "resize for the test", Instant.now().plus(Duration.ofSeconds(2))));
    KubernetesSpec larger = KubernetesSpec.named("load").version("1.30").nodeGroup("general", "c5.2xlarge", 1, 5)
        .build();
    assertThat(only(alice.jobs().planRevision(load.id(), larger).verdicts()).exemption()).isEqualTo(forLoad.id());
    assertThat(only(alice.jobs().plan(space.id(), cluster("other", "c5.2xlarge", 3)).verdicts()).outcome())
        .isEqualTo(Outcome.DENIED);
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        only(alice.jobs().planRevision(load.id(), larger).verdicts()).outcome()).isEqualTo(Outcome.DENIED));
    assertThat(alice.guardrails().exemptions()).extracting(e -> e.inForce(Instant.now())).containsExactly(false,
        false);
  }

  @Test
  void aGuardrailIsTriedOnRecentChangesAndOnTheJobsThereAreBeforeItIsSwitchedOn() {
    // two clusters made under an advisory guardrail (so their plans are recorded), one of them large
    guardrail("tagged", GuardrailLevel.ADVISORY, new GuardrailRule.RequiredTags(Map.of("owner", "team-[a-z]+")));
    Job small = alice.jobs().await(alice.jobs().submit(space.id(), cluster("small", "m5.large", 2)).id(), WAIT);
    Job large = alice.jobs().await(alice.jobs().submit(space.id(), cluster("large", "m5.large", 8)).id(), WAIT);
    assertThat(List.of(small.status(), large.status())).containsOnly(JobStatus.SUCCEEDED);
    GuardrailRequest cap = GuardrailRequest.of("node-cap", GuardrailLevel.DENY, new GuardrailRule.MaxCount(4));

    GuardrailTrial trial = zop.guardrails().tryOut(cap, 100);
    assertThat(trial.plansChecked()).isEqualTo(2);
    assertThat(trial.plans()).extracting(f -> f.jobId(), f -> f.action(), f -> f.verdict().outcome())
        .containsExactly(tuple(large.id(), "create", Outcome.DENIED));
    assertThat(trial.jobsChecked()).isEqualTo(2);
    assertThat(trial.jobs()).extracting(f -> f.jobId(), f -> f.verdict().field())
        .containsExactly(tuple(large.id(), "config.nodeGroups[0].max"));
    // saved nowhere; a bad one is refused as a create refuses it; only managers try them
    assertThat(zop.guardrails().list()).extracting(Guardrail::name).containsExactly("tagged");
    assertThatThrownBy(() -> zop.guardrails().tryOut(GuardrailRequest.of("bad", GuardrailLevel.DENY,
        new GuardrailRule.Cel("plan.nope", null)), 10)).isInstanceOf(ValidationException.class);
    assertThatThrownBy(() -> alice.guardrails().tryOut(cap, 10)).isInstanceOf(ForbiddenException.class);
  }

  /**
   * Every field a guardrail may read has a value when the plan is made, for every kind: checked by a CEL rule that
   * reads them all (an empty string, a missing size or version, a range upside down fails it). A component's chart
   * version is the one exception here: the catalog pins it through the engine's component installer, which this
   * engine (the sim alone) has not; GuardrailsThroughTheServiceTest checks it with the installer.
   */
  static final String POPULATED = "plan.action == 'create' && plan.kind != '' && plan.provider != ''"
      + " && plan.region != '' && plan.space != '' && plan.name != '' && size(plan.config) > 0"
      + " && size(plan.resources) > 0 && plan.resources.all(r, r.type != '' && r.field.startsWith('config')"
      + " && r.countMin >= 0 && r.countMax >= r.countMin"
      + " && (!(r.type in ['node_group', 'vm_pool', 'datastore']) || r.size != '')"
      + " && (!(r.type in ['kubernetes_cluster', 'datastore']) || r.version != ''))"
      + " && plan.cost.after >= 0.0 && plan.cost.afterAtMax >= plan.cost.after && plan.cost.before == 0.0"
      + " && plan.cost.spaceAtMax >= plan.cost.afterAtMax && plan.caller.actor != '' && size(plan.caller.roles) > 0"
      + " && plan.maxCount >= 0";

  @Test
  void everyKindsPlanDocumentHasEveryFieldAGuardrailMayRead() {
    guardrail("populated", GuardrailLevel.DENY, new GuardrailRule.Cel(POPULATED,
        "'a field of the plan document is empty: ' + plan.kind"));
    List<dev.zop.provisioner.spec.ResourceSpec> kinds = List.of(
        cluster("k", "m5.large", 3),
        dev.zop.provisioner.spec.VmPoolSpec.named("pool").instanceType("m5.large").size(1, 3).withLoadBalancer(80)
            .build(),
        orders().build(),
        DatastoreSpec.redis().name("cache").version("7.1").instanceClass("cache.t3.small").build(),
        dev.zop.provisioner.spec.NetworkSpec.named("net").cidr("10.0.0.0/16")
            .subnet(dev.zop.provisioner.spec.Subnet.publicSubnet("a", "10.0.1.0/24", "sim-east-1a"))
            .natGateways("single").dnsZone("net.internal.example.com").build(),
        RegistrySpec.named("images/app"),
        dev.zop.provisioner.spec.LoadBalancerSpec.named("edge").listenerPorts(List.of(443)).build(),
        dev.zop.provisioner.spec.ComponentSpec.of("ingress-nginx", Map.of("controller.replicaCount", 2)));
    assertThat(kinds.stream().map(dev.zop.provisioner.spec.ResourceSpec::kind).distinct())
        .containsExactlyInAnyOrder(Arrays.stream(JobKind.values()).filter(k -> k != JobKind.REMEDIATION)
            .toArray(JobKind[]::new));
    for (dev.zop.provisioner.spec.ResourceSpec spec : kinds) {
      assertThat(only(alice.jobs().plan(space.id(), spec).verdicts())).as(spec.kind().wireName())
          .extracting(GuardrailVerdict::outcome, GuardrailVerdict::message)
          .containsExactly(Outcome.PASSED, "passed");
    }
  }

  @Test
  void anImportIsDecidedOnTheConfigTheResourcesHave() {
    cloud.existingNetwork("vpc-hand", "10.50.0.0/16", Map.of("subnet-a", "10.50.1.0/24"));
    dev.zop.provisioner.ImportRequest request = dev.zop.provisioner.ImportRequest.of(
        dev.zop.provisioner.spec.NetworkSpec.named("vpc-hand").cidr("10.50.0.0/16")
            .subnets(List.of(dev.zop.provisioner.spec.Subnet.of("subnet-a", "10.50.1.0/24"))).build(), "vpc-hand");
    Guardrail kinds = guardrail("kinds", GuardrailLevel.DENY, new GuardrailRule.AllowedKinds(List.of(
        JobKind.KUBERNETES)));

    assertThat(only(alice.jobs().planImport(space.id(), request).verdicts()))
        .extracting(GuardrailVerdict::outcome, GuardrailVerdict::field).containsExactly(Outcome.DENIED, "kind");
    assertThatThrownBy(() -> alice.jobs().importExisting(space.id(), request))
        .isInstanceOf(GuardrailDeniedException.class);
    assertThat(zop.jobs().list(JobQuery.all()).items()).isEmpty();

    // held, then rejected: cancelled, and nothing taken over
    zop.guardrails().update(kinds.id(), new GuardrailRequest(null, GuardrailLevel.APPROVAL, null, null, null, null,
        null));
    Job held = alice.jobs().importExisting(space.id(), request);
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThat(bob.guardrails().reject(held.id(), "networks are the platform team's").status())
        .isEqualTo(JobStatus.CANCELLED);
    assertThat(cloud.find("vpc", "vpc-hand").tags()).isEmpty();
    assertThat(zop.guardrails().decisions(held.id())).extracting(GuardrailDecision::action)
        .containsExactly("import", "reject");
  }
}

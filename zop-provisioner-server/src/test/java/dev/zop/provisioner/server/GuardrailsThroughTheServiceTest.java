package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailDeniedException;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.spec.KubernetesSpec;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Guardrails over REST and through the typed client: made from JSON bodies, answered on the plan, a deny as a 422
 * naming the guardrail and the field with nothing written, and an approval decided by another person's token.
 */
class GuardrailsThroughTheServiceTest {
  static final Duration WAIT = Duration.ofSeconds(60);

  static ServerFixture fixture;
  static Provisioner admin;
  static CloudAccount account;

  @BeforeAll
  static void start() {
    // with the component installer: the catalog pins a component's chart version in its plan
    fixture = ServerFixture.withComponents();
    admin = fixture.client(fixture.adminToken);
    account = admin.accounts().create(CloudAccountRequest.of("sim", "guardrails"));
    // a lead who may decide what guardrails asking for guardrail:approve:platform hold, and nothing else of them
    fixture.access.defineRole("acme", "platform-approvers", java.util.Set.of("provisioning:view",
        "guardrail:approve:platform"));
  }

  /** A space of the test's own: each test's guardrails are scoped to it, so that they do not meet. */
  private static Space space(String name) {
    return admin.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static RawHttp.Reply call(String method, String path, String token, String body) {
    return RawHttp.json(fixture.baseUrl(), method, path, token, body);
  }

  private static String cluster(Space space, String name, String size, int max) {
    return """
        {"spaceID": "%s", "kind": "kubernetes", "name": "%s", "tags": {"owner": "team-a"},
         "config": {"name": "%s", "version": "1.30",
                    "nodeGroups": [{"name": "general", "instanceType": "%s", "min": 1, "max": %d}]}}"""
        .formatted(space.id().value(), name, name, size, max);
  }

  @Test
  void aDenyIsA422NamingTheGuardrailAndTheFieldAndWritesNothing() {
    Space space = space("deny");
    RawHttp.Reply made = call("POST", "/guardrails", fixture.adminToken, """
        {"name": "sizes", "level": "deny", "rule": {"type": "allowed_sizes", "sizes": ["m5.large"]},
         "scope": {"spaces": ["%s"], "kinds": ["kubernetes"]}}""".formatted(space.id().value()));
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    assertThat(made.json().at("/data/version").asInt()).isEqualTo(1);
    assertThat(made.json().at("/data/rule/type").asText()).isEqualTo("allowed_sizes");
    String id = made.json().at("/data/id").asText();

    RawHttp.Reply plan = call("POST", "/provisioning-jobs/plan", fixture.adminToken, cluster(space, "big", "m5.4xlarge", 2));
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    JsonNode verdict = plan.json().at("/data/verdicts/0");
    assertThat(verdict.get("name").asText()).isEqualTo("sizes");
    assertThat(verdict.get("outcome").asText()).isEqualTo("denied");
    assertThat(verdict.get("field").asText()).isEqualTo("config.nodeGroups[0].instanceType");

    RawHttp.Reply refused = call("POST", "/provisioning-jobs", fixture.adminToken, cluster(space, "big", "m5.4xlarge", 2));
    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(refused.json().at("/error/code").asText()).isEqualTo("guardrail_denied");
    assertThat(refused.json().at("/error/fields/0/field").asText()).isEqualTo("config.nodeGroups[0].instanceType");
    assertThat(refused.json().at("/error/fields/0/message").asText()).startsWith("sizes (v1): ")
        .contains("fix: use one of [m5.large]");
    assertThat(refused.json().at("/error/verdicts/0/guardrailId").asText()).isEqualTo(id);
    assertThat(admin.jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::name)
        .doesNotContain("big");

    // the typed client reads the same refusal back as the engine's exception
    assertThatThrownBy(() -> admin.jobs().submit(space.id(), KubernetesSpec.named("big").version("1.30")
        .nodeGroup("general", "m5.4xlarge", 1, 2).build()))
        .isInstanceOfSatisfying(GuardrailDeniedException.class, e -> assertThat(e.denied())
            .extracting(GuardrailVerdict::name, GuardrailVerdict::field)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("sizes", "config.nodeGroups[0].instanceType")));

    // a change is a new version; both stay readable
    RawHttp.Reply changed = call("PATCH", "/guardrails/" + id, fixture.adminToken,
        "{\"level\": \"advisory\"}");
    assertThat(changed.status()).as(changed.body()).isEqualTo(200);
    assertThat(changed.json().at("/data/version").asInt()).isEqualTo(2);
    assertThat(call("GET", "/guardrails/" + id + "/versions/1", fixture.adminToken, null).json()
        .at("/data/level").asText()).isEqualTo("deny");
    assertThat(call("PATCH", "/guardrails/" + id, fixture.adminToken, "{}").status()).isEqualTo(400);
    assertThat(call("DELETE", "/guardrails/" + id, fixture.adminToken, null).json().at("/data/deleted")
        .asBoolean()).isTrue();
  }

  @Test
  void aCelExpressionThatDoesNotCompileIsA400NamingLineAndColumn() {
    RawHttp.Reply refused = call("POST", "/guardrails", fixture.adminToken, """
        {"name": "typo", "level": "deny", "rule": {"type": "cel", "expression": "plan.maxCount <= 'ten'"}}""");
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);
    assertThat(refused.json().at("/error/fields/0/field").asText()).isEqualTo("rule.expression");
    assertThat(refused.json().at("/error/fields/0/message").asText())
        .startsWith("line 1, column 15: found no matching overload for '_<=_'");
    RawHttp.Reply unknownType = call("POST", "/guardrails", fixture.adminToken, """
        {"name": "what", "level": "deny", "rule": {"type": "moon_phase"}}""");
    assertThat(unknownType.status()).as(unknownType.body()).isEqualTo(400);
  }

  @Test
  void anApprovalIsDecidedByAnotherPersonHoldingTheGrant() {
    Space space = space("approval");
    RawHttp.Reply made = call("POST", "/guardrails", fixture.adminToken, """
        {"name": "node-cap", "level": "approval", "rule": {"type": "max_count", "max": 3},
         "approverGrant": "guardrail:approve:platform", "scope": {"spaces": ["%s"]}}""".formatted(space.id()));
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    Provisioner developer = fixture.client(fixture.token("acme", "dev@acme.com", "operator"));
    Provisioner approver = fixture.client(fixture.token("acme", "lead@acme.com", "platform-approvers"));

    Job held = developer.jobs().submit(space.id(), KubernetesSpec.named("wide").version("1.30")
        .nodeGroup("general", "m5.large", 1, 6).build());
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThatThrownBy(() -> developer.guardrails().approve(held.id(), "please"))
        .isInstanceOfSatisfying(ForbiddenException.class, e -> assertThat(e.code()).isEqualTo("self_approval"));
    assertThat(approver.guardrails().approve(held.id(), "capacity test").status())
        .isNotEqualTo(JobStatus.AWAITING_APPROVAL);
    assertThat(admin.jobs().await(held.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(admin.guardrails().decisions(held.id())).extracting(GuardrailDecision::outcome)
        .containsExactly(GuardrailDecision.Outcome.APPROVAL_REQUIRED, GuardrailDecision.Outcome.APPROVED);

    Job rejected = developer.jobs().submit(space.id(), KubernetesSpec.named("wider").version("1.30")
        .nodeGroup("general", "m5.large", 1, 9).build());
    RawHttp.Reply no = call("POST", "/provisioning-jobs/" + rejected.id().value() + "/reject",
        fixture.token("acme", "lead2@acme.com", "platform-approvers"),
        "{\"reason\": \"use the shared cluster\"}");
    assertThat(no.status()).as(no.body()).isEqualTo(200);
    assertThat(no.json().at("/data/status").asText()).isEqualTo("cancelled");
    assertThat(call("DELETE", "/guardrails/" + made.json().at("/data/id").asText(), fixture.adminToken, null)
        .status()).isEqualTo(200);
  }

  @Test
  void aComponentsPlanDocumentNamesTheChartVersionTheCatalogPins() {
    Space space = space("components");
    RawHttp.Reply made = call("POST", "/guardrails", fixture.adminToken, """
        {"name": "charts-known", "level": "deny", "scope": {"spaces": ["%s"]},
         "rule": {"type": "cel", "expression": "plan.resources.exists(r, r.type == 'helm_release' && r.version != '')",
                  "message": "'no chart version in ' + plan.kind"}}""".formatted(space.id()));
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    RawHttp.Reply plan = call("POST", "/provisioning-jobs/plan", fixture.adminToken, """
        {"spaceID": "%s", "kind": "component", "config": {"componentID": "ingress-nginx"}}""".formatted(space.id()));
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    assertThat(plan.json().at("/data/verdicts/0/outcome").asText()).as(plan.body()).isEqualTo("passed");
  }
}

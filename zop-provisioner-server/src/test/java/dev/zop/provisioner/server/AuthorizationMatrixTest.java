package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Policies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint × every policy: a custom role holding only that policy is let through where the route needs it
 * and gets 403 everywhere else; system roles get what their definition says; no token is 401.
 */
class AuthorizationMatrixTest {
  static ServerFixture fixture;
  static final Map<String, String> TOKENS = new java.util.HashMap<>();

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    for (String policy : Policies.ALL) {
      String role = "only-" + policy.replace(':', '-');
      // approvals also need the approve grant, checked by the engine; give it to every role so the route's
      // own policy is the one thing that varies
      fixture.access.defineRole("acme", role, Set.of(policy, Policies.REMEDIATION_APPROVE));
      TOKENS.put(policy, fixture.token("acme", role + "@acme.com", role));
    }
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  static String concrete(ApiRoute endpoint) {
    return endpoint.path().replaceAll("\\{stepID}", "00000000-0000-0000-0000-000000000000")
        .replaceAll("\\{[^}]+}", "x_missing");
  }

  static RawHttp.Reply call(ApiRoute endpoint, String token) {
    String path = concrete(endpoint) + (endpoint.path().endsWith("/await") ? "?timeoutMs=0" : "");
    String body = endpoint.method().equals("GET") || endpoint.method().equals("DELETE") ? null : "{}";
    return RawHttp.json(fixture.baseUrl(), endpoint.method(), path, token, body);
  }

  static List<ApiRoute> guarded() {
    return fixture.server.routes().stream().filter(e -> e.policy() != null).toList();
  }

  @Test
  void everyEndpointIsAllowedExactlyForItsPolicy() {
    List<String> wrong = new ArrayList<>();
    Set<String> policiesUsed = new HashSet<>();
    for (ApiRoute endpoint : guarded()) {
      policiesUsed.add(endpoint.policy());
      for (String policy : Policies.ALL) {
        int status = call(endpoint, TOKENS.get(policy)).status();
        boolean granted = policy.equals(endpoint.policy());
        if (granted ? status == 403 || status == 401 : status != 403) {
          wrong.add(endpoint.describe() + " with " + policy + " -> " + status);
        }
      }
    }
    assertThat(wrong).isEmpty();
    assertThat(policiesUsed).as("every category is enforced somewhere")
        .anyMatch(p -> p.startsWith("space:")).anyMatch(p -> p.startsWith("provisioning:"))
        .anyMatch(p -> p.startsWith("service:")).anyMatch(p -> p.startsWith("deployment:"));
  }

  @Test
  void systemRolesHoldTheirPolicies() {
    String viewer = fixture.token("acme", "vera@acme.com", Policies.VIEWER);
    String operator = fixture.token("acme", "otto@acme.com", Policies.OPERATOR);
    List<String> wrong = new ArrayList<>();
    for (ApiRoute endpoint : guarded()) {
      int asViewer = call(endpoint, viewer).status();
      if (endpoint.policy().endsWith(":view") == (asViewer == 403)) {
        wrong.add("viewer " + endpoint.describe() + " -> " + asViewer);
      }
      int asOperator = call(endpoint, operator).status();
      // deciding a workflow's approval (and cancelling it) is for admins or holders of remediation:approve
      boolean approverOnly = endpoint.path().startsWith("/remediation-jobs/")
          && (endpoint.path().contains("/steps") || endpoint.path().endsWith("/cancel"));
      // guardrails are made, changed and tried by admins or holders of guardrail:manage; exemptions granted and
      // revoked by admins or holders of guardrail:exempt
      boolean managerOnly = endpoint.policy().equals(Policies.GUARDRAIL_MANAGE)
          || endpoint.policy().equals(Policies.GUARDRAIL_EXEMPT);
      if ((endpoint.policy().equals("space:delete") || approverOnly || managerOnly) != (asOperator == 403)) {
        wrong.add("operator " + endpoint.describe() + " -> " + asOperator);
      }
      int asAdmin = call(endpoint, fixture.adminToken).status();
      if (asAdmin == 403 || asAdmin == 401) {
        wrong.add("admin " + endpoint.describe() + " -> " + asAdmin);
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void everyNonPublicEndpointNeedsAValidToken() {
    for (ApiRoute endpoint : fixture.server.routes()) {
      RawHttp.Reply none = call(endpoint, null);
      RawHttp.Reply forged = call(endpoint, "zop_forged-token-that-was-never-issued");
      if (endpoint.isPublic()) {
        assertThat(none.status()).as(endpoint.describe()).isEqualTo(200);
      } else {
        assertThat(none.status()).as(endpoint.describe()).isEqualTo(401);
        assertThat(forged.status()).as(endpoint.describe()).isEqualTo(401);
        assertThat(none.json().at("/error/code").asText()).isEqualTo("unauthenticated");
        // RFC 6750: a 401 names the scheme the client should use
        assertThat(none.header("WWW-Authenticate")).as(endpoint.describe()).startsWith("Bearer");
        assertThat(forged.header("WWW-Authenticate")).as(endpoint.describe()).contains("invalid_token");
      }
    }
  }

  @Test
  void aRevokedTokenStopsWorking() {
    AccessStore.IssuedToken issued = fixture.access.createToken("acme", "temp@acme.com", Set.of("viewer"), null);
    assertThat(RawHttp.json(fixture.baseUrl(), "GET", "/spaces", issued.token(), null).status()).isEqualTo(200);
    fixture.access.revoke(issued.id());
    assertThat(RawHttp.json(fixture.baseUrl(), "GET", "/spaces", issued.token(), null).status()).isEqualTo(401);
    assertThat(issued.toString()).doesNotContain(issued.token());
  }

  @Test
  void mutatingCallsAreAuditedUnderProvisioningWithTheirOutcome() {
    String viewer = fixture.token("acme", "auditee@acme.com", Policies.VIEWER);
    RawHttp.json(fixture.baseUrl(), "POST", "/cloud-accounts", viewer, "{\"provider\":\"sim\",\"name\":\"x\"}");
    RawHttp.json(fixture.baseUrl(), "POST", "/cloud-accounts", fixture.adminToken,
        "{\"provider\":\"sim\",\"name\":\"audited\"}");
    List<AccessStore.AuditRecord> log = fixture.access.auditLog("acme", 1000);
    assertThat(log).filteredOn(r -> r.actor().equals("auditee@acme.com"))
        .extracting(AccessStore.AuditRecord::action, AccessStore.AuditRecord::status, AccessStore.AuditRecord::scope)
        .contains(org.assertj.core.groups.Tuple.tuple("POST /cloud-accounts", 403, "provisioning"));
    assertThat(log).filteredOn(r -> r.actor().equals("alice@acme.com") && r.status() == 201)
        .anySatisfy(r -> assertThat(r.resourceId()).startsWith("ca_"));
    assertThat(fixture.access.auditLog("globex", 1000)).isEmpty();
  }

  @Test
  void aPlanChangesNothingAndIsNotAuditedWhereASubmitIs() {
    RawHttp.Reply plan = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs/plan", fixture.adminToken, "{}");
    RawHttp.Reply submit = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs", fixture.adminToken, "{}");
    assertThat(plan.status()).isBetween(400, 499);
    assertThat(submit.status()).isBetween(400, 499);
    List<AccessStore.AuditRecord> log = fixture.access.auditLog("acme", 1000);
    assertThat(log).noneMatch(r -> r.requestId().equals(plan.header("X-Request-Id")));
    assertThat(log).filteredOn(r -> r.requestId().equals(submit.header("X-Request-Id"))).singleElement()
        .satisfies(r -> assertThat(r.action()).isEqualTo("POST /provisioning-jobs"));
    assertThat(fixture.server.routes()).filteredOn(ApiRoute::mutating).extracting(ApiRoute::describe)
        .doesNotContain("POST /provisioning-jobs/plan").contains("POST /provisioning-jobs");
  }
}

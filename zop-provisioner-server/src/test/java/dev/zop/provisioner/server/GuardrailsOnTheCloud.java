package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.SpaceId;
import java.util.ArrayList;
import java.util.List;

/**
 * A budget, an allowed-size and a required-tag guardrail on a cloud's space, over REST, against the provisioning
 * document's kubernetes body: the plan answers each, the submit is refused naming the budget and the size with
 * nothing written, and once the guardrails allow the provider's size and a large budget, a tagged plan passes them
 * all. The guardrails are deleted at the end, so the class's other tests meet none.
 */
final class GuardrailsOnTheCloud {
  private GuardrailsOnTheCloud() {}

  /**
   * @param body the document's kubernetes body for the space, its invented ids replaced
   * @param size the provider's name of the size the document's body asks for (its {@code m5.large} on this cloud)
   */
  static void check(String base, String token, SpaceId space, String body, String size) {
    List<String> made = new ArrayList<>();
    try {
      made.add(create(base, token, """
          {"name": "cloud-budget", "level": "deny", "rule": {"type": "space_budget", "monthlyMax": 1},
           "scope": {"spaces": ["%s"]}}""".formatted(space)));
      made.add(create(base, token, """
          {"name": "cloud-sizes", "level": "deny", "rule": {"type": "allowed_sizes", "sizes": ["no-such-size"]},
           "scope": {"spaces": ["%s"]}}""".formatted(space)));
      // every field a guardrail may read has a value on this cloud's plan (the sim's test reads them for every kind)
      made.add(create(base, token, """
          {"name": "cloud-populated", "level": "deny", "scope": {"spaces": ["%s"]}, "rule": {"type": "cel",
           "expression": "%s", "message": "'a field of the plan document is empty'"}}"""
          .formatted(space, POPULATED)));
      made.add(create(base, token, """
          {"name": "cloud-tags", "level": "advisory",
           "rule": {"type": "required_tags", "tags": {"owner": "team-[a-z]+"}}, "scope": {"spaces": ["%s"]}}"""
          .formatted(space)));

      JsonNode verdicts = ok(RawHttp.json(base, "POST", "/provisioning-jobs/plan", token, body)).at("/data/verdicts");
      assertThat(verdicts.size()).isEqualTo(4);
      // by name: cloud-budget, cloud-populated, cloud-sizes, cloud-tags
      JsonNode budget = verdicts.get(0);
      JsonNode populated = verdicts.get(1);
      JsonNode sizes = verdicts.get(2);
      JsonNode tags = verdicts.get(3);
      assertThat(budget.get("name").asText()).isEqualTo("cloud-budget");
      assertThat(budget.get("outcome").asText()).isEqualTo("denied");
      assertThat(budget.get("message").asText()).contains("over its budget of $1.00");
      assertThat(populated.get("name").asText()).isEqualTo("cloud-populated");
      assertThat(populated.get("outcome").asText()).as(populated.toString()).isEqualTo("passed");
      assertThat(sizes.get("outcome").asText()).isEqualTo("denied");
      assertThat(sizes.get("field").asText()).isEqualTo("config.nodeGroups[0].instanceType");
      assertThat(sizes.get("message").asText()).contains("'" + size + "'");
      assertThat(tags.get("outcome").asText()).isEqualTo("warned");
      assertThat(tags.get("field").asText()).isEqualTo("tags.owner");

      RawHttp.Reply refused = RawHttp.json(base, "POST", "/provisioning-jobs", token, body);
      assertThat(refused.status()).as(refused.body()).isEqualTo(422);
      assertThat(refused.json().at("/error/code").asText()).isEqualTo("guardrail_denied");
      List<String> fields = new ArrayList<>();
      refused.json().at("/error/fields").forEach(f -> fields.add(f.get("field").asText()));
      assertThat(fields).containsExactly("plan", "config.nodeGroups[0].instanceType");
      JsonNode listed = ok(RawHttp.json(base, "GET", "/provisioning-jobs?spaceID=" + space + "&limit=500", token,
          null)).at("/data");
      listed.forEach(job -> assertThat(job.get("name").asText()).isNotEqualTo("checkout-cluster-refused"));

      ok(RawHttp.json(base, "PATCH", "/guardrails/" + made.get(0), token,
          "{\"rule\": {\"type\": \"space_budget\", \"monthlyMax\": 1000000}}"));
      ok(RawHttp.json(base, "PATCH", "/guardrails/" + made.get(1), token,
          "{\"rule\": {\"type\": \"allowed_sizes\", \"sizes\": [\"" + size + "\"]}}"));
      String tagged = body.replaceFirst("\\{", "{ \"tags\": {\"owner\": \"team-payments\"},");
      JsonNode passed = ok(RawHttp.json(base, "POST", "/provisioning-jobs/plan", token, tagged)).at("/data");
      List<String> outcomes = new ArrayList<>();
      passed.get("verdicts").forEach(v -> outcomes.add(v.get("name").asText() + ":" + v.get("outcome").asText()
          + ":v" + v.get("version").asInt()));
      assertThat(outcomes).as(passed.toString()).containsExactly("cloud-budget:passed:v2",
          "cloud-populated:passed:v1", "cloud-sizes:passed:v2", "cloud-tags:passed:v1");
    } finally {
      for (String id : made) {
        RawHttp.json(base, "DELETE", "/guardrails/" + id, token, null);
      }
    }
  }

  /** Every field of a cluster's plan document has a value: the strings set, a size and a version, the ranges right. */
  private static final String POPULATED = "plan.kind == 'kubernetes' && plan.provider != '' && plan.region != ''"
      + " && plan.space != '' && plan.name != '' && size(plan.config) > 0 && size(plan.resources) > 1"
      + " && plan.resources.all(r, r.type != '' && r.countMax >= r.countMin"
      + " && (r.type != 'node_group' || r.size != '') && (r.type != 'kubernetes_cluster' || r.version != ''))"
      + " && plan.cost.after > 0.0 && plan.cost.afterAtMax >= plan.cost.after && plan.cost.complete"
      + " && plan.caller.actor != '' && plan.maxCount > 0";

  private static String create(String base, String token, String body) {
    RawHttp.Reply reply = RawHttp.json(base, "POST", "/guardrails", token, body);
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
    return reply.json().at("/data/id").asText();
  }

  private static JsonNode ok(RawHttp.Reply reply) {
    assertThat(reply.status()).as(reply.body()).isBetween(200, 201);
    return reply.json();
  }
}

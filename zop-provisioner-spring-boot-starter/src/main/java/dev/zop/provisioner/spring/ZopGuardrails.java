package dev.zop.provisioner.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailScope;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.SpaceId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guardrails an application declares, as {@code zop.guardrails.<name>} properties or {@link GuardrailRequest}
 * beans, made in {@code zop.guardrails-organisation} when the context starts: each one missing is created, each one
 * that differs gets its next version, the same one is left as it is. Guardrails made through the API and not
 * declared here are left alone. A declaration the engine refuses stops the start, naming the property.
 */
public final class ZopGuardrails {
  private static final Logger LOG = LoggerFactory.getLogger(ZopGuardrails.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> applied;

  ZopGuardrails(Provisioner provisioner, String organisation, Map<String, ZopGuardrailProperties> properties,
      List<GuardrailRequest> beans) {
    Map<String, GuardrailRequest> declared = new LinkedHashMap<>();
    properties.forEach((name, p) -> declared.put(name, request("zop.guardrails." + name, name, p)));
    beans.forEach(b -> declared.put(b.name(), b));
    this.applied = List.copyOf(declared.keySet());
    if (declared.isEmpty()) {
      return;
    }
    Provisioner admin;
    try {
      admin = provisioner.as(new Principal(organisation, "zop.guardrails", Set.of(Policies.ADMIN)));
    } catch (dev.zop.provisioner.ForbiddenException remote) {
      admin = provisioner; // a client of a service acts as its token: its organisation, its grants
    }
    for (Map.Entry<String, GuardrailRequest> each : declared.entrySet()) {
      apply(admin, each.getKey(), each.getValue());
    }
  }

  /** The names of the guardrails this context declared. */
  public List<String> applied() {
    return applied;
  }

  private static void apply(Provisioner admin, String name, GuardrailRequest wanted) {
    try {
      Guardrail existing = find(admin, name);
      if (existing == null) {
        try {
          Guardrail made = admin.guardrails().create(wanted);
          LOG.info("guardrail {} made (v{})", name, made.version());
          return;
        } catch (ConflictException raced) { // another instance made it first: compare with what it made
          existing = Objects.requireNonNull(find(admin, name), "guardrail " + name);
        }
      }
      if (!same(existing, wanted)) {
        Guardrail next = admin.guardrails().update(existing.id(), wanted);
        LOG.info("guardrail {} changed to v{}", name, next.version());
      }
    } catch (ProvisionerException e) {
      throw new IllegalStateException("zop.guardrails." + name + ": " + e.getMessage(), e);
    }
  }

  private static Guardrail find(Provisioner admin, String name) {
    return admin.guardrails().list().stream().filter(g -> g.name().equals(name)).findFirst().orElse(null);
  }

  private static boolean same(Guardrail g, GuardrailRequest r) {
    return g.level() == r.level() && g.rule().equals(r.rule())
        && g.scope().equals(r.scope() == null ? GuardrailScope.everywhere() : r.scope())
        && g.approverGrant().equals(r.approverGrant() == null ? Policies.GUARDRAIL_APPROVE : r.approverGrant())
        && Objects.equals(g.description(), r.description()) && g.enabled() == (r.enabled() == null || r.enabled());
  }

  private static GuardrailRequest request(String prefix, String name, ZopGuardrailProperties p) {
    if (p.getRule().getType() == null) {
      throw new IllegalStateException(prefix + ".rule.type is required: space_budget, cost_increase,"
          + " allowed_sizes, allowed_regions, allowed_versions, max_count, required_tags, allowed_kinds or cel");
    }
    GuardrailRule rule;
    try {
      rule = JSON.convertValue(p.getRule().asBody(), GuardrailRule.class);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(prefix + ".rule: " + e.getMessage(), e);
    }
    GuardrailScope scope = new GuardrailScope(p.getScope().getSpaces().stream().map(SpaceId::of).toList(),
        p.getScope().getProviders(), p.getScope().getKinds().stream().map(JobKind::fromWire).toList());
    return new GuardrailRequest(name, p.getLevel(), rule, scope, p.getApproverGrant(), p.getDescription(),
        p.isEnabled());
  }
}

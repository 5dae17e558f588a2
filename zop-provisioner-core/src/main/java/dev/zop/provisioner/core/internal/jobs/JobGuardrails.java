package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDeniedException;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.guardrails.PlanDocument;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ResourceDriver;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Guardrails where the engine decides a change: the plan's document built from what the change makes and what it
 * costs (at its size and at its maximum, and what the space's other jobs cost at theirs), answered by every
 * guardrail that applies. No guardrail applying costs one read and nothing else.
 */
final class JobGuardrails {
  private final GuardrailService guardrails;
  private final BiFunction<Principal, JobQuery, Page<Job>> listJobs;
  private final DriverFor drivers;
  /** A succeeded job's monthly cost at its maximum size, by its id and last change: its spec is the same until then. */
  private final Cache<String, Priced> atMaxByJob = Caffeine.newBuilder().maximumSize(100_000).build();

  /** The driver of {@code kind} in {@code space}, for pricing the space's other jobs. */
  interface DriverFor {
    ResourceDriver<ResourceSpec> driver(Principal principal, Space space, JobKind kind);
  }

  private record Priced(BigDecimal monthly, boolean complete) {}

  JobGuardrails(GuardrailService guardrails, BiFunction<Principal, JobQuery, Page<Job>> listJobs, DriverFor drivers) {
    this.guardrails = guardrails;
    this.listJobs = listJobs;
    this.drivers = drivers;
  }

  GuardrailService service() {
    return guardrails;
  }

  /**
   * The guardrails' answer to a change, or null when none applies.
   *
   * @param before what the job's resources cost now (empty for a new job)
   * @param self the job changed, left out of the space's other jobs; null for a new one
   */
  GuardrailService.Answer answer(Principal principal, String action, Space space, ResourceDriver<ResourceSpec> driver,
      ResourceSpec spec, String name, Map<String, String> tags, List<CostComponent> before, JobId self) {
    List<Guardrail> applicable = guardrails.applicable(principal.orgId(), space.id(), space.provider(), spec.kind());
    if (applicable.isEmpty()) {
      return null;
    }
    List<CostComponent> after = driver.price(spec, space.region());
    ResourceSpec largest = JobService.atMaximum(spec);
    List<CostComponent> atMax = largest == spec ? after : driver.price(largest, space.region());
    boolean complete = priced(before) && priced(after) && priced(atMax);
    BigDecimal others = BigDecimal.ZERO;
    if (applicable.stream().anyMatch(g -> g.rule() instanceof GuardrailRule.SpaceBudget
        || g.rule() instanceof GuardrailRule.Cel)) {
      Priced space0 = othersAtMax(principal, space, self);
      others = space0.monthly();
      complete &= space0.complete();
    }
    List<PlanDocument.Resource> resources = PlanDocument.resourcesOf(spec);
    PlanDocument plan = new PlanDocument(action, spec.kind().wireName(), space.provider(), space.region(),
        space.id().value(), name, config(spec), tags == null ? Map.of() : tags, resources,
        PlanDocument.Cost.of(total(before), total(after), total(atMax), others, complete),
        new PlanDocument.Caller(principal.actor(), principal.roles().stream().sorted().toList()),
        PlanDocument.maxCount(resources));
    return guardrails.answer(applicable, plan);
  }

  /**
   * Refuses the change when the answer denies it, recording the refusal (the only row it writes); else returns the
   * answer for the change to record with its own rows.
   */
  GuardrailService.Answer enforce(Principal principal, GuardrailService.Answer answer, Space space) {
    if (answer != null && answer.denied()) {
      guardrails.record(principal.orgId(), answer.decision(null, space.id(), principal), answer.planJson());
      throw new GuardrailDeniedException(answer.verdicts());
    }
    return answer;
  }

  private Priced othersAtMax(Principal principal, Space space, JobId self) {
    BigDecimal total = BigDecimal.ZERO;
    boolean complete = true;
    Map<JobKind, ResourceDriver<ResourceSpec>> byKind = new LinkedHashMap<>();
    JobQuery query = JobQuery.inSpace(space.id()).withStatus(JobStatus.SUCCEEDED).limit(JobQuery.MAX_LIMIT);
    for (Page<Job> page = listJobs.apply(principal, query); ;
        page = listJobs.apply(principal, query.after(page.nextCursor()))) {
      for (Job job : page.items()) {
        // a component runs in a cluster the space's other jobs already pay for: it has no cloud price of its own
        if (job.spec() == null || job.kind() == JobKind.COMPONENT || job.id().equals(self)) {
          continue;
        }
        Priced priced = atMaxByJob.get(job.id().value() + "@" + job.updatedAt(), key -> {
          ResourceDriver<ResourceSpec> driver = byKind.computeIfAbsent(job.kind(),
              kind -> drivers.driver(principal, space, kind));
          List<CostComponent> costs = driver.price(JobService.atMaximum(job.spec()), space.region());
          return new Priced(total(costs), priced(costs));
        });
        total = total.add(priced.monthly());
        complete &= priced.complete();
      }
      if (page.nextCursor() == null) {
        return new Priced(total, complete);
      }
    }
  }

  /** The spec as the REST body spells it, in the plain values CEL reads: maps, lists, strings, longs, doubles. */
  private static Map<String, Object> config(ResourceSpec spec) {
    Object value = plain(Json.MAPPER.valueToTree(spec));
    @SuppressWarnings("unchecked")
    Map<String, Object> map = value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    return map;
  }

  private static Object plain(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> {
        if (!e.getValue().isNull()) {
          out.put(e.getKey(), plain(e.getValue()));
        }
      });
      return out;
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>();
      node.forEach(item -> out.add(plain(item)));
      return out;
    }
    if (node.isIntegralNumber()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.asText();
  }

  private static boolean priced(List<CostComponent> costs) {
    return costs.stream().allMatch(CostComponent::priceKnown);
  }

  private static BigDecimal total(List<CostComponent> costs) {
    return costs.stream().filter(CostComponent::priceKnown).map(CostComponent::monthly)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }
}

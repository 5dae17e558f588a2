package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.GuardrailLevel;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailScope;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What guardrails add to a plan, on the simulated cloud (a test double: its plans cost the engine's work, no
 * cloud's answer time). Two figures, each the latency of {@code jobs().plan(...)} over many plans:
 * <ul>
 *   <li>{@code bench.guardrails} (default 100) guardrails of every kind, CEL among them, all applying, against the
 *       same plan with none: the difference is what answering them costs;</li>
 *   <li>one space budget over a space of {@code bench.budgetJobs} (default 10,000) succeeded jobs, each priced at
 *       its maximum size, against the same space with no guardrail.</li>
 * </ul>
 * On H2 and, unless {@code -Dbench.postgres=false}, on PostgreSQL. Prints JSON lines of p50, p95 and p99 in
 * milliseconds. Run with
 * {@code ./mvnw -pl benchmarks exec:exec -Dbench.main=dev.zop.provisioner.benchmarks.GuardrailBenchmark}.
 */
public final class GuardrailBenchmark {
  private static final int WARMUP = 200;
  private static final int MEASURED = 1000;
  private static final Duration PATIENCE = Duration.ofMinutes(20);

  public static void main(String[] args) throws Exception {
    int guardrails = Integer.getInteger("bench.guardrails", 100);
    int budgetJobs = Integer.getInteger("bench.budgetJobs", 10_000);
    boolean postgres = Boolean.parseBoolean(System.getProperty("bench.postgres", "true"));
    run("h2", guardrails, budgetJobs, TestEngines.h2(Files.createTempDirectory("zop-guardrail-bench"),
        SimCloud.create()));
    if (postgres) {
      try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
        run("postgres", guardrails, budgetJobs, TestEngines.jdbc(database.url(), database.user(),
            database.password(), SimCloud.create()));
      }
    }
  }

  private static void run(String store, int guardrails, int budgetJobs, EmbeddedProvisionerBuilder builder) {
    try (EmbeddedProvisioner zop = builder.build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "guardrail-bench"));
      Space rules = zop.spaces().create(SpaceRequest.of("sim", "rules", account.id()).region("sim-east-1"));
      Space budget = zop.spaces().create(SpaceRequest.of("sim", "budget", account.id()).region("sim-east-1"));
      KubernetesSpec cluster = KubernetesSpec.named("bench").version("1.30")
          .nodeGroup("general", "m5.large", 2, 5).nodeGroup("batch", "c5.xlarge", 0, 10).build();
      SubmitOptions tagged = SubmitOptions.none().withTags(Map.of("owner", "team-bench", "cost-center", "cc-1"));

      double[] none = plans(zop, rules, cluster, tagged, 0);
      for (int i = 0; i < guardrails; i++) {
        zop.guardrails().create(GuardrailRequest.of("rule-" + i, GuardrailLevel.ADVISORY, rule(i))
            .withScope(new GuardrailScope(List.of(rules.id()), List.of(), List.of())));
      }
      double[] many = plans(zop, rules, cluster, tagged, guardrails);
      print(store, "plan_without_guardrails", none, Map.of());
      print(store, "plan_with_guardrails", many, Map.of("guardrails", guardrails));
      print(store, "guardrails_added", difference(many, none), Map.of("guardrails", guardrails));

      List<Job> made = new ArrayList<>();
      for (int i = 0; i < budgetJobs; i++) {
        made.add(zop.jobs().submit(budget.id(), RegistrySpec.named("bench/app-" + i)));
        if (made.size() == 500 || i == budgetJobs - 1) {
          awaitAll(zop, made);
          made.clear();
        }
      }
      double[] unguarded = plans(zop, budget, cluster, tagged, 0);
      zop.guardrails().create(GuardrailRequest.of("space-budget", GuardrailLevel.APPROVAL,
          new GuardrailRule.SpaceBudget(new BigDecimal("1000000")))
          .withScope(new GuardrailScope(List.of(budget.id()), List.of(), List.of())));
      double[] budgeted = plans(zop, budget, cluster, tagged, 1);
      print(store, "plan_in_space_without_budget", unguarded, Map.of("jobs", budgetJobs));
      print(store, "plan_in_space_with_budget", budgeted, Map.of("jobs", budgetJobs));
      print(store, "space_budget_added", difference(budgeted, unguarded), Map.of("jobs", budgetJobs));
    }
  }

  /** One rule of each kind in turn, each passing the benchmark's plan, so every one is evaluated in full. */
  private static GuardrailRule rule(int i) {
    return switch (i % 9) {
      case 0 -> new GuardrailRule.AllowedSizes(List.of("m5.large", "c5.xlarge", "t3.medium"));
      case 1 -> new GuardrailRule.AllowedRegions(List.of("sim-east-1", "sim-west-2"));
      case 2 -> new GuardrailRule.AllowedVersions(List.of("1.29", "1.30"));
      case 3 -> new GuardrailRule.MaxCount(20);
      case 4 -> new GuardrailRule.RequiredTags(new LinkedHashMap<>(Map.of("owner", "team-[a-z]+",
          "cost-center", "cc-[0-9]+")));
      case 5 -> new GuardrailRule.AllowedKinds(List.of(JobKind.KUBERNETES, JobKind.DATASTORE));
      case 6 -> new GuardrailRule.CostIncrease(new BigDecimal("100000"), null);
      case 7 -> new GuardrailRule.Cel("plan.resources.all(r, r.countMax <= 20) && plan.cost.afterAtMax < 100000.0",
          "'too large: ' + string(plan.maxCount)");
      default -> new GuardrailRule.Cel("plan.tags.exists(k, k == 'owner') && plan.region.startsWith('sim-')", null);
    };
  }

  /** The latency of each measured plan, in milliseconds, after a warm-up. */
  private static double[] plans(EmbeddedProvisioner zop, Space space, KubernetesSpec spec, SubmitOptions options,
      int expectedVerdicts) {
    for (int i = 0; i < WARMUP; i++) {
      zop.jobs().plan(space.id(), spec, options);
    }
    double[] millis = new double[MEASURED];
    for (int i = 0; i < MEASURED; i++) {
      long started = System.nanoTime();
      Plan plan = zop.jobs().plan(space.id(), spec, options);
      millis[i] = (System.nanoTime() - started) / 1e6;
      if (plan.verdicts().size() != expectedVerdicts) {
        throw new IllegalStateException("expected " + expectedVerdicts + " verdicts, got " + plan.verdicts());
      }
    }
    Arrays.sort(millis);
    return millis;
  }

  /** Percentile by percentile, what the second run took more than the first. */
  private static double[] difference(double[] with, double[] without) {
    double[] out = new double[with.length];
    for (int i = 0; i < with.length; i++) {
      out[i] = with[i] - without[i];
    }
    return out;
  }

  private static void awaitAll(EmbeddedProvisioner zop, List<Job> jobs) {
    for (Job job : jobs) {
      Job done = zop.jobs().await(job.id(), PATIENCE);
      if (done.status() != JobStatus.SUCCEEDED) {
        throw new IllegalStateException(job.id() + " ended " + done.status() + ": " + done.lastFailure());
      }
    }
  }

  private static void print(String store, String what, double[] sorted, Map<String, Object> extra) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "{\"bench\":\"guardrails\",\"store\":\"%s\",\"measure\":\"%s\",\"plans\":%d,\"p50_ms\":%.3f,\"p95_ms\":%.3f,"
            + "\"p99_ms\":%.3f", store, what, sorted.length, at(sorted, 0.50), at(sorted, 0.95), at(sorted, 0.99)));
    extra.forEach((k, v) -> line.append(",\"").append(k).append("\":").append(v));
    System.out.println(line.append('}'));
  }

  private static double at(double[] sorted, double quantile) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)];
  }
}

package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spi.Outputs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Two engines on one PostgreSQL database share 500 jobs; no step runs twice and both do work. */
class TwoEnginesOnPostgresTest {
  private static final int JOBS = 500;

  @Test
  void twoEnginesShareFiveHundredJobsAndNoStepRunsTwice() throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    AtomicInteger stepsByA = new AtomicInteger();
    AtomicInteger stepsByB = new AtomicInteger();
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        EmbeddedProvisioner a = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
            .provider(new Counting(new SimProvider(cloud), stepsByA)).instanceId("a").workerThreads(8).build();
        EmbeddedProvisioner b = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
            .provider(new Counting(new SimProvider(cloud), stepsByB)).instanceId("b").workerThreads(8).build()) {
      Space space = EngineBehaviour.newSpace(a, "shared");
      List<Job> submitted = new ArrayList<>();
      for (int i = 0; i < JOBS; i++) {
        submitted.add((i % 2 == 0 ? a : b).jobs().submit(space.id(), EngineBehaviour.cluster("c" + i)));
      }
      for (Job job : submitted) {
        assertThat(a.jobs().await(job.id(), Duration.ofMinutes(2)).status()).isEqualTo(JobStatus.SUCCEEDED);
      }

      Map<String, Integer> runs = cloud.stepRuns();
      assertThat(runs).hasSize(JOBS * 5);
      assertThat(runs.values()).allMatch(n -> n == 1);
      assertThat(cloud.maxCreateCount()).isEqualTo(1);
      assertThat(cloud.resources()).hasSize(JOBS * 3);
      assertThat(stepsByA.get() + stepsByB.get()).isEqualTo(JOBS * 5);
      assertThat(stepsByA.get()).as("steps run by engine a").isGreaterThan(JOBS / 10);
      assertThat(stepsByB.get()).as("steps run by engine b").isGreaterThan(JOBS / 10);

      int listed = 0;
      JobQuery query = JobQuery.inSpace(space.id()).limit(JobQuery.MAX_LIMIT);
      Page<Job> page;
      do {
        page = b.jobs().list(query.withStatus(JobStatus.SUCCEEDED));
        listed += page.items().size();
        query = query.after(page.nextCursor());
      } while (page.hasMore());
      assertThat(listed).isEqualTo(JOBS);
    }
  }

  /** Wraps a provider to count the steps one engine ran. */
  private record Counting(CloudProvider delegate, AtomicInteger counter) implements CloudProvider {
    @Override
    public ProviderMetadata metadata() {
      return delegate.metadata();
    }

    @Override
    public ProviderSession open(CloudAccount account, String region) {
      ProviderSession session = delegate.open(account, region);
      return new ProviderSession() {
        @Override
        public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
          @SuppressWarnings("unchecked")
          ResourceDriver<ResourceSpec> inner = (ResourceDriver<ResourceSpec>) session.driver(kind);
          return new CountingDriver(inner, counter);
        }

        @Override
        public Failure classify(Throwable error) {
          return session.classify(error);
        }

        @Override
        public void close() {
          session.close();
        }
      };
    }
  }

  private record CountingDriver(ResourceDriver<ResourceSpec> inner, AtomicInteger counter)
      implements ResourceDriver<ResourceSpec> {
    @Override
    public Class<ResourceSpec> specType() {
      return inner.specType();
    }

    @Override
    public List<FieldError> validate(ResourceSpec spec) {
      return inner.validate(spec);
    }

    @Override
    public List<Step> create(ResourceSpec spec) {
      return inner.create(spec).stream().map(this::counted).toList();
    }

    @Override
    public List<Step> teardown(ResourceSpec spec, Outputs recorded) {
      return inner.teardown(spec, recorded).stream().map(this::counted).toList();
    }

    @Override
    public List<CostComponent> price(ResourceSpec spec, String region) {
      return inner.price(spec, region);
    }

    private Step counted(Step step) {
      return new Step() {
        @Override
        public String name() {
          return step.name();
        }

        @Override
        public List<String> permissions() {
          return step.permissions();
        }

        @Override
        public StepResult run(dev.zop.provisioner.spi.StepContext context) throws Exception {
          counter.incrementAndGet();
          return step.run(context);
        }

        @Override
        public java.util.Map<String, String> intent(dev.zop.provisioner.spi.StepContext context) {
          return step.intent(context);
        }
      };
    }
  }
}

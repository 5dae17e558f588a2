package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.Test;

/**
 * How far a REST submit travels to the cloud call it causes, counted in our own classes on the call stacks where
 * it reaches the provider: the request's thread from the HTTP route to the driver making the job's steps, and a
 * worker's from its claim to the steps made again and to the step that calls the cloud. A class counts once however
 * many of its methods, inner classes and lambdas are on a stack; the provider's own classes (the simulated cloud's
 * driver and its cloud) and this test's are left out, as the path is the engine's and the service's. Classes called
 * and returned from on the way (the space checks, the group commit) are not on these stacks and not counted.
 */
class SubmitPathTest {
  private static final Set<String> SUBMIT = new ConcurrentSkipListSet<>();
  private static final Set<String> WORKER = new ConcurrentSkipListSet<>();
  private static final String DISPATCHER = "dev.zop.provisioner.server.internal.Dispatcher";

  @Test
  void aRestSubmitReachesTheCloudCallWithAtMostFifteenOfOurClassesOnItsStacks() throws Exception {
    ServerFixture fixture = ServerFixture.withEngine(b -> b.provider(new Recording(new SimProvider(
        dev.zop.provisioner.sim.SimCloud.create()))));
    try (Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "path"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "path", account.id()).region("sim-east-1"));
      SUBMIT.clear();
      WORKER.clear();
      RawHttp.Reply submitted = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs", fixture.adminToken,
          "{\"spaceID\":\"" + space.id().value() + "\",\"kind\":\"registry\",\"config\":{\"name\":\"path/app\"}}");
      assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
      JobId id = JobId.of(submitted.json().at("/data/id").asText());
      assertThat(client.jobs().await(id, Duration.ofSeconds(30)).status()).isEqualTo(JobStatus.SUCCEEDED);
    } finally {
      fixture.close();
    }
    Set<String> all = new TreeSet<>(SUBMIT);
    all.addAll(WORKER);
    System.out.println("submit path: " + SUBMIT.size() + " classes " + SUBMIT + "; worker path: " + WORKER.size()
        + " classes " + WORKER + "; together " + all.size());
    // both sides were seen: a count of nothing would pass for nothing
    assertThat(SUBMIT).contains(DISPATCHER);
    assertThat(WORKER).contains("dev.zop.provisioner.core.internal.jobs.StepRunner");
    assertThat(all).as("our classes between a REST submit and its cloud call").hasSizeLessThanOrEqualTo(15);
  }

  /** Our classes on this thread's stack, by their top-level class. */
  private static Set<String> ours() {
    Set<String> classes = new TreeSet<>();
    for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
      String name = frame.getClassName();
      int inner = name.indexOf('$');
      String top = inner < 0 ? name : name.substring(0, inner);
      if (top.startsWith("dev.zop.provisioner.") && !top.startsWith("dev.zop.provisioner.sim.")
          && !top.equals(SubmitPathTest.class.getName())) {
        classes.add(top);
      }
    }
    return classes;
  }

  /** The simulated cloud, noting the stack where the job's steps are made and where a step calls the cloud. */
  private static final class Recording implements CloudProvider {
    private final CloudProvider sim;

    Recording(CloudProvider sim) {
      this.sim = sim;
    }

    @Override
    public ProviderMetadata metadata() {
      return sim.metadata();
    }

    @Override
    public ProviderSession open(CloudAccount account, String region) {
      ProviderSession session = sim.open(account, region);
      return new ProviderSession() {
        @Override
        @SuppressWarnings("unchecked")
        public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
          ResourceDriver<ResourceSpec> driver = (ResourceDriver<ResourceSpec>) session.driver(kind);
          return kind == JobKind.REGISTRY ? new RecordingDriver(driver) : driver;
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

  private record RecordingDriver(ResourceDriver<ResourceSpec> driver) implements ResourceDriver<ResourceSpec> {
    @Override
    public Class<ResourceSpec> specType() {
      return driver.specType();
    }

    @Override
    public Defaulted<ResourceSpec> withDefaults(ResourceSpec spec) {
      return driver.withDefaults(spec);
    }

    @Override
    public List<FieldError> validate(ResourceSpec spec) {
      return driver.validate(spec);
    }

    @Override
    public List<Step> create(ResourceSpec spec) {
      // asked by the request (the submit writes the job's steps) and by the worker (the run makes them again)
      Set<String> here = ours();
      (here.contains(DISPATCHER) ? SUBMIT : WORKER).addAll(here);
      return driver.create(spec).stream().map(RecordingStep::new).map(Step.class::cast).toList();
    }

    @Override
    public List<Step> teardown(ResourceSpec spec, Outputs recorded) {
      return driver.teardown(spec, recorded);
    }

    @Override
    public List<CostComponent> price(ResourceSpec spec, String region) {
      return driver.price(spec, region);
    }
  }

  private record RecordingStep(Step step) implements Step {
    @Override
    public String name() {
      return step.name();
    }

    @Override
    public List<String> permissions() {
      return step.permissions();
    }

    @Override
    public StepResult run(StepContext context) throws Exception {
      WORKER.addAll(ours());
      return step.run(context);
    }
  }
}

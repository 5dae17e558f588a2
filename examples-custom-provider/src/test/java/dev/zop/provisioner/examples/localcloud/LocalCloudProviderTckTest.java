package dev.zop.provisioner.examples.localcloud;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import dev.zop.provisioner.testkit.tck.ProviderTck;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example provider keeps the same contract as the AWS and simulated providers. */
class LocalCloudProviderTckTest extends ProviderTck {
  @TempDir
  Path root;

  private final LocalCloudProvider provider = new LocalCloudProvider();
  private final HaltSwitch halts = new HaltSwitch();

  private LocalCloud cloud() {
    return ((LocalCloudProvider.Session) session).cloud();
  }

  @Override
  protected CloudProvider provider() {
    return provider;
  }

  @Override
  protected CloudAccount account() {
    return new CloudAccount(CloudAccountId.of("ca_local"), "local", "tck", null, Map.of("root", root.toString()),
        Instant.now());
  }

  @Override
  protected String region() {
    return "local";
  }

  @Override
  protected List<ResourceSpec> specs(String suffix) {
    return List.of(RegistrySpec.named("team/" + suffix));
  }

  @Override
  protected int callMark() {
    return cloud().calls().size();
  }

  @Override
  protected List<String> operationsSince(int mark) {
    List<String> calls = cloud().calls();
    return calls.subList(mark, calls.size());
  }

  @Override
  protected List<String> inventory() {
    return cloud().list();
  }

  @Override
  protected HaltSwitch halts() {
    cloud().onChange(halts::accepted);
    return halts;
  }

  @Override
  protected Throwable permissionDenied() {
    return new CloudCallException(RegistryDriver.CREATE, new LocalCloud.LocalCloudException(403, "denied"));
  }

  @Override
  protected Throwable throttled() {
    return new CloudCallException(RegistryDriver.CREATE, new LocalCloud.LocalCloudException(429, "slow down"));
  }

  @Test
  void aRegistryAnotherJobMadeIsRefusedNotAdopted() throws Exception {
    cloud().create("team_taken", "job_someoneelse");
    @SuppressWarnings("unchecked")
    var driver = (dev.zop.provisioner.spi.ResourceDriver<RegistrySpec>) session.driver(dev.zop.provisioner.JobKind.REGISTRY);
    var result = driver.create(RegistrySpec.named("team/taken")).get(0).run(new MinimalContext());
    assertThat(result).isInstanceOfSatisfying(dev.zop.provisioner.spi.StepResult.Failed.class,
        f -> assertThat(f.failure().code()).isEqualTo("name_in_use"));
    assertThat(cloud().owner("team_taken")).isEqualTo("job_someoneelse");
  }

  /** Just enough of a step context for one step run outside the engine. */
  private static final class MinimalContext implements dev.zop.provisioner.spi.StepContext {
    private final dev.zop.provisioner.JobId job = dev.zop.provisioner.JobId.random();

    @Override
    public dev.zop.provisioner.JobId jobId() {
      return job;
    }

    @Override
    public java.util.UUID stepId() {
      return java.util.UUID.randomUUID();
    }

    @Override
    public Instant startedAt() {
      return Instant.now();
    }

    @Override
    public int attempt() {
      return 1;
    }

    @Override
    public dev.zop.provisioner.spi.Outputs outputs() {
      return dev.zop.provisioner.spi.Outputs.of(Map.of());
    }

    @Override
    public void recordIntent(Map<String, String> intent) {
      throw new AssertionError("a foreign registry must not be created over: " + intent);
    }

    @Override
    public dev.zop.provisioner.spi.SecretStore secrets() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void log(String message) {
      // not checked
    }
  }

  @Test
  void thePlanShowsTheDateOfThePrices() {
    assertThat(RegistryDriver.PRICES.asOf()).isEqualTo("2026-12-01");
    Failure denied = session.classify(permissionDenied());
    assertThat(denied.category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(denied.fixHint()).contains(RegistryDriver.CREATE);
  }
}

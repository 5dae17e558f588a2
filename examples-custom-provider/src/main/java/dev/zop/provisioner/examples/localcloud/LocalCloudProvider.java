package dev.zop.provisioner.examples.localcloud;

import com.google.auto.service.AutoService;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.HttpStatusClassifier;
import dev.zop.provisioner.kit.UndeclaredPermissionException;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An example provider, {@code local}: registries as directories under the account's {@code root} property. It
 * shows the whole shape of a provider on the kit: metadata, a session, one driver, one error classifier.
 */
@AutoService(CloudProvider.class)
public final class LocalCloudProvider implements CloudProvider {
  static final String ID = "local";
  private static final ProviderMetadata METADATA = new ProviderMetadata(ID, "Local directories (example)",
      Set.of(JobKind.REGISTRY), List.of("local"), Set.of("region"), Map.of(JobKind.REGISTRY, Duration.ofMinutes(1)));
  private static final HttpStatusClassifier HTTP = new HttpStatusClassifier(ID, new HttpStatusClassifier.Hints(
      "The local cloud has no credentials; check the account's root property.",
      "the user the engine runs as (file permissions on the root directory)", null, null));

  @Override
  public ProviderMetadata metadata() {
    return METADATA;
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    String root = account.properties().getOrDefault("root",
        Path.of(System.getProperty("java.io.tmpdir"), "zop-local-cloud").toString());
    return new Session(new LocalCloud(Path.of(root)));
  }

  /** The session: the one place this provider's errors become failure classes. */
  static final class Session implements ProviderSession {
    private final LocalCloud cloud;
    private final CloudCalls calls = new CloudCalls(e -> e instanceof LocalCloud.LocalCloudException,
        e -> e instanceof LocalCloud.LocalCloudException l && l.status() == 404);

    Session(LocalCloud cloud) {
      this.cloud = cloud;
    }

    LocalCloud cloud() {
      return cloud;
    }

    @Override
    public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
      if (kind != JobKind.REGISTRY) {
        throw new IllegalArgumentException("the local provider makes registries only, not " + kind.wireName());
      }
      return new RegistryDriver(cloud, calls);
    }

    @Override
    public Failure classify(Throwable error) {
      Throwable cause = CloudCallException.unwrap(error);
      if (cause instanceof LocalCloud.LocalCloudException e) {
        return HTTP.classify(e.status(), e.getMessage(), CloudCallException.permissionOf(error));
      }
      if (cause instanceof UndeclaredPermissionException e) {
        return Failure.system(FailureCodes.UNDECLARED_PERMISSION, e.getMessage());
      }
      return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(cause));
    }

    @Override
    public void close() {
      // nothing to release
    }
  }
}

package dev.zop.provisioner.server;

import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** An engine on the sim cloud (a test double), its REST service on a free loopback port, and tokens for it. */
final class ServerFixture implements AutoCloseable {
  final SimCloud cloud = SimCloud.create();
  final EmbeddedProvisioner engine;
  final AccessStore access;
  final ProvisionerServer server;
  final String adminToken;

  ServerFixture() {
    this(b -> b);
  }

  ServerFixture(java.util.function.UnaryOperator<ProvisionerServer.Builder> customise) {
    this(false, customise);
  }

  /** With the component installer the class path offers (provider-helm), for namespaces and catalog calls. */
  static ServerFixture withComponents() {
    return new ServerFixture(true, b -> b);
  }

  /**
   * As {@code zop serve --demo} serves it: the component installer, and the simulated cloud's faults under
   * {@code /simulation/faults}.
   */
  static ServerFixture demo() {
    return new ServerFixture(true, e -> e, b -> b, true);
  }

  private ServerFixture(boolean components, java.util.function.UnaryOperator<ProvisionerServer.Builder> customise) {
    this(components, e -> e, customise);
  }

  /** With both builders customised (a registry the engine and the server share). */
  static ServerFixture with(
      java.util.function.UnaryOperator<dev.zop.provisioner.core.EmbeddedProvisionerBuilder> engineCustomise,
      java.util.function.UnaryOperator<ProvisionerServer.Builder> customise) {
    return new ServerFixture(false, engineCustomise, customise);
  }

  /** With the engine's builder customised too (an extra provider, its settings). */
  static ServerFixture withEngine(
      java.util.function.UnaryOperator<dev.zop.provisioner.core.EmbeddedProvisionerBuilder> engineCustomise) {
    return new ServerFixture(false, engineCustomise, b -> b);
  }

  private ServerFixture(boolean components,
      java.util.function.UnaryOperator<dev.zop.provisioner.core.EmbeddedProvisionerBuilder> engineCustomise,
      java.util.function.UnaryOperator<ProvisionerServer.Builder> customise) {
    this(components, engineCustomise, customise, false);
  }

  private ServerFixture(boolean components,
      java.util.function.UnaryOperator<dev.zop.provisioner.core.EmbeddedProvisionerBuilder> engineCustomise,
      java.util.function.UnaryOperator<ProvisionerServer.Builder> customise, boolean simulation) {
    try {
      Path dir = Files.createTempDirectory("zop-server-test");
      // discovery finds provider-helm's installer; the explicit sim provider still wins for sim
      engine = engineCustomise.apply(TestEngines.h2(dir, cloud).discoverProviders(components)).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    access = AccessStore.open(engine.dataSource());
    ProvisionerServer.Builder builder = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0);
    if (simulation) {
      builder.faultInjection(cloud.faultInjection());
    }
    server = customise.apply(builder).start();
    adminToken = access.createToken("acme", "alice@acme.com", Set.of(Policies.ADMIN), null).token();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  Provisioner client(String token) {
    return ProvisionerClient.builder().baseUrl(baseUrl()).bearerToken(token).build();
  }

  /**
   * A cluster job in a space of its own that stays creating (and so keeps long polls and event streams open) until
   * {@code cloud.unstick("kubernetes-cluster")}.
   */
  dev.zop.provisioner.Job stuckClusterJob(Provisioner client, String name) {
    dev.zop.provisioner.CloudAccount account = client.accounts().create(
        dev.zop.provisioner.CloudAccountRequest.of("sim", name));
    dev.zop.provisioner.Space space = client.spaces().create(
        dev.zop.provisioner.SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
    cloud.stuckCreating("kubernetes-cluster");
    return client.jobs().submit(space.id(), dev.zop.provisioner.spec.KubernetesSpec.named("held").version("1.30")
        .nodeGroup("default", "m5.large", 1, 2).build());
  }

  String token(String org, String actor, String... roles) {
    return access.createToken(org, actor, Set.of(roles), null).token();
  }

  @Override
  public void close() {
    server.close();
    engine.close();
  }
}

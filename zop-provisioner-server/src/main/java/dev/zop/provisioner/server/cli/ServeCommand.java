package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.server.AccessStore;
import dev.zop.provisioner.server.ProvisionerServer;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import java.time.Duration;
import dev.zop.provisioner.spi.Notifier;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run the provisioning service until stopped (SIGTERM/Ctrl-C shuts it down gracefully).")
final class ServeCommand implements Callable<Integer> {
  @Mixin
  StoreOptions store;

  @Mixin
  NotifyOptions notify;

  @Option(names = "--port", defaultValue = "${env:ZOP_PORT:-5087}", description = "default 5087 (env ZOP_PORT)")
  int port;

  @Option(names = "--host", defaultValue = "${env:ZOP_HOST:-127.0.0.1}",
      description = "the interface to listen on (env ZOP_HOST); default 127.0.0.1, this machine only: 0.0.0.0"
          + " listens on every interface")
  String host;

  @Option(names = "--demo", description = "also run the simulated cloud (provider sim: nothing real is created), with"
      + " an account and a space named demo ready in organisation demo; make its token with"
      + " zop tokens create --org demo --actor you@example.com --role admin")
  boolean demo;

  @Option(names = "--provider-poll-interval", defaultValue = "${env:ZOP_PROVIDER_POLL_INTERVAL}",
      description = "how often every provider looks again at a resource still being created, changed or deleted"
          + " (e.g. 10s, 500ms, 2m; env ZOP_PROVIDER_POLL_INTERVAL); default: each provider's own per kind")
  String providerPollInterval;

  /** Where --demo's account and space live: an organisation of their own in the store. */
  static final String DEMO_ORG = "demo";

  @Override
  public Integer call() throws InterruptedException {
    EmbeddedProvisionerBuilder builder = store.engine();
    SimCloud simulated = demo ? demoCloud() : null;
    // one registry for the engine, its pool, the HTTP server and the JVM; scraped at /metrics
    io.micrometer.prometheusmetrics.PrometheusMeterRegistry metrics =
        new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
            io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    // and, when OTEL_* variables are set, exported through the OpenTelemetry SDK with the traces
    ServeTelemetry telemetry = ServeTelemetry.from(System.getenv(), System.getProperties());
    io.micrometer.core.instrument.MeterRegistry meters = metrics;
    if (telemetry.exporting()) {
      meters = new io.micrometer.core.instrument.composite.CompositeMeterRegistry(
          io.micrometer.core.instrument.Clock.SYSTEM, java.util.List.of(metrics, telemetry.meters()));
    }
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(meters);
    new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(meters);
    new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics().bindTo(meters);
    new io.micrometer.core.instrument.binder.system.ProcessorMetrics().bindTo(meters);
    builder.meterRegistry(meters);
    if (telemetry.exporting()) {
      // otherwise GlobalOpenTelemetry stays the engine's and the server's: a no-op, or a Java agent's SDK
      builder.openTelemetry(telemetry.openTelemetry());
    }
    // every installed provider, given explicitly so that these settings reach each (ids replace the found ones):
    // its SDK's own meters of each call (durations, retries, throttling) beside the engine's, and the poll interval
    java.time.Duration interval = providerPollInterval == null || providerPollInterval.isBlank() ? null
        : interval(providerPollInterval);
    configured(java.util.ServiceLoader.load(dev.zop.provisioner.spi.CloudProvider.class), meters, interval)
        .forEach(builder::provider);
    if (simulated != null) {
      // last, so that it replaces a sim found on the class path (the testkit registers one on the shared cloud):
      // the engine and the fault routes must hold the same simulated cloud
      builder.provider(new SimProvider(simulated));
    }
    Notifier notifier = notify.build(System.getenv());
    if (notifier != null) {
      builder.notifier(notifier);
    }
    EmbeddedProvisioner engine;
    try {
      engine = builder.build();
    } catch (RuntimeException e) {
      java.sql.SQLException sql = StoreOptions.cause(e, java.sql.SQLException.class);
      if (sql == null) {
        throw e;
      }
      throw new IllegalArgumentException("cannot open the store: " + sql.getMessage() + "\n  fix: check --jdbc-url"
          + " (or ZOP_JDBC_URL) and that the database runs and takes these credentials");
    }
    ProvisionerServer server;
    try {
      ProvisionerServer.Builder serverBuilder = ProvisionerServer.builder(engine,
          AccessStore.open(engine.dataSource())).host(host).port(port).metrics(metrics);
      if (telemetry.exporting()) {
        serverBuilder.openTelemetry(telemetry.openTelemetry());
      }
      if (simulated != null) {
        serverBuilder.faultInjection(simulated.faultInjection());
      }
      server = serverBuilder.start();
    } catch (RuntimeException e) {
      engine.close();
      telemetry.close();
      if (StoreOptions.cause(e, java.net.BindException.class) == null) {
        throw e;
      }
      throw new IllegalArgumentException("cannot listen on " + host + ":" + port + ": the address is in use or not"
          + " this machine's\n  fix: stop what holds the port, or pass another --port (or --host)");
    }
    // zop tokens beside this service: the H2 file is this process's alone, so it is served to them on loopback
    SharedH2Store shared = store.h2() ? SharedH2Store.serve(store.directory()) : null;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      // requests in flight finish first; then the engine lets running steps end and releases their leases
      server.close();
      if (shared != null) {
        shared.close();
      }
      engine.close();
      telemetry.close(); // what the last requests and steps recorded is sent before the process ends
      stopped.countDown();
    }, "zop-shutdown"));
    System.out.println("zop provisioner listening on http://" + host + ":" + server.port());
    System.out.println("console: http://" + host + ":" + server.port() + "/ui (paste a token from zop tokens create)");
    if (demo) {
      Space space = demoSpace(engine);
      System.out.println("demo: provider sim is a simulated cloud; nothing real is created. Organisation "
          + DEMO_ORG + ": account " + space.cloudAccountId().value() + ", space " + space.id().value() + " (demo)");
      System.out.println("demo: recommendations rec_abc123 and rec_idle_vm (stop a running VM) wait on the console's"
          + " Remediations page: start one, approve it, watch the VM stop");
      System.out.println("demo: break the simulated cloud on purpose from the console's Simulation page (or POST"
          + " /simulation/faults) to see each kind of failure");
      System.out.println("demo: zop tokens create --org " + DEMO_ORG + " --actor you@example.com --role admin,"
          + " then zop jobs submit -f examples/jobs/kubernetes.yaml --space " + space.id().value() + " --watch");
    }
    System.out.flush();
    stopped.await();
    return 0;
  }

  /** Each provider as it polls every {@code interval}. */
  /**
   * The providers, each reporting its SDK's calls into {@code meters}, and checking on resources every
   * {@code interval} when that is set.
   */
  static java.util.List<dev.zop.provisioner.spi.CloudProvider> configured(
      Iterable<dev.zop.provisioner.spi.CloudProvider> providers, io.micrometer.core.instrument.MeterRegistry meters,
      java.time.Duration interval) {
    java.util.List<dev.zop.provisioner.spi.CloudProvider> all = new java.util.ArrayList<>();
    for (dev.zop.provisioner.spi.CloudProvider provider : providers) {
      dev.zop.provisioner.spi.CloudProvider metered =
          provider.withCallMetrics(new ProviderMeters(meters, provider.metadata().id()));
      all.add(interval == null ? metered : metered.pollingEvery(interval));
    }
    return all;
  }

  /** {@code 10s}, {@code 500ms}, {@code 2m}, or ISO-8601 ({@code PT10S}); at least a millisecond. */
  static java.time.Duration interval(String text) {
    String value = text.trim().toLowerCase(java.util.Locale.ROOT);
    java.time.Duration parsed;
    try {
      if (value.startsWith("pt")) {
        parsed = java.time.Duration.parse(value.toUpperCase(java.util.Locale.ROOT));
      } else if (value.endsWith("ms")) {
        parsed = java.time.Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      } else if (value.endsWith("s")) {
        parsed = java.time.Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
      } else if (value.endsWith("m")) {
        parsed = java.time.Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
      } else {
        throw new NumberFormatException(value);
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--provider-poll-interval '" + text + "' is not a duration; write it as"
          + " 10s, 500ms, 2m or PT10S");
    }
    if (parsed.toMillis() < 1) {
      throw new IllegalArgumentException("--provider-poll-interval must be at least 1ms");
    }
    return parsed;
  }

  /**
   * The running VMs the demo's recommendations are about: the product document's own example subject first, so
   * its {@code POST /remediation-jobs} body runs as written.
   */
  static final java.util.List<String> DEMO_WORKLOADS = java.util.List.of("i-0123456789abcdef0",
      "i-0fedcba9876543210");

  /**
   * The demo's simulated cloud: a few seconds per cluster and database, so a watched job shows its steps go by; a
   * network with two subnets and a DNS zone already there, so the wizard has something to offer; and VMs running,
   * so the demo's recommendations can be remediated.
   */
  static SimCloud demoCloud() {
    SimCloud cloud = SimCloud.create().creatingTime("kubernetes-cluster", Duration.ofSeconds(3))
        .creatingTime("db-instance", Duration.ofSeconds(3))
        .existingNetwork("vpc-demo", "10.0.0.0/16", java.util.Map.of("subnet-demo-a", "10.0.1.0/24",
            "subnet-demo-b", "10.0.2.0/24"))
        .existingDnsZone("demo.example.com");
    DEMO_WORKLOADS.forEach(vm -> cloud.workload(vm, "running"));
    return cloud;
  }

  /**
   * The demo organisation's sim account and space, made the first time and found by name after that, and the
   * recommendations its remediation flow starts from (the document's {@code rec_abc123} among them), recorded
   * again at each start.
   */
  static Space demoSpace(EmbeddedProvisioner engine) {
    Provisioner demoOrg = engine.as(new Principal(DEMO_ORG, "zop-demo", Set.of(Principal.ADMIN)));
    CloudAccount account = demoOrg.accounts().list().stream()
        .filter(a -> a.provider().equals(SimProvider.ID) && a.name().equals("demo")).findFirst()
        .orElseGet(() -> demoOrg.accounts().create(CloudAccountRequest.of(SimProvider.ID, "demo")));
    Space space = demoOrg.spaces().list().stream()
        .filter(s -> account.id().equals(s.cloudAccountId()) && s.name().equals("demo")).findFirst()
        .orElseGet(() -> demoOrg.spaces().create(SpaceRequest.of(SimProvider.ID, "demo", account.id())
            .region("sim-demo-1")));
    demoOrg.remediations().putRecommendation(new dev.zop.provisioner.remediation.Recommendation("rec_abc123",
        SimProvider.ID, account.id(), space.region(), "vm", DEMO_WORKLOADS.get(0), "stop"));
    demoOrg.remediations().putRecommendation(new dev.zop.provisioner.remediation.Recommendation("rec_idle_vm",
        SimProvider.ID, account.id(), space.region(), "vm", DEMO_WORKLOADS.get(1), "stop"));
    return space;
  }
}

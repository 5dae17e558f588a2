package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.server.AccessStore;
import dev.zop.provisioner.server.ProvisionerServer;
import dev.zop.provisioner.spi.Notifier;
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

  @Override
  public Integer call() throws InterruptedException {
    EmbeddedProvisionerBuilder builder = store.engine();
    // one registry for the engine, its pool, the HTTP server and the JVM; scraped at /metrics
    io.micrometer.prometheusmetrics.PrometheusMeterRegistry metrics =
        new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
            io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(metrics);
    new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(metrics);
    new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics().bindTo(metrics);
    new io.micrometer.core.instrument.binder.system.ProcessorMetrics().bindTo(metrics);
    builder.meterRegistry(metrics);
    Notifier notifier = notify.build(System.getenv());
    if (notifier != null) {
      builder.notifier(notifier);
    }
    EmbeddedProvisioner engine;
    try {
      engine = builder.build();
    } catch (RuntimeException e) {
      java.sql.SQLException sql = cause(e, java.sql.SQLException.class);
      if (sql == null) {
        throw e;
      }
      throw new IllegalArgumentException("cannot open the store: " + sql.getMessage() + "\n  fix: check --jdbc-url"
          + " (or ZOP_JDBC_URL) and that the database runs and takes these credentials");
    }
    ProvisionerServer server;
    try {
      server = ProvisionerServer.builder(engine, AccessStore.open(engine.dataSource())).host(host).port(port)
          .metrics(metrics).start();
    } catch (RuntimeException e) {
      engine.close();
      if (cause(e, java.net.BindException.class) == null) {
        throw e;
      }
      throw new IllegalArgumentException("cannot listen on " + host + ":" + port + ": the address is in use or not"
          + " this machine's\n  fix: stop what holds the port, or pass another --port (or --host)");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      // requests in flight finish first; then the engine lets running steps end and releases their leases
      server.close();
      engine.close();
      stopped.countDown();
    }, "zop-shutdown"));
    System.out.println("zop provisioner listening on http://" + host + ":" + server.port());
    System.out.flush();
    stopped.await();
    return 0;
  }

  private static <T extends Throwable> T cause(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}

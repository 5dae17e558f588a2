package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.server.AccessStore;
import dev.zop.provisioner.server.ProvisionerServer;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The REST service under load over loopback (get job, list jobs, submit job), against the same calls on the
 * embedded engine in the same run. One caller thread, so the figures are latency-bound; prints JSON lines.
 *
 * <p>{@code ./mvnw -q -pl benchmarks exec:exec -Dbench.main=dev.zop.provisioner.benchmarks.ServiceBenchmark
 * -Dbench.ops=2000}
 */
public final class ServiceBenchmark {
  private ServiceBenchmark() {}

  public static void main(String[] args) throws Exception {
    int ops = Integer.getInteger("bench.ops", 2000);
    SimCloud cloud = SimCloud.create();
    try (EmbeddedProvisioner engine = TestEngines.h2(Files.createTempDirectory("zop-bench-service"), cloud)
        .build()) {
      AccessStore access = AccessStore.open(engine.dataSource());
      String token = access.createToken("bench", "bench@local", Set.of(Policies.ADMIN), null).token();
      try (ProvisionerServer server = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0)
          .requestsPerSecond(1_000_000).start();
          Provisioner client = ProvisionerClient.builder().baseUrl("http://127.0.0.1:" + server.port())
              .bearerToken(token).build()) {
        Provisioner embedded = engine.as(new Principal("bench", "bench@local", Set.of(Principal.ADMIN)));
        for (Provisioner zop : new Provisioner[] {embedded, client}) {
          String mode = zop == client ? "http-loopback" : "embedded";
          CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", mode));
          Space space = zop.spaces().create(SpaceRequest.of("sim", "bench-" + mode, account.id())
              .region("sim-east-1"));
          Job job = zop.jobs().submit(space.id(), RegistrySpec.named("warm-" + mode));
          zop.jobs().await(job.id(), java.time.Duration.ofSeconds(60));
          if (zop == client) {
            // a token check and a tiny answer: the HTTP, auth and JSON cost without engine work
            measure(mode, "whoami", ops, i -> ((ProvisionerClient) zop).refreshPrincipal());
          }
          measure(mode, "get_job", ops, i -> zop.jobs().get(job.id()));
          measure(mode, "list_jobs", ops, i -> zop.jobs().list(JobQuery.inSpace(space.id()).limit(50)));
          measure(mode, "submit_job", ops / 4,
              i -> zop.jobs().submit(space.id(), RegistrySpec.named("r-" + mode.charAt(0) + i)));
        }
      }
    }
  }

  private static void measure(String mode, String op, int count, IntConsumer call) {
    for (int i = 0; i < Math.min(200, count); i++) { // warm-up: JIT and connection pool
      call.accept(-1 - i);
    }
    long[] nanos = new long[count];
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long t = System.nanoTime();
      call.accept(i);
      nanos[i] = System.nanoTime() - t;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Arrays.sort(nanos);
    System.out.println(String.format(Locale.ROOT,
        "{\"bench\":\"service\",\"mode\":\"%s\",\"op\":\"%s\",\"count\":%d,\"perSecond\":%.0f,"
            + "\"p50Ms\":%.3f,\"p99Ms\":%.3f}",
        mode, op, count, count / seconds, nanos[count / 2] / 1e6, nanos[(int) (count * 0.99)] / 1e6));
  }
}

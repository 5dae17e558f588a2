package dev.zop.provisioner.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.server.AccessStore;
import dev.zop.provisioner.server.ProvisionerServer;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many people watching jobs: {@code bench.watchers} (default 10,000) server-sent-event streams held open on one
 * {@code zop serve} (in this JVM, its store on PostgreSQL, the simulated cloud with no latency), one per job as a
 * console's job page holds one. Most of the jobs are done and quiet; {@code bench.probes} (default 200) of them wait on
 * a cluster that never finishes creating, polling it every second, so each writes a progress event a second. The
 * streams are opened by a second JVM (a process's file descriptors would not hold both ends of 10,000
 * connections), which, {@code bench.settle} seconds (default 20) after the last stream opened, for
 * {@code bench.seconds} (default 30) measures each event's delay from its commit (the event's time, taken by the
 * engine as it makes the write, just before the commit) to its arrival.
 *
 * <p>Prints JSON lines: the service's heap after a full GC and its live threads with no stream and with every
 * stream open (and the heap a stream), the time to open them, and the events received, their delay p50, p99 and
 * worst, and the streams the service refused or ended. Run with
 * {@code ./mvnw -pl benchmarks exec:exec -Dbench.main=dev.zop.provisioner.benchmarks.WatchersBenchmark}.
 */
public final class WatchersBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("client")) {
      client(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]));
      return;
    }
    int watchers = Integer.getInteger("bench.watchers", 10_000);
    int probes = Math.min(watchers, Integer.getInteger("bench.probes", 200));
    int seconds = Integer.getInteger("bench.seconds", 30);
    // bench.settle (default 20): seconds between the last stream opening and the measurement
    SimCloud cloud = SimCloud.create().recordCalls(false).pollInterval(Duration.ofSeconds(1))
        .stuckCreating("kubernetes-cluster");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        EmbeddedProvisioner engine = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).build()) {
      AccessStore access = AccessStore.open(engine.dataSource());
      // a token of the engine's own organisation, whose jobs the engine submits below
      String token = access.createToken(engine.principal().orgId(), "bench@local", Set.of(Policies.ADMIN), null)
          .token();
      try (ProvisionerServer server = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0)
          .requestsPerSecond(1_000_000).maxEventStreams(watchers + 100, watchers + 100).start()) {
        CloudAccount account = engine.accounts().create(CloudAccountRequest.of("sim", "watchers"));
        Space space = engine.spaces().create(SpaceRequest.of("sim", "watchers", account.id()).region("sim-east-1"));
        List<JobId> quiet = new ArrayList<>();
        for (int i = 0; i < watchers - probes; i++) {
          quiet.add(engine.jobs().submit(space.id(), RegistrySpec.named("watched/" + i)).id());
        }
        List<JobId> waiting = new ArrayList<>();
        for (int i = 0; i < probes; i++) {
          waiting.add(engine.jobs().submit(space.id(), KubernetesSpec.named("probe-" + i).version("1.30")
              .nodeGroup("ng", "m5.large", 1, 2).build()).id());
        }
        for (JobId id : quiet) {
          Job done = engine.jobs().await(id, Duration.ofMinutes(10));
          if (done.status() != JobStatus.SUCCEEDED) {
            throw new IllegalStateException(id + " ended " + done.status());
          }
        }
        Path ids = Files.createTempFile("zop-watched", ".txt");
        List<String> all = new ArrayList<>();
        waiting.forEach(id -> all.add(id.value()));
        quiet.forEach(id -> all.add(id.value()));
        Files.write(ids, all);
        long heapIdle = heapAfterGc(memory);
        int threadsIdle = ManagementFactory.getThreadMXBean().getThreadCount();
        Process client = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g", "-Dbench.settle=" + Integer.getInteger("bench.settle", 20), "-cp",
            System.getProperty("java.class.path"), WatchersBenchmark.class.getName(), "client",
            "http://127.0.0.1:" + server.port(), token, ids.toString(), Integer.toString(seconds))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = out.readLine()) != null) {
            if (line.startsWith("open ")) {
              // every stream is open: the service is measured while the client counts events
              long heapOpen = heapAfterGc(memory);
              int threadsOpen = ManagementFactory.getThreadMXBean().getThreadCount();
              System.out.printf(Locale.ROOT, "{\"bench\":\"watchers_open\",\"streams\":%s,\"openMs\":%s,"
                  + "\"heapIdleMb\":%.1f,\"heapOpenMb\":%.1f,\"heapKbPerStream\":%.1f,\"threadsIdle\":%d,"
                  + "\"threadsOpen\":%d}%n", line.split(" ")[1], line.split(" ")[2], heapIdle / 1e6,
                  heapOpen / 1e6, (heapOpen - heapIdle) / 1e3 / Math.max(1, Integer.parseInt(line.split(" ")[1])),
                  threadsIdle, threadsOpen);
            } else {
              System.out.println(line);
            }
          }
        }
        client.waitFor(2, TimeUnit.MINUTES);
      }
    }
  }

  private static long heapAfterGc(MemoryMXBean memory) {
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }

  /**
   * The watching side: a stream per job id, all held by one HTTP client (no thread per stream), each event's delay
   * recorded once every stream is open.
   */
  private static void client(String base, String token, Path ids, int seconds) throws Exception {
    List<String> jobs = Files.readAllLines(ids);
    // HTTP/1.1, a connection a stream, as browsers and `zop --watch` hold them
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(30)).build();
    AtomicInteger firstRefusal = new AtomicInteger();
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger ended = new AtomicInteger();
    AtomicLong measuringFrom = new AtomicLong(Long.MAX_VALUE);
    ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();
    long started = System.nanoTime();
    for (String job : jobs) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/provisioning-jobs/" + job + "/events/stream"))
          .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build();
      Flow.Subscriber<String> lines = new Flow.Subscriber<>() {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {
          subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
          if (!line.startsWith("data: ")) {
            return;
          }
          long now = System.currentTimeMillis();
          if (now < measuringFrom.get()) {
            return;
          }
          try {
            JsonNode event = JSON.readTree(line.substring(6));
            long at = Instant.parse(event.get("at").asText()).toEpochMilli();
            if (at >= measuringFrom.get()) {
              delays.add(now - at);
            }
          } catch (Exception e) {
            // a frame this side cannot read is not a delay
          }
        }

        @Override
        public void onError(Throwable error) {
          ended.incrementAndGet();
        }

        @Override
        public void onComplete() {
          ended.incrementAndGet();
        }
      };
      // a stream is open when its answer's head arrives (the body goes on as long as the job is watched)
      http.sendAsync(request, info -> {
        (info.statusCode() == 200 ? opened : refused).incrementAndGet();
        if (info.statusCode() != 200) {
          firstRefusal.compareAndSet(0, info.statusCode());
        }
        return HttpResponse.BodySubscribers.fromLineSubscriber(lines);
      }).whenComplete((response, error) -> {
        if (error != null && opened.get() + refused.get() < jobs.size()) {
          refused.incrementAndGet();
          if (firstRefusal.compareAndSet(0, -1)) {
            System.err.println("a stream failed: " + error);
          }
        }
      });
    }
    // every request sent: measuring starts once every stream is answered, or after a minute
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (opened.get() + refused.get() < jobs.size() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    long openMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
    System.out.println("open " + opened.get() + " " + openMs);
    // the service catches each new stream up on its job's past events, a hundred jobs a round: measured once that
    // is done, the figures are those of people watching, not of ten thousand pages opened in the same seconds
    Thread.sleep(Integer.getInteger("bench.settle", 20) * 1_000L);
    measuringFrom.set(System.currentTimeMillis());
    Thread.sleep(seconds * 1_000L);
    long[] sorted = delays.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(Locale.ROOT, "{\"bench\":\"watchers_events\",\"streams\":%d,\"seconds\":%d,\"events\":%d,"
        + "\"delayP50Ms\":%d,\"delayP99Ms\":%d,\"delayMaxMs\":%d,\"refused\":%d,\"firstRefusalStatus\":%d,"
        + "\"ended\":%d}%n", jobs.size(), seconds, sorted.length, percentile(sorted, 0.5), percentile(sorted, 0.99),
        sorted.length == 0 ? 0 : sorted[sorted.length - 1], refused.get(), firstRefusal.get(), ended.get());
    System.exit(0);
  }

  private static long percentile(long[] sorted, double p) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }

  private WatchersBenchmark() {}
}

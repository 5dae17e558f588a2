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
 * The REST service under load over loopback, printing JSON lines: first a mix of calls from {@code bench.callers}
 * concurrent callers (default 50) for {@code bench.seconds} (default 60), after a warm-up of {@code bench.warmup}
 * seconds (default 120) of the same mix, on a PostgreSQL store; then, with one
 * caller and an H2 store, get job, list jobs and submit job over HTTP against the same calls on the embedded
 * engine ({@code bench.ops} each, default 2000; 0 skips them).
 *
 * <p>{@code ./mvnw -q -pl benchmarks exec:exec -Dbench.main=dev.zop.provisioner.benchmarks.ServiceBenchmark}
 */
public final class ServiceBenchmark {
  private ServiceBenchmark() {}

  public static void main(String[] args) throws Exception {
    int callers = Integer.getInteger("bench.callers", 50);
    int seconds = Integer.getInteger("bench.seconds", 60);
    if (callers > 0) {
      mix(callers, seconds);
    }
    if (Integer.getInteger("bench.ops", 2000) > 0) {
      oneCaller(Integer.getInteger("bench.ops", 2000));
    }
  }

  /** What each caller of the mix asks, by weight out of 20. */
  private enum Call {
    SUBMIT(2), PLAN(2), LIST(5), GET(5), EVENTS(2), SPACES(2), ME(2);

    final int weight;

    Call(int weight) {
      this.weight = weight;
    }
  }

  /**
   * The service on a PostgreSQL store under {@code callers} concurrent Java callers for {@code seconds}, after a
   * warm-up: 10% submit, 10% plan, 25% list, 25% get, 10% events, 10% spaces, 10% {@code /me}, each caller over its
   * own HTTP connection to the same server on loopback, the simulated cloud without latency behind it, the engine
   * running the submitted jobs meanwhile. Prints throughput, p50 and p99 over all calls and per call, errors, the CPU
   * a call cost (this JVM's; of it, the callers' own threads'; the rest of the machine's), the transactions committed
   * a call (autocommit reads included), the JIT's compilation time in the measured run (elapsed, summed over its
   * threads), heap after a full GC before and after, the requests that waited the server's longest admission wait,
   * the calls finished in each second, the stretches in which the service all but stood still and whether the
   * kernel's memory watcher ran then ({@link Stalls}), and the processes on the machine that used the most CPU
   * meanwhile. The warm-up's own figures are printed first: on two cores that the callers
   * keep busy the JIT takes a minute or more to compile the hot paths (on a slow host, after 60 s of warm-up it was
   * still compiling for 42 s of the measured minute, and throughput climbed from 540 to 1,300 calls a second within
   * it), so a measurement that starts earlier reports compilation, not the service.
   */
  private static void mix(int callers, int seconds) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
    try (dev.zop.provisioner.testkit.PostgresTestDatabase db = dev.zop.provisioner.testkit.PostgresTestDatabase
        .create();
        EmbeddedProvisioner engine = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
            .maxPoolSize(Integer.getInteger("bench.pool", 10)).build()) {
      AccessStore access = AccessStore.open(engine.dataSource());
      String token = access.createToken("bench", "bench@local", Set.of(Policies.ADMIN), null).token();
      ProvisionerServer.Builder settings = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0)
          .requestsPerSecond(1_000_000);
      if (Integer.getInteger("bench.slots") != null) { // the server's default otherwise
        settings.maxConcurrentRequests(Integer.getInteger("bench.slots"));
      }
      try (ProvisionerServer server = settings.start();
          ProvisionerClient client = ProvisionerClient.builder().baseUrl("http://127.0.0.1:" + server.port())
              .bearerToken(token).build()) {
        CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "mix"));
        Space space = client.spaces().create(SpaceRequest.of("sim", "bench-mix", account.id())
            .region("sim-east-1"));
        java.util.List<dev.zop.provisioner.JobId> seeded = new java.util.ArrayList<>();
        // -Dbench.seeded=50: a full page for the list from the first call (with 20, the mix's submits fill it)
        for (int i = 0; i < Integer.getInteger("bench.seeded", 20); i++) {
          Job job = client.jobs().submit(space.id(), RegistrySpec.named("seed-" + i));
          seeded.add(client.jobs().await(job.id(), java.time.Duration.ofSeconds(60)).id());
        }
        // -Dbench.calls=get,list: only those calls, at their weights (to see what one kind of call costs)
        Set<String> only = Set.of(System.getProperty("bench.calls", "").toUpperCase(Locale.ROOT).split(","));
        Call[] deck = Arrays.stream(Call.values()).filter(c -> only.contains("") || only.contains(c.name()))
            .flatMap(c -> java.util.stream.Stream.generate(() -> c).limit(c.weight)).toArray(Call[]::new);
        java.util.concurrent.atomic.AtomicLong submitted = new java.util.concurrent.atomic.AtomicLong();
        java.util.function.BiConsumer<Call, java.util.Random> call = (op, random) -> {
          dev.zop.provisioner.JobId job = seeded.get(random.nextInt(seeded.size()));
          switch (op) {
            case SUBMIT -> client.jobs().submit(space.id(),
                RegistrySpec.named("m" + submitted.incrementAndGet()));
            case PLAN -> client.jobs().plan(space.id(), RegistrySpec.named("plan"));
            case LIST -> client.jobs().list(JobQuery.inSpace(space.id()).limit(50));
            case GET -> client.jobs().get(job);
            case EVENTS -> client.jobs().events(job, 0);
            case SPACES -> client.spaces().list();
            case ME -> client.refreshPrincipal();
          }
        };
        long heapBefore = heapAfterGc(memory);
        int warmup = Integer.getInteger("bench.warmup", 120);
        if (warmup > 0) {
          Mix warm = runMix(callers, warmup, deck, call); // the JIT, pools, connections
          System.out.println(String.format(Locale.ROOT, "{\"bench\":\"service_mix_warmup\",\"seconds\":%d,"
              + "\"perSecond\":%.0f,\"p50Ms\":%.2f,\"p99Ms\":%.2f,\"errors\":%d,\"finishedEachSecond\":%s}", warmup,
              warm.all.length / warm.seconds, millis(warm.all, 0.5), millis(warm.all, 0.99), warm.errors,
              Arrays.toString(warm.finishedEachSecond)));
        }
        long overranBefore = server.requestsOverran();
        // the pool's backends report their counts now and then as well as on close: over a minute, close enough
        long commitsBefore = EngineBenchmark.counters(engine.dataSource()).commits();
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long compilingBefore = jit.getTotalCompilationTime();
        Mix result = runMix(callers, seconds, deck, call);
        long compiling = jit.getTotalCompilationTime() - compilingBefore;
        long commits = EngineBenchmark.counters(engine.dataSource()).commits() - commitsBefore;
        long overran = server.requestsOverran() - overranBefore;
        long heapAfter = heapAfterGc(memory);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "{\"bench\":\"service_mix\",\"store\":\"postgresql\",\"callers\":%d,\"seconds\":%d,"
                + "\"requests\":%d,\"perSecond\":%.0f,\"p50Ms\":%.2f,\"p99Ms\":%.2f,\"errors\":%d,"
                + "\"jvmCpuUsPerCall\":%.0f,\"callerCpuUsPerCall\":%.0f,\"otherCpuUsPerCall\":%.0f,"
                + "\"commitsPerCall\":%.2f,\"jitCompilingMs\":%d,"
                + "\"heapBeforeMb\":%.1f,\"heapAfterMb\":%.1f,\"overranAdmissionWait\":%d,"
                + "\"slots10ms\":%d,\"stalledSlots\":%d,\"stalledSlotsWithKdamondBusy\":%d,\"kdamondBusySlots\":%d,"
                + "\"callsBegunAwayFromKdamond\":%d,\"p50MsAwayFromKdamond\":%.2f,\"p99MsAwayFromKdamond\":%.2f,"
                + "\"cpuSecondsByProcess\":%s,\"finishedEachSecond\":%s",
            callers, seconds, result.all.length, result.all.length / result.seconds, millis(result.all, 0.5),
            millis(result.all, 0.99), result.errors, result.jvmCpuMicrosPerCall, result.callerCpuMicrosPerCall,
            result.otherCpuMicrosPerCall, (double) commits / result.all.length, compiling, heapBefore / 1048576.0,
            heapAfter / 1048576.0, overran, result.stalls.slots(), result.stalls.stalled(),
            result.stalls.stalledWithDamon(), result.stalls.damonBusy(), result.stalls.awayFromDamon().length,
            millis(result.stalls.awayFromDamon(), 0.5), millis(result.stalls.awayFromDamon(), 0.99),
            result.cpuSecondsByProcess,
            Arrays.toString(result.finishedEachSecond)));
        for (Call op : Call.values()) {
          long[] nanos = result.byCall.get(op);
          line.append(String.format(Locale.ROOT, ",\"%s\":{\"count\":%d,\"p50Ms\":%.2f,\"p99Ms\":%.2f}",
              op.name().toLowerCase(Locale.ROOT), nanos.length, millis(nanos, 0.5), millis(nanos, 0.99)));
        }
        System.out.println(line.append('}'));
      }
    }
  }

  /**
   * What the calls got, with the CPU a call cost: this JVM's (service, engine and callers alike), the part of it
   * the callers' own threads spent (client, JSON, sockets: what a caller on another machine would pay there), and
   * the rest of the machine's, which on an otherwise idle machine is PostgreSQL's.
   */
  private record Mix(long[] all, java.util.Map<Call, long[]> byCall, long errors, double seconds,
      double jvmCpuMicrosPerCall, double callerCpuMicrosPerCall, double otherCpuMicrosPerCall,
      long[] finishedEachSecond, Stalls stalls, String cpuSecondsByProcess) {}

  private static Mix runMix(int callers, int seconds, Call[] deck,
      java.util.function.BiConsumer<Call, java.util.Random> call) throws Exception {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    java.util.concurrent.atomic.AtomicLong errors = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong callerCpuNanos = new java.util.concurrent.atomic.AtomicLong();
    java.lang.management.ThreadMXBean threadCpu = java.lang.management.ManagementFactory.getThreadMXBean();
    java.util.List<java.util.Map<Call, java.util.List<Long>>> perCaller = new java.util.ArrayList<>();
    // each finished call's start and end, in nanoseconds from the start: the calls finished each second and the stalls
    java.util.List<java.util.List<long[]>> spans = new java.util.ArrayList<>();
    java.util.List<Thread> threads = new java.util.ArrayList<>();
    long start = System.nanoTime();
    long jvmCpuBefore = EngineBenchmark.jvmCpuNanos();
    long machineBefore = EngineBenchmark.machineCpuTicks();
    java.util.Map<String, Long> processesBefore = cpuTicksByProcess();
    DamonSampler damon = new DamonSampler(start, seconds);
    for (int t = 0; t < callers; t++) {
      java.util.Map<Call, java.util.List<Long>> mine = new java.util.EnumMap<>(Call.class);
      for (Call op : Call.values()) {
        mine.put(op, new java.util.ArrayList<>());
      }
      perCaller.add(mine);
      java.util.List<long[]> mySpans = new java.util.ArrayList<>();
      spans.add(mySpans);
      java.util.Random random = new java.util.Random(t);
      Thread thread = new Thread(() -> {
        long cpuBefore = threadCpu.getCurrentThreadCpuTime();
        while (System.nanoTime() < end) {
          Call op = deck[random.nextInt(deck.length)];
          long began = System.nanoTime();
          try {
            call.accept(op, random);
            long now = System.nanoTime();
            mine.get(op).add(now - began);
            mySpans.add(new long[] {began - start, now - start});
          } catch (RuntimeException e) {
            if (errors.incrementAndGet() <= 3) {
              System.err.println("mix " + op + " failed: " + e);
            }
          }
        }
        callerCpuNanos.addAndGet(threadCpu.getCurrentThreadCpuTime() - cpuBefore);
      }, "caller-" + t);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    double took = (System.nanoTime() - start) / 1e9;
    java.util.Map<String, Long> processesAfter = cpuTicksByProcess();
    damon.close();
    double jvmCpuMicros = (EngineBenchmark.jvmCpuNanos() - jvmCpuBefore) / 1e3;
    double machineCpuMicros = (EngineBenchmark.machineCpuTicks() - machineBefore) * 1e6
        / EngineBenchmark.TICKS_PER_SECOND;
    java.util.Map<Call, long[]> byCall = new java.util.EnumMap<>(Call.class);
    for (Call op : Call.values()) {
      byCall.put(op, perCaller.stream().flatMap(m -> m.get(op).stream()).mapToLong(Long::longValue).sorted()
          .toArray());
    }
    long[] all = byCall.values().stream().flatMapToLong(Arrays::stream).sorted().toArray();
    java.util.List<long[]> allSpans = spans.stream().flatMap(java.util.List::stream).toList();
    long[] eachSecond = new long[seconds];
    for (long[] span : allSpans) {
      eachSecond[(int) Math.min(seconds - 1, span[1] / 1_000_000_000L)]++; // the last calls' tail in the last second
    }
    Stalls stalls = Stalls.of(allSpans, damon.bySlot(), took);
    return new Mix(all, byCall, errors.get(), took, jvmCpuMicros / all.length,
        callerCpuNanos.get() / 1e3 / all.length, (machineCpuMicros - jvmCpuMicros) / all.length, eachSecond,
        stalls, busiest(processesBefore, processesAfter, 6));
  }

  /**
   * Stretches of the measured run in which the service all but stood still, and whether the kernel's DAMON
   * thread ({@code kdamond}, which some hosts run to watch memory use) was busy then. A slot is 10 ms; it is stalled
   * when fewer than a fifth of the run's mean calls a slot finished in it (at well over a thousand calls a second,
   * some fifteen finish in a slot, and by chance alone three or fewer about twice in ten thousand slots). A stalled
   * slot counts as one with {@code kdamond} busy when that thread ran for 5 ms or more in it or in the slot either
   * side; the same is counted over all slots, to compare.
   *
   * <p>{@code awayFromDamon} holds the durations, sorted, of the calls begun at least {@link #AWAY} slots from any
   * slot in which {@code kdamond} ran 5 ms or more: what the service does between the host's bursts. Calls are
   * chosen by when they began, never by how long they took, so a slow call among them stays in, even one that
   * ran into a burst; on a machine without {@code kdamond} it holds every call.
   */
  private record Stalls(int slots, int stalled, int stalledWithDamon, int damonBusy, long[] awayFromDamon) {
    static final long SLOT = 10_000_000L;
    private static final long BUSY = 5_000_000L;
    /** 100 ms: at 50 callers a call's wait follows the service's rate within a few calls' time of a burst. */
    private static final int AWAY = 10;

    static Stalls of(java.util.List<long[]> spans, long[] damonNanosBySlot, double seconds) {
      // the last, partial slot is left out
      int slots = (int) (seconds * 1e9 / SLOT);
      int[] finishedIn = new int[slots + 1];
      for (long[] span : spans) {
        finishedIn[(int) Math.min(slots, span[1] / SLOT)]++;
      }
      double fifth = spans.size() / (double) slots / 5;
      int stalled = 0;
      int withDamon = 0;
      int busy = 0;
      for (int i = 0; i < slots; i++) {
        boolean damon = false;
        for (int j = Math.max(0, i - 1); j <= Math.min(damonNanosBySlot.length - 1, i + 1); j++) {
          damon |= damonNanosBySlot[j] >= BUSY;
        }
        busy += damon ? 1 : 0;
        if (finishedIn[i] < fifth) {
          stalled++;
          withDamon += damon ? 1 : 0;
        }
      }
      // the distance from each slot to the nearest slot in which kdamond ran 5 ms or more
      int[] distance = new int[slots + 1];
      int last = Integer.MIN_VALUE / 2;
      for (int i = 0; i <= slots; i++) {
        last = i < damonNanosBySlot.length && damonNanosBySlot[i] >= BUSY ? i : last;
        distance[i] = i - last;
      }
      last = Integer.MAX_VALUE / 2;
      for (int i = slots; i >= 0; i--) {
        last = i < damonNanosBySlot.length && damonNanosBySlot[i] >= BUSY ? i : last;
        distance[i] = Math.min(distance[i], last - i);
      }
      long[] away = spans.stream().filter(span -> distance[(int) Math.min(slots, span[0] / SLOT)] >= AWAY)
          .mapToLong(span -> span[1] - span[0]).sorted().toArray();
      return new Stalls(slots, stalled, withDamon, busy, away);
    }
  }

  /**
   * Reads, every 10 ms, how long the kernel's {@code kdamond} threads have run ({@code /proc/<pid>/schedstat}, in
   * nanoseconds), and spreads each step's growth over the slots of the run it covers. Finds nothing (all zero) on a
   * machine without them.
   */
  private static final class DamonSampler implements AutoCloseable {
    private final java.util.List<java.nio.file.Path> threads = new java.util.ArrayList<>();
    private final long start;
    private final long[] bySlot;
    private final java.util.concurrent.ScheduledExecutorService timer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "damon-sampler");
          t.setDaemon(true);
          return t;
        });
    private long lastAt;
    private long lastNanos;

    DamonSampler(long start, int seconds) {
      this.start = start;
      this.bySlot = new long[seconds * 100 + 100];
      java.io.File[] entries = processes();
      for (java.io.File entry : entries) {
        try {
          if (java.nio.file.Files.readString(entry.toPath().resolve("comm")).startsWith("kdamond")) {
            threads.add(entry.toPath().resolve("schedstat"));
          }
        } catch (java.io.IOException e) {
          // gone meanwhile
        }
      }
      lastAt = System.nanoTime() - start;
      lastNanos = ran();
      if (!threads.isEmpty()) {
        timer.scheduleAtFixedRate(this::sample, 10, 10, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
    }

    private long ran() {
      long total = 0;
      for (java.nio.file.Path path : threads) {
        try {
          total += Long.parseLong(java.nio.file.Files.readString(path).trim().split(" ")[0]);
        } catch (java.io.IOException | RuntimeException e) {
          // a thread that ended: its time stops growing
        }
      }
      return total;
    }

    private synchronized void sample() {
      long at = System.nanoTime() - start;
      long nanos = ran();
      long grew = nanos - lastNanos;
      int from = (int) Math.max(0, lastAt / Stalls.SLOT);
      int to = (int) Math.min(bySlot.length - 1, Math.max(0, at / Stalls.SLOT));
      for (int slot = from; slot <= to; slot++) {
        bySlot[slot] += grew / (to - from + 1);
      }
      lastAt = at;
      lastNanos = nanos;
    }

    synchronized long[] bySlot() {
      return bySlot.clone();
    }

    @Override
    public void close() {
      timer.shutdownNow();
    }
  }

  /**
   * CPU ticks of every process on the machine by name (the JVM's threads together as one {@code java}, each
   * PostgreSQL backend as {@code postgres}, kernel threads by their own names), from /proc/[pid]/stat; empty where
   * there is no /proc. A process that ends within the run is missed, which at most leaves out short-lived helpers.
   */
  private static java.util.Map<String, Long> cpuTicksByProcess() {
    java.util.Map<String, Long> ticks = new java.util.HashMap<>();
    java.io.File[] entries = processes();
    for (java.io.File entry : entries) {
      try {
        String stat = java.nio.file.Files.readString(entry.toPath().resolve("stat"));
        // the name is in parentheses and may hold spaces; utime and stime are the 12th and 13th fields after it
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).split(" ");
        ticks.merge(stat.substring(open + 1, close), Long.parseLong(rest[11]) + Long.parseLong(rest[12]), Long::sum);
      } catch (java.io.IOException | RuntimeException e) {
        // gone between the listing and the read: its time is not counted
      }
    }
    return ticks;
  }

  /** The directories of /proc that are processes; none where there is no /proc. */
  private static java.io.File[] processes() {
    java.io.File[] entries = new java.io.File("/proc")
        .listFiles((dir, name) -> name.chars().allMatch(Character::isDigit));
    return entries == null ? new java.io.File[0] : entries;
  }

  /** The {@code count} processes that took the most CPU between the two readings, in seconds, as JSON. */
  private static String busiest(java.util.Map<String, Long> before, java.util.Map<String, Long> after, int count) {
    return after.entrySet().stream()
        .map(e -> java.util.Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).limit(count)
        .map(e -> String.format(Locale.ROOT, "\"%s\":%.1f", e.getKey().replace("\"", ""),
            e.getValue() / EngineBenchmark.TICKS_PER_SECOND))
        .collect(java.util.stream.Collectors.joining(",", "{", "}"));
  }

  private static double millis(long[] sorted, double quantile) {
    return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))] / 1e6;
  }

  private static long heapAfterGc(java.lang.management.MemoryMXBean memory) {
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }

  /** The former single-caller figures: each call in turn, over HTTP and embedded. */
  private static void oneCaller(int ops) throws Exception {
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

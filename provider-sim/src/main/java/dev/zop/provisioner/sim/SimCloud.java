package dev.zop.provisioner.sim;

import dev.zop.provisioner.spec.DatastoreEngine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * <b>A test double</b>: an in-memory cloud the {@code sim} provider provisions into. Tests inspect it to prove
 * that nothing leaked or was created twice, and inject faults into it: throttling, permission denied on an
 * operation, quota exceeded, resources stuck creating, latency.
 *
 * <p>Thread-safe. One instance may be shared by several engines in one JVM.
 */
public final class SimCloud {
  private static final SimCloud SHARED = fromEnvironment();

  /** The status of a simulated resource. */
  public enum Status { CREATING, ACTIVE }

  /** A resource in the simulated cloud. {@code tags} carry the owning job, as real providers tag theirs. */
  public record Resource(String type, String name, Map<String, String> attributes, Map<String, String> tags,
      Instant createdAt, Instant readyAt) {
    public Resource {
      attributes = Map.copyOf(attributes);
      tags = Map.copyOf(tags);
    }

    public Status status(Instant now) {
      return readyAt == null || now.isBefore(readyAt) ? Status.CREATING : Status.ACTIVE;
    }
  }

  /**
   * A real database server a simulated SQL datastore stands for, so databases and users can be created on it.
   * {@code adminPassword} may be empty (trust authentication).
   */
  public record Server(String host, int port, String adminUser, String adminPassword) {}

  /** One API call as the cloud saw it; {@code caller} is the job and step that made it, when known. */
  public record Call(String operation, String caller) {}

  private final Map<String, Resource> resources = new ConcurrentHashMap<>();
  private volatile java.util.function.Consumer<String> accepted = operation -> {};
  private final Map<String, AtomicInteger> creates = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> modifications = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> stepRuns = new ConcurrentHashMap<>();
  private final Queue<Call> calls = new ConcurrentLinkedQueue<>();
  private final Set<String> denied = ConcurrentHashMap.newKeySet();
  private final Set<String> quotaExceeded = ConcurrentHashMap.newKeySet();
  private final Set<String> unsupported = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> throttleNext = new ConcurrentHashMap<>();
  private final Map<String, Duration> creatingTime = new ConcurrentHashMap<>();
  private final Set<String> stuck = ConcurrentHashMap.newKeySet();
  private final ThreadLocal<String> caller = new ThreadLocal<>();
  private final Map<DatastoreEngine, Server> servers = new ConcurrentHashMap<>();
  private final Map<String, String> workloads = new ConcurrentHashMap<>();
  private final Set<String> frozen = ConcurrentHashMap.newKeySet();
  private final Map<String, String> secretValues = new ConcurrentHashMap<>();
  private volatile boolean secretStore;
  private volatile boolean recordCalls = true;
  private volatile double throttleRate;
  private volatile Random random = new Random(42);
  private volatile Duration latency = Duration.ZERO;
  private volatile Duration pollInterval = Duration.ofSeconds(1);
  private volatile Clock clock = Clock.systemUTC();

  /** The instance the {@code sim} provider found by {@link java.util.ServiceLoader} uses. */
  public static SimCloud shared() {
    return SHARED;
  }

  /**
   * The shared cloud as a separate process (say {@code zop serve} in a test) configures it: {@code ZOP_SIM_POLL_MS}
   * sets how often waiting steps are polled, and {@code ZOP_SIM_POSTGRES=host:port:user:password} backs postgres
   * datastores with that real server.
   */
  private static SimCloud fromEnvironment() {
    SimCloud cloud = new SimCloud();
    String poll = System.getenv("ZOP_SIM_POLL_MS");
    if (poll != null && !poll.isBlank()) {
      cloud.pollInterval(Duration.ofMillis(Long.parseLong(poll.trim())));
    }
    String postgres = System.getenv("ZOP_SIM_POSTGRES");
    if (postgres != null && !postgres.isBlank()) {
      String[] parts = postgres.split(":", 4);
      cloud.backDatastores(DatastoreEngine.POSTGRES, new Server(parts[0], Integer.parseInt(parts[1]), parts[2],
          parts.length > 3 ? parts[3] : ""));
    }
    return cloud;
  }

  public static SimCloud create() {
    return new SimCloud();
  }

  // ---- configuration and fault injection ------------------------------------------------------------------

  /**
   * Each API call takes this long, interruptibly, as a network call would: half before the cloud acts and half
   * after, so a caller can die between a change and hearing of it.
   */
  public SimCloud latency(Duration value) {
    this.latency = value;
    return this;
  }

  /** How long the sim provider asks the engine to wait before checking a creating resource again. */
  public SimCloud pollInterval(Duration value) {
    this.pollInterval = value;
    return this;
  }

  public Duration pollInterval() {
    return pollInterval;
  }

  /** Resources of {@code type} stay CREATING for {@code duration} after they are created. */
  public SimCloud creatingTime(String type, Duration duration) {
    creatingTime.put(type, duration);
    return this;
  }

  /** Resources of {@code type} never leave CREATING (until {@link #unstick}). */
  public SimCloud stuckCreating(String type) {
    stuck.add(type);
    return this;
  }

  public SimCloud unstick(String type) {
    stuck.remove(type);
    resources.replaceAll((k, r) -> r.type().equals(type) && r.readyAt() == null
        ? new Resource(r.type(), r.name(), r.attributes(), r.tags(), r.createdAt(), now()) : r);
    return this;
  }

  /** Every call of {@code operation} is refused with access denied until {@link #allow}. */
  public SimCloud deny(String operation) {
    denied.add(operation);
    return this;
  }

  public SimCloud allow(String operation) {
    denied.remove(operation);
    return this;
  }

  /** Creating a resource of {@code type} fails with quota exceeded until {@link #clearQuota}. */
  public SimCloud quotaExceeded(String type) {
    quotaExceeded.add(type);
    return this;
  }

  public SimCloud clearQuota(String type) {
    quotaExceeded.remove(type);
    return this;
  }

  /**
   * Every call of {@code operation} is refused as an API the cloud does not support, which no retry mends (a
   * {@code system} failure), until {@link #support}.
   */
  public SimCloud unsupported(String operation) {
    unsupported.add(operation);
    return this;
  }

  public SimCloud support(String operation) {
    unsupported.remove(operation);
    return this;
  }

  /** A fault in force: its kind, what it applies to, and for throttling how many calls it still refuses. */
  public record Fault(String kind, String target, Integer remaining) {}

  /**
   * The faults in force: {@code access_denied}, {@code throttled} and {@code unsupported} by operation,
   * {@code quota_exceeded} by resource type; a random throttling rate is not listed.
   */
  public List<Fault> faults() {
    List<Fault> out = new ArrayList<>();
    denied.stream().sorted().forEach(op -> out.add(new Fault("access_denied", op, null)));
    quotaExceeded.stream().sorted().forEach(type -> out.add(new Fault("quota_exceeded", type, null)));
    throttleNext.entrySet().stream().filter(e -> e.getValue().get() > 0).sorted(Map.Entry.comparingByKey())
        .forEach(e -> out.add(new Fault("throttled", e.getKey(), e.getValue().get())));
    unsupported.stream().sorted().forEach(op -> out.add(new Fault("unsupported", op, null)));
    return out;
  }

  /** Lifts every fault {@link #faults} lists. */
  public SimCloud clearFaults() {
    denied.clear();
    quotaExceeded.clear();
    throttleNext.clear();
    unsupported.clear();
    return this;
  }

  /** This cloud's faults as a service injects and lifts them ({@code zop serve --demo}'s Simulation page). */
  public dev.zop.provisioner.spi.FaultInjection faultInjection() {
    SimCloud cloud = this;
    return new dev.zop.provisioner.spi.FaultInjection() {
      @Override
      public void deny(String operation) {
        cloud.deny(operation);
      }

      @Override
      public void quotaExceeded(String resourceType) {
        cloud.quotaExceeded(resourceType);
      }

      @Override
      public void throttleNext(String operation, int times) {
        cloud.throttleNext(operation, times);
      }

      @Override
      public void unsupported(String operation) {
        cloud.unsupported(operation);
      }

      @Override
      public void clearFaults() {
        cloud.clearFaults();
      }

      @Override
      public List<Fault> faults() {
        return cloud.faults().stream().map(f -> new Fault(f.kind(), f.target(), f.remaining())).toList();
      }

      @Override
      public List<String> operationsCalled() {
        return cloud.operationsCalled();
      }

      @Override
      public List<String> resourceTypes() {
        return cloud.resourceTypes();
      }
    };
  }

  /** The operations called so far and the resource types made so far, each once, sorted. */
  public List<String> operationsCalled() {
    return calls.stream().map(Call::operation).distinct().sorted().toList();
  }

  public List<String> resourceTypes() {
    return resources.values().stream().map(Resource::type).distinct().sorted().toList();
  }

  /** The next {@code times} calls of {@code operation} are throttled. */
  public SimCloud throttleNext(String operation, int times) {
    throttleNext.computeIfAbsent(operation, k -> new AtomicInteger()).addAndGet(times);
    return this;
  }

  /** Each call is throttled with this probability, drawn from a seeded generator so runs repeat. */
  public SimCloud throttleRate(double rate, long seed) {
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("rate must be within [0, 1]");
    }
    this.random = new Random(seed);
    this.throttleRate = rate;
    return this;
  }

  /** Datastores of {@code engine} created from now on stand for this real server. */
  public SimCloud backDatastores(DatastoreEngine engine, Server server) {
    servers.put(engine, server);
    return this;
  }

  Server backingServer(DatastoreEngine engine) {
    return servers.get(engine);
  }

  /**
   * Whether sessions on this cloud offer their own secret store (an in-memory map, references
   * {@code sim-secrets:...}). Off by default, so the engine's local store is used.
   */
  public SimCloud secretStore(boolean enabled) {
    this.secretStore = enabled;
    return this;
  }

  boolean hasSecretStore() {
    return secretStore;
  }

  /** The values in the simulated secret store, by name; for tests that check what was stored and removed. */
  public Map<String, String> secretValues() {
    return Map.copyOf(secretValues);
  }

  Map<String, String> secretMap() {
    return secretValues;
  }

  /**
   * A running workload (VM, database, service) that remediation can act on, in {@code state}
   * ({@code running}, {@code stopped}, ...).
   */
  public SimCloud workload(String id, String state) {
    workloads.put(id, state);
    return this;
  }

  /** The workload's state, or null when there is none. */
  public String workloadState(String id) {
    return workloads.get(id);
  }

  /** Calls that change the workload succeed but change nothing, as a cloud that ignores a request would. */
  public SimCloud freeze(String id) {
    frozen.add(id);
    return this;
  }

  String observeWorkload(String operation, String id) throws InterruptedException {
    call(operation);
    String state = workloads.get(id);
    if (state == null) {
      throw new SimException(SimException.Code.NOT_FOUND, operation, "no resource " + id);
    }
    respond();
    return state;
  }

  void changeWorkload(String operation, String id, String state) throws InterruptedException {
    call(operation);
    if (!workloads.containsKey(id)) {
      throw new SimException(SimException.Code.NOT_FOUND, operation, "no resource " + id);
    }
    if (!frozen.contains(id)) {
      workloads.put(id, state);
    }
    accepted.accept(operation);
    respond();
  }

  /**
   * Called right after this cloud accepted a change, on the caller's thread, with the operation's name: where the
   * provider TCK's crash matrix counts changes and halts a caller (what it throws reaches the step).
   */
  public void onAccepted(java.util.function.Consumer<String> listener) {
    this.accepted = java.util.Objects.requireNonNull(listener);
  }

  /** Turns the call log off, for load runs where it would only grow. */
  public SimCloud recordCalls(boolean value) {
    this.recordCalls = value;
    return this;
  }

  public SimCloud clock(Clock value) {
    this.clock = value;
    return this;
  }

  /** Forgets every resource, counter, call and fault. */
  public SimCloud reset() {
    resources.clear();
    creates.clear();
    stepRuns.clear();
    calls.clear();
    denied.clear();
    quotaExceeded.clear();
    throttleNext.clear();
    unsupported.clear();
    creatingTime.clear();
    stuck.clear();
    throttleRate = 0;
    latency = Duration.ZERO;
    servers.clear();
    workloads.clear();
    frozen.clear();
    secretValues.clear();
    secretStore = false;
    return this;
  }

  // ---- inspection -----------------------------------------------------------------------------------------

  public List<Resource> resources() {
    List<Resource> all = new ArrayList<>(resources.values());
    all.sort(Comparator.comparing(Resource::type).thenComparing(Resource::name));
    return all;
  }

  public List<Resource> resources(String type) {
    return resources().stream().filter(r -> r.type().equals(type)).toList();
  }

  /** The resources tagged as created by {@code jobId}. */
  public List<Resource> resourcesOf(String jobId) {
    return resources().stream().filter(r -> jobId.equals(r.tags().get(SimProvider.JOB_TAG))).toList();
  }

  public Resource find(String type, String name) {
    return resources.get(key(type, name));
  }

  /** How many times a resource with this type and name was successfully created, over the cloud's life. */
  public int createCount(String type, String name) {
    AtomicInteger n = creates.get(key(type, name));
    return n == null ? 0 : n.get();
  }

  /** The highest create count of any resource: 1 when nothing was ever created twice. */
  public int maxCreateCount() {
    return creates.values().stream().mapToInt(AtomicInteger::get).max().orElse(0);
  }

  /** How many times the sim provider ran a step of a job (every attempt, every resume). */
  public int stepRuns(String jobId, String stepName) {
    AtomicInteger n = stepRuns.get(jobId + "/" + stepName);
    return n == null ? 0 : n.get();
  }

  public Map<String, Integer> stepRuns() {
    Map<String, Integer> copy = new java.util.TreeMap<>();
    stepRuns.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /**
   * A network that exists before any job, as in an account with a VPC made by hand: {@code vpcId} with the given
   * subnets (each {@code id=cidr}). Discovery finds it; jobs may name it.
   */
  public SimCloud existingNetwork(String vpcId, String cidr, Map<String, String> subnets) {
    Instant now = now();
    resources.put(key("vpc", vpcId), new Resource("vpc", vpcId, Map.of("cidr", cidr), Map.of(), now, now));
    subnets.forEach((id, subnetCidr) -> resources.put(key("subnet", id),
        new Resource("subnet", id, Map.of("cidr", subnetCidr, "vpc", vpcId), Map.of(), now, now)));
    return this;
  }

  /** A DNS zone that exists before any job runs, as discovery finds it. */
  public SimCloud existingDnsZone(String name) {
    Instant now = now();
    resources.put(key("dns-zone", name), new Resource("dns-zone", name, Map.of(), Map.of(), now, now));
    return this;
  }

  /**
   * Someone changes attributes of a resource by hand, outside any job (as in the cloud's console): the values given
   * replace the resource's, the rest stay.
   */
  public SimCloud changeByHand(String type, String name, Map<String, String> values) {
    Resource changed = resources.computeIfPresent(key(type, name), (k, r) -> {
      Map<String, String> attributes = new java.util.LinkedHashMap<>(r.attributes());
      attributes.putAll(values);
      return new Resource(type, name, attributes, r.tags(), r.createdAt(), r.readyAt());
    });
    if (changed == null) {
      throw new IllegalArgumentException(type + " " + name + " does not exist");
    }
    return this;
  }

  /** Someone deletes a resource by hand, outside any job. */
  public SimCloud deleteByHand(String type, String name) {
    if (resources.remove(key(type, name)) == null) {
      throw new IllegalArgumentException(type + " " + name + " does not exist");
    }
    return this;
  }

  // ---- the cloud API the sim provider calls ----------------------------------------------------------------

  List<Resource> list(String operation, String type) throws InterruptedException {
    call(operation);
    List<Resource> found = resources(type);
    respond();
    return found;
  }

  Resource describe(String operation, String type, String name) throws InterruptedException {
    call(operation);
    Resource found = resources.get(key(type, name));
    respond();
    return found;
  }

  Resource create(String operation, String type, String name, Map<String, String> attributes,
      Map<String, String> tags) throws InterruptedException {
    call(operation);
    if (quotaExceeded.contains(type)) {
      throw new SimException(SimException.Code.QUOTA_EXCEEDED, operation, "quota for " + type + " exceeded");
    }
    Instant now = now();
    Instant ready = stuck.contains(type) ? null : now.plus(creatingTime.getOrDefault(type, Duration.ZERO));
    Resource resource = new Resource(type, name, attributes, tags, now, ready);
    Resource existing = resources.putIfAbsent(key(type, name), resource);
    if (existing != null) {
      throw new SimException(SimException.Code.ALREADY_EXISTS, operation, type + " " + name + " already exists");
    }
    creates.computeIfAbsent(key(type, name), k -> new AtomicInteger()).incrementAndGet();
    accepted.accept(operation);
    respond();
    return resource;
  }

  /** Changes a resource's attributes where it stands, as an update call of a real cloud does. */
  void modify(String operation, String type, String name, Map<String, String> attributes)
      throws InterruptedException {
    call(operation);
    Resource changed = resources.computeIfPresent(key(type, name), (k, r) -> new Resource(type, name, attributes,
        r.tags(), r.createdAt(), r.readyAt()));
    if (changed == null) {
      throw new SimException(SimException.Code.NOT_FOUND, operation, type + " " + name + " not found");
    }
    modifications.computeIfAbsent(key(type, name), k -> new AtomicInteger()).incrementAndGet();
    accepted.accept(operation);
    respond();
  }

  /** Adds tags to a resource, keeping the ones it has. */
  void tag(String operation, String type, String name, Map<String, String> tags) throws InterruptedException {
    call(operation);
    Resource changed = resources.computeIfPresent(key(type, name), (k, r) -> {
      Map<String, String> merged = new java.util.LinkedHashMap<>(r.tags());
      merged.putAll(tags);
      return new Resource(type, name, r.attributes(), merged, r.createdAt(), r.readyAt());
    });
    if (changed == null) {
      throw new SimException(SimException.Code.NOT_FOUND, operation, type + " " + name + " not found");
    }
    accepted.accept(operation);
    respond();
  }

  /** How many times a resource was changed where it stands. */
  public int modifyCount(String type, String name) {
    AtomicInteger count = modifications.get(key(type, name));
    return count == null ? 0 : count.get();
  }

  void delete(String operation, String type, String name) throws InterruptedException {
    call(operation);
    if (resources.remove(key(type, name)) == null) {
      throw new SimException(SimException.Code.NOT_FOUND, operation, type + " " + name + " not found");
    }
    accepted.accept(operation);
    respond();
  }

  Instant now() {
    return clock.instant();
  }

  /**
   * The job and step whose call is running on this thread, as {@code jobId/stepName}, or null outside a step: for a
   * listener of {@link #onAccepted} that must know which step made the change.
   */
  public String callingStep() {
    return caller.get();
  }

  void enterStep(String jobId, String stepName) {
    caller.set(jobId + "/" + stepName);
    stepRuns.computeIfAbsent(jobId + "/" + stepName, k -> new AtomicInteger()).incrementAndGet();
  }

  void leaveStep() {
    caller.remove();
  }

  private void call(String operation) throws InterruptedException {
    if (recordCalls) {
      calls.add(new Call(operation, caller.get()));
    }
    if (!latency.isZero()) {
      Thread.sleep(latency.toMillis() / 2);
    }
    if (denied.contains(operation)) {
      throw new SimException(SimException.Code.ACCESS_DENIED, operation, "not authorized to perform " + operation);
    }
    if (unsupported.contains(operation)) {
      throw new SimException(SimException.Code.UNSUPPORTED, operation, operation + " is not supported here");
    }
    AtomicInteger pending = throttleNext.get(operation);
    if (pending != null && pending.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new SimException(SimException.Code.THROTTLED, operation, "rate exceeded");
    }
    if (throttleRate > 0) {
      boolean throttled;
      synchronized (this) {
        throttled = random.nextDouble() < throttleRate;
      }
      if (throttled) {
        throw new SimException(SimException.Code.THROTTLED, operation, "rate exceeded");
      }
    }
  }

  private void respond() throws InterruptedException {
    if (!latency.isZero()) {
      Thread.sleep(latency.toMillis() - latency.toMillis() / 2);
    }
  }

  private static String key(String type, String name) {
    return type + "/" + name;
  }
}

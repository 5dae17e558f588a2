package dev.zop.provisioner.examples;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Connection;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Database;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.PlanStep;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

/**
 * A tour of the SDK on the embedded engine and the simulated cloud: create a space, review a cluster plan,
 * provision a cluster and a database server while watching progress, recover from a failure, create a real
 * database and log in to it, tear it all down.
 *
 * <p>The {@code sim} provider is a test double that lives in this JVM; no cloud is touched.
 */
public final class Quickstart {
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  public static void main(String[] args) throws Exception {
    // Make the simulated cloud feel like one: slow calls, a cluster that takes a few seconds to come up.
    SimCloud cloud = SimCloud.shared()
        .latency(Duration.ofMillis(100))
        .pollInterval(Duration.ofMillis(500))
        .creatingTime("kubernetes-cluster", Duration.ofSeconds(3))
        .creatingTime("db-instance", Duration.ofSeconds(2));

    // The simulated database server stands for the real PostgreSQL on this machine, so databases made below
    // are real ones: said before anything is made, and left alone with --no-database.
    boolean databases = !java.util.List.of(args).contains("--no-database");
    SimCloud.Server postgres = databases ? localPostgres() : null;
    if (postgres != null) {
      cloud.backDatastores(DatastoreEngine.POSTGRES, postgres);
      say("PostgreSQL answers on " + postgres.host() + ":" + postgres.port() + " (as " + postgres.adminUser()
          + "): step 4 creates a database checkout_<id> and a role checkout_app_<id> there, logs in, and drops"
          + " both.\nTo leave it alone: ./mvnw -q -pl examples exec:java -Dexec.args=--no-database\n");
    }

    // The embedded default keeps its store in ~/.local/share/zop-provisioner; the tour uses a fresh one so it
    // can run again and again, and removes it at the end. Providers (here: sim) are found on the class path.
    Path store = Files.createTempDirectory("zop-quickstart");
    try (Provisioner zop = EmbeddedProvisioner.builder().dataDirectory(store).build()) {
      say("Store: " + store + " (removed at the end)");
      tour(zop, cloud, space(zop), postgres);
    } finally {
      deleteTree(store);
    }
  }

  private static Space space(Provisioner zop) {
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "sandbox"));
    return zop.spaces().create(SpaceRequest.of("sim", "checkout-sim-east-1", account.id()).region("sim-east-1"));
  }

  private static void tour(Provisioner zop, SimCloud cloud, Space space, SimCloud.Server postgres)
      throws Exception {
    say("Space " + space.name() + " (" + space.id() + ") in " + space.region());

    // 1. Review: what a cluster job would do and cost, before anything changes.
    KubernetesSpec cluster = KubernetesSpec.named("checkout-prod").version("1.30")
        .nodeGroup("default", "m5.large", 2, 6)
        .build();
    Plan plan = zop.jobs().plan(space.id(), cluster);
    say("\nPlan for cluster " + cluster.name() + ":");
    for (PlanStep step : plan.steps()) {
      say("  step %-26s %s".formatted(step.name(), String.join(", ", step.permissions())));
    }
    for (CostComponent cost : plan.costs()) {
      say("  cost %-40s %s".formatted(cost.name(),
          cost.priceKnown() ? "$" + cost.monthly() + "/month" : cost.note()));
    }
    say("  estimated total: $" + plan.monthlyTotal() + "/month");

    // 2. Provision: submit returns at once; watch shows progress as the engine works.
    Job clusterJob = zop.jobs().submit(space.id(), cluster);
    Job dbJob;
    cloud.deny("database:CreateDBInstance"); // an injected fault: the account may not create databases
    dbJob = zop.jobs().submit(space.id(), DatastoreSpec.postgres().name("checkout-db").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7));
    say("\nSubmitted " + clusterJob.id() + " (cluster) and " + dbJob.id() + " (datastore)");

    try (Subscription a = zop.jobs().watch(clusterJob.id(), Quickstart::progress);
        Subscription b = zop.jobs().watch(dbJob.id(), Quickstart::progress)) {
      clusterJob = zop.jobs().await(clusterJob.id(), PATIENCE);
      dbJob = zop.jobs().await(dbJob.id(), PATIENCE);
      Thread.sleep(300); // let the watchers print the last events

      say("\nCluster job: " + clusterJob.status().wireName() + ", endpoint "
          + clusterJob.outputs().get("endpoint") + ", registered as space " + clusterJob.outputs().get("spaceId"));
      Failure failure = dbJob.lastFailure();
      say("Datastore job: " + dbJob.status().wireName() + " - " + failure.category().wireName() + " "
          + failure.code() + ": " + failure.message());
      say("  fix: " + failure.fixHint());
      say("  console: " + failure.consoleUrl());

      // 3. Fix the cause and retry: completed steps are kept, the failed one runs again.
      cloud.allow("database:CreateDBInstance");
      say("\nPermission granted; retrying " + dbJob.id());
      zop.jobs().retry(dbJob.id());
      dbJob = zop.jobs().await(dbJob.id(), PATIENCE);
      Thread.sleep(300);
    }
    say("Datastore job: " + dbJob.status().wireName() + ", host " + dbJob.outputs().get("host") + ":"
        + dbJob.outputs().get("port"));
    say("Simulated cloud now holds " + cloud.resources().size() + " resources");

    // 4. A database on the datastore, a connection to it, and a login with the credentials it refers to.
    if (postgres != null) {
      databaseTour(zop, dbJob);
    } else {
      say("\n(No PostgreSQL used: skipping the database part of the tour.)");
    }

    // 5. Tear down: deleting a job runs its teardown steps in reverse order.
    zop.jobs().delete(clusterJob.id());
    zop.jobs().delete(dbJob.id());
    say("\nTearing down: cluster " + zop.jobs().await(clusterJob.id(), PATIENCE).status().wireName()
        + ", datastore " + zop.jobs().await(dbJob.id(), PATIENCE).status().wireName());
    say("Simulated cloud now holds " + cloud.resources().size() + " resources");
    if (!cloud.resources().isEmpty()) {
      throw new IllegalStateException("teardown left resources behind: " + cloud.resources());
    }
  }

  private static void databaseTour(Provisioner zop, Job datastore) throws Exception {
    String suffix = datastore.id().value().substring(4, 10);
    Database db = zop.jobs().databases(datastore.id()).create("checkout_" + suffix, "checkout_app_" + suffix);
    Connection connection = zop.jobs().databases(datastore.id()).connections(db.id()).create();
    say("\nDatabase " + db.name() + " owned by " + db.owner() + " on " + db.host() + ":" + db.port());
    say("Connection " + connection.id() + ": user " + connection.user() + ", password at " + connection.secretRef());

    String password = zop.secrets().reveal(connection.secretRef()); // a separate, deliberate call
    String url = "jdbc:postgresql://" + connection.host() + ":" + connection.port() + "/" + connection.database();
    try (java.sql.Connection sql = DriverManager.getConnection(url, connection.user(), password);
        Statement statement = sql.createStatement()) {
      statement.execute("CREATE TABLE orders (id INT PRIMARY KEY, total NUMERIC)");
      statement.execute("INSERT INTO orders VALUES (1, 42.50), (2, 17.25)");
      try (ResultSet rs = statement.executeQuery("SELECT count(*), sum(total) FROM orders")) {
        rs.next();
        say("Logged in as " + connection.user() + ": " + rs.getInt(1) + " orders worth " + rs.getBigDecimal(2));
      }
    }
    zop.jobs().databases(datastore.id()).delete(db.id());
    say("Dropped database " + db.name() + " and its owner");
  }

  private static void deleteTree(Path root) throws java.io.IOException {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** The machine's PostgreSQL, if one answers. */
  private static SimCloud.Server localPostgres() {
    try {
      return TestDatabaseServers.postgres();
    } catch (IllegalStateException e) {
      return null;
    }
  }

  private static void progress(JobEvent event) {
    String step = event.stepName() == null ? "" : " " + event.stepName();
    if (event.type() == JobEventType.STATUS) {
      step = " -> " + event.status().wireName();
    }
    String message = event.message() == null ? "" : " - " + event.message();
    say("  [%s] %-15s%s%s".formatted(event.jobId().value().substring(4, 10), event.type().wireName(), step,
        message));
  }

  private static void say(String line) {
    System.out.println(line);
  }
}

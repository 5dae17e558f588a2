package dev.zop.provisioner.gcp;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.services.sqladmin.SQLAdmin;
import com.google.api.client.json.GenericJson;
import com.google.api.services.sqladmin.model.Database;
import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.DatabasesListResponse;
import com.google.api.services.sqladmin.model.InstancesListResponse;
import com.google.api.services.sqladmin.model.IpMapping;
import com.google.api.services.sqladmin.model.Operation;
import com.google.api.services.sqladmin.model.OperationsListResponse;
import com.google.api.services.sqladmin.model.Settings;
import com.google.api.services.sqladmin.model.User;
import com.google.api.services.sqladmin.model.UsersListResponse;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cloud SQL Admin in {@link GcpFake}, from its discovery-generated client ({@link DiscoveryApiFake}). Every change
 * is a {@code sql#operation} that stays PENDING for {@link GcpFake#operationPolls} reads of it or of the instance it
 * changes, and the instance reads its final state exactly when the operation reads DONE: PENDING_CREATE then
 * RUNNABLE, PENDING_DELETE then gone. A second change while one runs is refused as Cloud SQL refuses it
 * ({@code 409 operationInProgress}). The root password and users' passwords are write-only; a patch changes only
 * what its body sets; databases and users live under their instance and go with it.
 */
public final class CloudSqlFake extends DiscoveryApiFake {
  private final Map<String, DatabaseInstance> instances = new ConcurrentHashMap<>();
  private final Map<String, Database> databases = new ConcurrentHashMap<>();
  private final Map<String, User> users = new ConcurrentHashMap<>();
  private final Map<String, Operation> operations = new ConcurrentHashMap<>();
  /** Changes still running, by operation key and by instance key. */
  private final Map<String, Change> changesByOperation = new ConcurrentHashMap<>();
  private final Map<String, Change> changesByInstance = new ConcurrentHashMap<>();

  /** A change under way: its operation and its instance advance together, a step per read of either. */
  private static final class Change {
    final String operation;
    final String instance;
    final Runnable finish;
    int left;

    Change(String operation, String instance, Runnable finish, int left) {
      this.operation = operation;
      this.instance = instance;
      this.finish = finish;
      this.left = left;
    }
  }

  CloudSqlFake(GcpFake fake) {
    super(fake);
    try {
      SQLAdmin client = new SQLAdmin.Builder(new NetHttpTransport(), JSON, null).setApplicationName("fake").build();
      route(client.instances().insert("p", new DatabaseInstance()), "cloudsql.instances.create", "insert");
      route(client.instances().get("p", "i"), "cloudsql.instances.get", "get");
      route(client.instances().list("p"), "cloudsql.instances.list", "list");
      route(client.instances().delete("p", "i"), "cloudsql.instances.delete", "delete");
      route(client.instances().patch("p", "i", new DatabaseInstance()), "cloudsql.instances.update", "patch");
      route(client.databases().insert("p", "i", new Database()), "cloudsql.databases.create", "databases.insert");
      route(client.databases().get("p", "i", "d"), "cloudsql.databases.get", "databases.get");
      route(client.databases().list("p", "i"), "cloudsql.databases.list", "databases.list");
      route(client.databases().delete("p", "i", "d"), "cloudsql.databases.delete", "databases.delete");
      route(client.users().insert("p", "i", new User()), "cloudsql.users.create", "users.insert");
      route(client.users().get("p", "i", "u"), "cloudsql.users.get", "users.get");
      route(client.users().list("p", "i"), "cloudsql.users.list", "users.list");
      route(client.users().delete("p", "i"), "cloudsql.users.delete", "users.delete");
      // Cloud SQL reads its operations with the instances' get permission
      route(client.operations().get("p", "o"), "cloudsql.instances.get", "operation");
      route(client.operations().list("p"), "cloudsql.instances.list", "operations.list");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  void reset() {
    instances.clear();
    databases.clear();
    users.clear();
    operations.clear();
    changesByOperation.clear();
    changesByInstance.clear();
  }

  /** An instance made outside the provider, as a running one reads. */
  public void put(String project, DatabaseInstance instance) {
    instances.put(project + "/" + instance.getName(), instance.clone().setState("RUNNABLE"));
  }

  /** Instances held, by project and name, as Cloud SQL would answer a get of each. */
  public Map<String, DatabaseInstance> instances() {
    return new TreeMap<>(instances);
  }

  private static Reply missing() {
    return Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "instanceDoesNotExist",
        "The Cloud SQL instance does not exist."));
  }

  private static Reply inProgress() {
    return Reply.error(new GcpFake.Fault(409, "ABORTED", "operationInProgress",
        "Operation failed because another operation was already in progress."));
  }

  @Override
  Reply answer(Route route, Map<String, String> vars, HttpExchange exchange) throws IOException {
    String project = vars.get("project");
    String key = project + "/" + vars.get("instance");
    try {
      switch (route.method()) {
        case "insert" -> {
          DatabaseInstance wanted = parse(exchange, DatabaseInstance.class,
              com.google.cloud.sql.v1.DatabaseInstance.getDefaultInstance());
          if (wanted.getName() == null || wanted.getDatabaseVersion() == null || wanted.getSettings() == null
              || wanted.getSettings().getTier() == null) {
            return Reply.error(new GcpFake.Fault(400, "INVALID_ARGUMENT", "required",
                "Missing name, databaseVersion or settings.tier."));
          }
          String created = project + "/" + wanted.getName();
          if (instances.containsKey(created)) {
            return Reply.error(new GcpFake.Fault(409, "ALREADY_EXISTS", "instanceAlreadyExists",
                "The Cloud SQL instance already exists."));
          }
          boolean privateOnly = wanted.getSettings().getIpConfiguration() != null
              && wanted.getSettings().getIpConfiguration().getPrivateNetwork() != null;
          instances.put(created, wanted.clone().setRootPassword(null).setKind("sql#instance").setProject(project)
              .setConnectionName(project + ":" + wanted.getRegion() + ":" + wanted.getName())
              .setGceZone(wanted.getRegion() + "-a").setState("PENDING_CREATE")
              .setSelfLink(fake.endpoints().get("endpoint.sqladmin") + "/v1/projects/" + project + "/instances/"
                  + wanted.getName())
              // a mutable list: the client's models deep-copy what they hold
              .setIpAddresses(new ArrayList<>(List.of(new IpMapping().setType(privateOnly ? "PRIVATE" : "PRIMARY")
                  .setIpAddress("127.0.0.1")))));
          return accepted(route, change(project, "CREATE", wanted.getName(), created,
              () -> instances.computeIfPresent(created, (k, i) -> i.clone().setState("RUNNABLE"))));
        }
        case "get" -> {
          advance(changesByInstance.get(key));
          DatabaseInstance found = instances.get(key);
          return found == null ? missing() : Reply.ok(found);
        }
        case "list" -> {
          return Reply.ok(new InstancesListResponse().setKind("sql#instancesList").setItems(new ArrayList<>(
              instances.entrySet().stream().filter(e -> e.getKey().startsWith(project + "/"))
                  .map(Map.Entry::getValue).toList())));
        }
        case "delete" -> {
          DatabaseInstance found = instances.get(key);
          if (found == null) {
            return missing();
          }
          if (changesByInstance.containsKey(key)) {
            return inProgress();
          }
          instances.put(key, found.clone().setState("PENDING_DELETE"));
          return accepted(route, change(project, "DELETE", vars.get("instance"), key, () -> {
            instances.remove(key);
            databases.keySet().removeIf(k -> k.startsWith(key + "/"));
            users.keySet().removeIf(k -> k.startsWith(key + "/"));
          }));
        }
        case "patch" -> {
          DatabaseInstance change = parse(exchange, DatabaseInstance.class,
              com.google.cloud.sql.v1.DatabaseInstance.getDefaultInstance());
          DatabaseInstance found = instances.get(key);
          if (found == null) {
            return missing();
          }
          if (changesByInstance.containsKey(key)) {
            return inProgress();
          }
          DatabaseInstance patched = found.clone();
          // a patch sets the settings it carries and leaves the others as they are; the disk never shrinks
          if (change.getSettings() != null) {
            Settings settings = patched.getSettings() == null ? new Settings() : patched.getSettings().clone();
            Long disk = change.getSettings().getDataDiskSizeGb();
            if (disk != null && settings.getDataDiskSizeGb() != null && disk < settings.getDataDiskSizeGb()) {
              return Reply.error(new GcpFake.Fault(400, "INVALID_ARGUMENT", "invalid",
                  "The disk size cannot be decreased."));
            }
            change.getSettings().forEach(settings::set);
            patched.setSettings(settings);
          }
          instances.put(key, patched);
          return accepted(route, change(project, "UPDATE", vars.get("instance"), key, () -> { }));
        }
        case "databases.insert", "users.insert" -> {
          if (!instances.containsKey(key)) {
            return missing();
          }
          boolean database = route.method().startsWith("databases");
          GenericJson wanted = database
              ? parse(exchange, Database.class, com.google.cloud.sql.v1.Database.getDefaultInstance())
              : parse(exchange, User.class, com.google.cloud.sql.v1.User.getDefaultInstance());
          String name = (String) wanted.get("name");
          if (name == null || name.isEmpty()) {
            return Reply.error(new GcpFake.Fault(400, "INVALID_ARGUMENT", "required", "Missing name."));
          }
          String child = key + "/" + name;
          if (database ? databases.containsKey(child) : users.containsKey(child)) {
            return Reply.error(new GcpFake.Fault(409, "ALREADY_EXISTS", "alreadyExists",
                (database ? "Database" : "User") + " '" + name + "' already exists."));
          }
          if (database) {
            databases.put(child, ((Database) wanted).clone().setKind("sql#database").setProject(project)
                .setInstance(vars.get("instance")).setCharset("UTF8").setSelfLink(fake.endpoints()
                    .get("endpoint.sqladmin") + "/v1/projects/" + project + "/instances/" + vars.get("instance")
                    + "/databases/" + name));
          } else {
            users.put(child, ((User) wanted).clone().setPassword(null).setKind("sql#user").setProject(project)
                .setInstance(vars.get("instance")));
          }
          return accepted(route, change(project, database ? "CREATE_DATABASE" : "CREATE_USER",
              vars.get("instance"), child, () -> { }));
        }
        case "databases.get", "users.get" -> {
          String child = key + "/" + vars.get(route.method().startsWith("databases") ? "database" : "name");
          Object found = route.method().startsWith("databases") ? databases.get(child) : users.get(child);
          return found != null ? Reply.ok(found) : Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "notFound",
              "The " + (route.method().startsWith("databases") ? "database" : "user") + " does not exist."));
        }
        case "databases.list" -> {
          return instances.containsKey(key) ? Reply.ok(new DatabasesListResponse().setKind("sql#databasesList")
              .setItems(new ArrayList<>(children(databases, key)))) : missing();
        }
        case "users.list" -> {
          return instances.containsKey(key) ? Reply.ok(new UsersListResponse().setKind("sql#usersList")
              .setItems(new ArrayList<>(children(users, key)))) : missing();
        }
        case "databases.delete", "users.delete" -> {
          boolean database = route.method().startsWith("databases");
          String name = database ? vars.get("database") : query(exchange, "name");
          String child = key + "/" + name;
          if ((database ? databases.remove(child) : users.remove(child)) == null) {
            return Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "notFound",
                "The " + (database ? "database" : "user") + " does not exist."));
          }
          return accepted(route, change(project, database ? "DELETE_DATABASE" : "DELETE_USER",
              vars.get("instance"), child, () -> { }));
        }
        case "operation" -> {
          String opKey = project + "/" + vars.get("operation");
          advance(changesByOperation.get(opKey));
          Operation op = operations.get(opKey);
          return op != null ? Reply.ok(op) : Reply.error(new GcpFake.Fault(404, "NOT_FOUND",
              "operationDoesNotExist", "The Cloud SQL operation does not exist."));
        }
        case "operations.list" -> {
          return Reply.ok(new OperationsListResponse().setKind("sql#operationsList").setItems(new ArrayList<>(
              children(operations, project))));
        }
        default -> throw new IllegalStateException(route.method());
      }
    } catch (BadRequest e) {
      return e.reply();
    }
  }

  private static <T> List<T> children(Map<String, T> held, String parent) {
    return new TreeMap<>(held).entrySet().stream()
        .filter(e -> e.getKey().startsWith(parent + "/") && e.getKey().indexOf('/', parent.length() + 1) < 0)
        .map(Map.Entry::getValue).toList();
  }

  private static String query(HttpExchange exchange, String name) {
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && java.net.URLDecoder.decode(pair.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8)
            .equals(name)) {
          return java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
    }
    return null;
  }

  /** The change is stored: where the crash matrix may stop the caller, before the answer is sent. */
  private Reply accepted(Route route, Operation op) throws IOException {
    fake.acceptedChange(route.permission());
    return Reply.ok(op);
  }

  /** Starts a change of {@code target} (an instance, or a database or user under one) and answers its operation. */
  private Operation change(String project, String type, String instance, String target, Runnable finish) {
    String name = UUID.randomUUID().toString();
    String opKey = project + "/" + name;
    operations.put(opKey, new Operation().setKind("sql#operation").setName(name).setOperationType(type)
        .setStatus("PENDING").setTargetId(instance).setTargetProject(project)
        .setTargetLink(fake.endpoints().get("endpoint.sqladmin") + "/v1/projects/" + project + "/instances/"
            + instance)
        .setSelfLink(fake.endpoints().get("endpoint.sqladmin") + "/v1/projects/" + project + "/operations/"
            + name));
    Change change = new Change(opKey, target, finish, fake.operationPolls());
    if (change.left <= 0) {
      finish(change);
    } else {
      changesByOperation.put(opKey, change);
      changesByInstance.put(target, change);
    }
    return operations.get(opKey);
  }

  private synchronized void advance(Change change) {
    if (change == null) {
      return;
    }
    if (change.left > 0) {
      change.left--;
    } else {
      finish(change);
    }
  }

  private synchronized void finish(Change change) {
    changesByOperation.remove(change.operation, change);
    changesByInstance.remove(change.instance, change);
    change.finish.run();
    operations.computeIfPresent(change.operation, (k, op) -> op.clone().setStatus("DONE"));
  }
}

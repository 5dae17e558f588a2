package dev.zop.provisioner.gcp;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.services.sqladmin.SQLAdmin;
import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.InstancesListResponse;
import com.google.api.services.sqladmin.model.IpMapping;
import com.google.api.services.sqladmin.model.Operation;
import com.google.api.services.sqladmin.model.Settings;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cloud SQL Admin in {@link GcpFake}, from its discovery-generated client ({@link DiscoveryApiFake}). Instances
 * read PENDING_CREATE until their insert would be done, then RUNNABLE; the root password is write-only and never
 * read back; a patch changes only what its body sets.
 */
public final class CloudSqlFake extends DiscoveryApiFake {
  private final Map<String, DatabaseInstance> instances = new ConcurrentHashMap<>();
  private final Map<String, Integer> pendingReads = new ConcurrentHashMap<>();
  private final Map<String, Operation> operations = new ConcurrentHashMap<>();
  private final Map<String, Integer> operationReads = new ConcurrentHashMap<>();

  CloudSqlFake(GcpFake fake) {
    super(fake);
    try {
      SQLAdmin client = new SQLAdmin.Builder(new NetHttpTransport(), JSON, null).setApplicationName("fake").build();
      route(client.instances().insert("p", new DatabaseInstance()), "cloudsql.instances.create", "insert");
      route(client.instances().get("p", "i"), "cloudsql.instances.get", "get");
      route(client.instances().list("p"), "cloudsql.instances.list", "list");
      route(client.instances().delete("p", "i"), "cloudsql.instances.delete", "delete");
      route(client.instances().patch("p", "i", new DatabaseInstance()), "cloudsql.instances.update", "patch");
      // Cloud SQL reads its operations with the instances' get permission
      route(client.operations().get("p", "o"), "cloudsql.instances.get", "operation");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  void reset() {
    instances.clear();
    pendingReads.clear();
    operations.clear();
    operationReads.clear();
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

  @Override
  Reply answer(Route route, Map<String, String> vars, HttpExchange exchange) throws IOException {
    String project = vars.get("project");
    String key = project + "/" + vars.get("instance");
    try {
      switch (route.method()) {
        case "insert" -> {
          DatabaseInstance wanted = parse(exchange, DatabaseInstance.class);
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
          pendingReads.put(created, fake.operationPolls());
          return accepted(route, operation(project, "CREATE", wanted.getName()));
        }
        case "get" -> {
          DatabaseInstance found = instances.get(key);
          if (found == null) {
            return missing();
          }
          int left = pendingReads.getOrDefault(key, 0);
          if (left > 0) {
            pendingReads.put(key, left - 1);
          } else if ("PENDING_CREATE".equals(found.getState())) {
            found = found.clone().setState("RUNNABLE");
            instances.put(key, found);
          }
          return Reply.ok(found);
        }
        case "list" -> {
          return Reply.ok(new InstancesListResponse().setKind("sql#instancesList").setItems(new ArrayList<>(
              instances.entrySet().stream().filter(e -> e.getKey().startsWith(project + "/"))
                  .map(Map.Entry::getValue).toList())));
        }
        case "delete" -> {
          return instances.remove(key) == null ? missing()
              : accepted(route, operation(project, "DELETE", vars.get("instance")));
        }
        case "patch" -> {
          DatabaseInstance change = parse(exchange, DatabaseInstance.class);
          DatabaseInstance found = instances.get(key);
          if (found == null) {
            return missing();
          }
          DatabaseInstance patched = found.clone();
          if (change.getSettings() != null && change.getSettings().getActivationPolicy() != null) {
            patched.setSettings((patched.getSettings() == null ? new Settings() : patched.getSettings().clone())
                .setActivationPolicy(change.getSettings().getActivationPolicy()));
          }
          instances.put(key, patched);
          return accepted(route, operation(project, "UPDATE", vars.get("instance")));
        }
        case "operation" -> {
          String opKey = project + "/" + vars.get("operation");
          Operation op = operations.get(opKey);
          if (op == null) {
            return Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "operationDoesNotExist",
                "The Cloud SQL operation does not exist."));
          }
          int left = operationReads.getOrDefault(opKey, 0);
          if (left > 0) {
            operationReads.put(opKey, left - 1);
          } else {
            op = op.clone().setStatus("DONE");
            operations.put(opKey, op);
          }
          return Reply.ok(op);
        }
        default -> throw new IllegalStateException(route.method());
      }
    } catch (BadRequest e) {
      return e.reply();
    }
  }

  /** The change is stored: where the crash matrix may stop the caller, before the answer is sent. */
  private Reply accepted(Route route, Operation op) throws IOException {
    fake.acceptedChange(route.permission());
    return Reply.ok(op);
  }

  private Operation operation(String project, String type, String target) {
    String name = UUID.randomUUID().toString();
    Operation op = new Operation().setKind("sql#operation").setName(name).setOperationType(type)
        .setStatus(fake.operationPolls() > 0 ? "PENDING" : "DONE").setTargetId(target).setTargetProject(project)
        .setSelfLink(fake.endpoints().get("endpoint.sqladmin") + "/v1/projects/" + project + "/operations/" + name);
    operations.put(project + "/" + name, op);
    operationReads.put(project + "/" + name, fake.operationPolls());
    return op;
  }
}

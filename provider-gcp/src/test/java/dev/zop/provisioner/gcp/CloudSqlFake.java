package dev.zop.provisioner.gcp;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.GenericJson;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.client.util.ClassInfo;
import com.google.api.client.util.Data;
import com.google.api.client.util.FieldInfo;
import com.google.api.pathtemplate.PathTemplate;
import com.google.api.services.sqladmin.SQLAdmin;
import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.InstancesListResponse;
import com.google.api.services.sqladmin.model.IpMapping;
import com.google.api.services.sqladmin.model.Operation;
import com.google.api.services.sqladmin.SQLAdminRequest;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Cloud SQL Admin part of {@link GcpFake}. Cloud SQL has no protos on Maven Central; its definitions are the
 * discovery document its Java client is generated from, so this fake takes its routes from that client's own
 * request objects (their HTTP method and URI template) and parses bodies into its model classes, refusing any
 * key the model does not define, as Google refuses an unknown field. Instances read PENDING_CREATE until their
 * insert operation would be done, then RUNNABLE; the root password is write-only and never read back.
 */
public final class CloudSqlFake {
  private static final GsonFactory JSON = GsonFactory.getDefaultInstance();

  /** A route: the HTTP method and URI template of one generated request class, and its IAM permission. */
  private record Route(String verb, PathTemplate template, String permission, String method) {}

  private final GcpFake fake;
  private final List<Route> routes = new ArrayList<>();
  private final Map<String, DatabaseInstance> instances = new ConcurrentHashMap<>();
  private final Map<String, Integer> pendingReads = new ConcurrentHashMap<>();
  private final Map<String, Operation> operations = new ConcurrentHashMap<>();
  private final Map<String, Integer> operationReads = new ConcurrentHashMap<>();

  CloudSqlFake(GcpFake fake) {
    this.fake = fake;
    try {
      SQLAdmin client = new SQLAdmin.Builder(new NetHttpTransport(), JSON, null).setApplicationName("fake").build();
      add(client.instances().insert("p", new DatabaseInstance()), "cloudsql.instances.create", "insert");
      add(client.instances().get("p", "i"), "cloudsql.instances.get", "get");
      add(client.instances().list("p"), "cloudsql.instances.list", "list");
      add(client.instances().delete("p", "i"), "cloudsql.instances.delete", "delete");
      add(client.instances().patch("p", "i", new DatabaseInstance()), "cloudsql.instances.update", "patch");
      // Cloud SQL reads its operations with the instances' get permission
      add(client.operations().get("p", "o"), "cloudsql.instances.get", "operation");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private void add(SQLAdminRequest<?> request, String permission, String method) {
    routes.add(new Route(request.getRequestMethod(), PathTemplate.create(request.getUriTemplate()), permission,
        method));
  }

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

  /** Instances held, by name, as Cloud SQL would answer a get of each. */
  public Map<String, DatabaseInstance> instances() {
    return new TreeMap<>(instances);
  }

  void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      route(exchange);
    } catch (RuntimeException e) {
      // a fault in the fake itself is a 500 naming it, not a dropped connection the client would retry
      e.printStackTrace();
      GcpFake.respond(exchange, 500, GcpFake.errorBody(new GcpFake.Fault(500, "INTERNAL", "FAKE_FAILED",
          "the fake failed: " + e)));
    }
  }

  private void route(HttpExchange exchange) throws IOException {
    {
      if (!fake.authorized(exchange)) {
        GcpFake.respond(exchange, 401, GcpFake.errorBody(new GcpFake.Fault(401, "UNAUTHENTICATED",
            "authError", "Request had invalid authentication credentials.")));
        return;
      }
      String path = URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8).substring(1);
      // the JDK's HTTP client cannot send PATCH: Google's client then POSTs with the method in this header,
      // which Google's front end honours
      String override = exchange.getRequestHeaders().getFirst("X-HTTP-Method-Override");
      String verb = override != null && exchange.getRequestMethod().equals("POST") ? override
          : exchange.getRequestMethod();
      for (Route route : routes) {
        Map<String, String> vars = route.verb().equals(verb) ? route.template().match(path) : null;
        if (vars == null) {
          continue;
        }
        GcpFake.Fault fault = fake.called(route.permission());
        if (fault != null) {
          GcpFake.respond(exchange, fault.status(), GcpFake.errorBody(fault));
          return;
        }
        answer(exchange, route, vars);
        return;
      }
      GcpFake.respond(exchange, 404, GcpFake.errorBody(new GcpFake.Fault(404, "NOT_FOUND", "notFound",
          "The requested URL /" + path + " was not found on this server.")));
    }
  }

  private void answer(HttpExchange exchange, Route route, Map<String, String> vars) throws IOException {
    String project = vars.get("project");
    switch (route.method()) {
      case "insert" -> {
        DatabaseInstance wanted;
        try {
          wanted = JSON.fromString(GcpFake.body(exchange), DatabaseInstance.class);
          refuseUnknownKeys(wanted, "");
        } catch (IOException | IllegalArgumentException e) {
          GcpFake.respond(exchange, 400, GcpFake.errorBody(new GcpFake.Fault(400, "INVALID_ARGUMENT", "invalid",
              "Invalid JSON payload received. " + e.getMessage())));
          return;
        }
        if (wanted.getName() == null || wanted.getDatabaseVersion() == null || wanted.getSettings() == null
            || wanted.getSettings().getTier() == null) {
          GcpFake.respond(exchange, 400, GcpFake.errorBody(new GcpFake.Fault(400, "INVALID_ARGUMENT",
              "required", "Missing name, databaseVersion or settings.tier.")));
          return;
        }
        String key = project + "/" + wanted.getName();
        if (instances.containsKey(key)) {
          GcpFake.respond(exchange, 409, GcpFake.errorBody(new GcpFake.Fault(409, "ALREADY_EXISTS",
              "instanceAlreadyExists", "The Cloud SQL instance already exists.")));
          return;
        }
        boolean privateOnly = wanted.getSettings().getIpConfiguration() != null
            && wanted.getSettings().getIpConfiguration().getPrivateNetwork() != null;
        DatabaseInstance stored = wanted.clone().setRootPassword(null).setKind("sql#instance").setProject(project)
            .setConnectionName(project + ":" + wanted.getRegion() + ":" + wanted.getName())
            .setGceZone(wanted.getRegion() + "-a").setState("PENDING_CREATE")
            .setSelfLink(fake.endpoints().get("endpoint.sqladmin") + "/v1/projects/" + project + "/instances/"
                + wanted.getName())
            // a mutable list: the client's models deep-copy what they hold
            .setIpAddresses(new ArrayList<>(List.of(new IpMapping().setType(privateOnly ? "PRIVATE" : "PRIMARY")
                .setIpAddress("127.0.0.1"))));
        instances.put(key, stored);
        pendingReads.put(key, fake.operationPolls());
        Operation op = operation(project, "CREATE", wanted.getName());
        fake.acceptedChange(route.permission());
        GcpFake.respond(exchange, 200, JSON.toString(op));
      }
      case "get" -> {
        String key = project + "/" + vars.get("instance");
        DatabaseInstance found = instances.get(key);
        if (found == null) {
          GcpFake.respond(exchange, 404, GcpFake.errorBody(new GcpFake.Fault(404, "NOT_FOUND",
              "instanceDoesNotExist", "The Cloud SQL instance does not exist.")));
          return;
        }
        int left = pendingReads.getOrDefault(key, 0);
        if (left > 0) {
          pendingReads.put(key, left - 1);
        } else if ("PENDING_CREATE".equals(found.getState())) {
          found = found.clone().setState("RUNNABLE");
          instances.put(key, found);
        }
        GcpFake.respond(exchange, 200, JSON.toString(found));
      }
      case "list" -> {
        List<DatabaseInstance> items = instances.entrySet().stream().filter(e -> e.getKey().startsWith(project + "/"))
            .map(Map.Entry::getValue).toList();
        GcpFake.respond(exchange, 200, JSON.toString(new InstancesListResponse().setKind("sql#instancesList")
            .setItems(new ArrayList<>(items))));
      }
      case "delete" -> {
        String name = vars.get("instance");
        if (instances.remove(project + "/" + name) == null) {
          GcpFake.respond(exchange, 404, GcpFake.errorBody(new GcpFake.Fault(404, "NOT_FOUND",
              "instanceDoesNotExist", "The Cloud SQL instance does not exist.")));
          return;
        }
        Operation op = operation(project, "DELETE", name);
        fake.acceptedChange(route.permission());
        GcpFake.respond(exchange, 200, JSON.toString(op));
      }
      case "patch" -> {
        String key = project + "/" + vars.get("instance");
        DatabaseInstance found = instances.get(key);
        DatabaseInstance change;
        try {
          change = JSON.fromString(GcpFake.body(exchange), DatabaseInstance.class);
          refuseUnknownKeys(change, "");
        } catch (IOException | IllegalArgumentException e) {
          GcpFake.respond(exchange, 400, GcpFake.errorBody(new GcpFake.Fault(400, "INVALID_ARGUMENT", "invalid",
              "Invalid JSON payload received. " + e.getMessage())));
          return;
        }
        if (found == null) {
          GcpFake.respond(exchange, 404, GcpFake.errorBody(new GcpFake.Fault(404, "NOT_FOUND",
              "instanceDoesNotExist", "The Cloud SQL instance does not exist.")));
          return;
        }
        // patch semantics: only what the body sets changes (here the settings' activation policy)
        DatabaseInstance patched = found.clone();
        if (change.getSettings() != null && change.getSettings().getActivationPolicy() != null) {
          patched.setSettings((patched.getSettings() == null ? new com.google.api.services.sqladmin.model.Settings()
              : patched.getSettings().clone()).setActivationPolicy(change.getSettings().getActivationPolicy()));
        }
        instances.put(key, patched);
        Operation op = operation(project, "UPDATE", vars.get("instance"));
        fake.acceptedChange(route.permission());
        GcpFake.respond(exchange, 200, JSON.toString(op));
      }
      case "operation" -> {
        String key = project + "/" + vars.get("operation");
        Operation op = operations.get(key);
        if (op == null) {
          GcpFake.respond(exchange, 404, GcpFake.errorBody(new GcpFake.Fault(404, "NOT_FOUND",
              "operationDoesNotExist", "The Cloud SQL operation does not exist.")));
          return;
        }
        int left = operationReads.getOrDefault(key, 0);
        if (left > 0) {
          operationReads.put(key, left - 1);
        } else {
          op = op.clone().setStatus("DONE");
          operations.put(key, op);
        }
        GcpFake.respond(exchange, 200, JSON.toString(op));
      }
      default -> throw new IllegalStateException(route.method());
    }
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

  /** A key the model class does not define anywhere in the body is a 400, as Google answers it. */
  private static void refuseUnknownKeys(Object value, String at) {
    if (value instanceof GenericJson json) {
      if (!json.getUnknownKeys().isEmpty()) {
        throw new IllegalArgumentException("Unknown name \"" + json.getUnknownKeys().keySet().iterator().next()
            + "\" at '" + (at.isEmpty() ? "instance" : at) + "': Cannot find field.");
      }
      ClassInfo info = ClassInfo.of(json.getClass());
      for (String name : info.getNames()) {
        FieldInfo field = info.getFieldInfo(name);
        Object nested = field.getValue(json);
        if (nested != null && !Data.isNull(nested)) {
          refuseUnknownKeys(nested, at.isEmpty() ? name : at + "." + name);
        }
      }
    } else if (value instanceof Collection<?> list) {
      int i = 0;
      for (Object item : list) {
        refuseUnknownKeys(item, at + "[" + i++ + "]");
      }
    }
  }
}

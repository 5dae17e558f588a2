package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.server.AccessStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every route of the service, as one table assembled from the feature classes ({@link SpaceRoutes},
 * {@link JobRoutes}, {@link RemediationRoutes}), and the request helpers they share. Paths and bodies follow the
 * product documents.
 */
public final class Routes {
  /** The longest one await request is held before it answers with the job as it stands. */
  static final Duration MAX_LONG_POLL = Duration.ofSeconds(25);

  private final List<Endpoint> table = new ArrayList<>();
  private final AccessStore access;

  public Routes(AccessStore access, JobEventStreams streams) {
    this.access = access;
    service();
    SpaceRoutes.register(this);
    JobRoutes.register(this, streams);
    RemediationRoutes.register(this);
  }

  public List<Endpoint> all() {
    return List.copyOf(table);
  }

  void route(String method, String path, String policy, String summary, int status, Endpoint.Action action) {
    boolean takesBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    table.add(new Endpoint(method, path, policy, summary, status, false, takesBody, action));
  }

  /** A route that acts on its path alone; a body, if one is sent, must be empty or {@code {}}. */
  void routeWithoutBody(String method, String path, String policy, String summary, int status,
      Endpoint.Action action) {
    table.add(new Endpoint(method, path, policy, summary, status, false, false, action));
  }

  private void open(String method, String path, String summary, Endpoint.Action action) {
    table.add(new Endpoint(method, path, null, summary, 200, true, false, action));
  }

  private void service() {
    open("GET", "/healthz", "Liveness: the process answers", call -> Map.of("status", "ok"));
    open("GET", "/readyz", "Readiness: the store answers", call -> {
      access.ping();
      return Map.of("status", "ready");
    });
    route("GET", "/me", null, "The principal the bearer token names", 200, call -> call.caller().principal());
    route("GET", "/audit-log", "provisioning:view", "The organisation's audit log, newest first", 200,
        call -> page(call, access.auditLog(call.caller().principal().orgId(), 10_000), r -> Long.toString(r.id())));
  }

  /** A page of a list the engine returns whole: {@code limit} items after the one the cursor names. */
  static <T> Page<T> page(Call call, List<T> all, Function<T, String> key) {
    int limit = limit(call, JobQuery.DEFAULT_LIMIT * 2);
    String cursor = call.query("cursor");
    int from = 0;
    if (cursor != null) {
      from = -1;
      for (int i = 0; i < all.size(); i++) {
        if (("k" + key.apply(all.get(i))).equals(cursor)) {
          from = i + 1;
          break;
        }
      }
      if (from < 0) {
        throw ApiError.badRequest("cursor", "invalid_value", "the cursor does not name an item of this list");
      }
    }
    int to = Math.min(all.size(), from + limit);
    String next = to < all.size() ? "k" + key.apply(all.get(to - 1)) : null;
    return new Page<>(all.subList(from, to), next);
  }

  static int limit(Call call, int fallback) {
    String value = call.query("limit");
    if (value == null) {
      return fallback;
    }
    try {
      int limit = Integer.parseInt(value);
      if (limit < 1 || limit > JobQuery.MAX_LIMIT) {
        throw new NumberFormatException();
      }
      return limit;
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("limit", "out_of_range", "limit must be a whole number from 1 to "
          + JobQuery.MAX_LIMIT);
    }
  }

  static Duration longPoll(Call call) {
    String value = call.query("timeoutMs");
    long millis;
    try {
      millis = value == null ? MAX_LONG_POLL.toMillis() : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("timeoutMs", "invalid_value", "timeoutMs must be a number of milliseconds");
    }
    return Duration.ofMillis(Math.max(0, Math.min(millis, MAX_LONG_POLL.toMillis())));
  }

  static <T> T touched(Call call, T created) {
    if (created instanceof Job job) {
      call.touched(job.id());
    } else if (created instanceof RemediationJob job) {
      call.touched(job.id());
    } else if (created instanceof dev.zop.provisioner.Space space) {
      call.touched(space.id());
    } else if (created instanceof dev.zop.provisioner.CloudAccount account) {
      call.touched(account.id());
    } else if (created instanceof dev.zop.provisioner.Database database) {
      call.touched(database.id());
    } else if (created instanceof dev.zop.provisioner.Connection connection) {
      call.touched(connection.id());
    }
    return created;
  }

  static CloudAccountId account(Call call) {
    return CloudAccountId.of(call.path("accountID"));
  }

  static SpaceId space(Call call) {
    return SpaceId.of(call.path("spaceID"));
  }

  static JobId job(Call call) {
    return JobId.of(call.path("id"));
  }

  static JobId parent(Call call) {
    return JobId.of(call.path("jobID"));
  }

  static DatabaseId database(Call call) {
    return DatabaseId.of(call.path("dbID"));
  }

  static ConnectionId connection(Call call) {
    return ConnectionId.of(call.path("connID"));
  }
}

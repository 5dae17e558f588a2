package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.Settings;
import com.google.cloud.compute.v1.Instance;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.RemediationActions;

/**
 * Observes and acts on existing GCP resources for remediation, in remediation's words ({@code running},
 * {@code stopped}, {@code starting}, {@code stopping}, {@code terminated}):
 *
 * <ul>
 *   <li>{@code compute-instance} / {@code vm}, id {@code <zone>/<name>}: a Compute Engine instance, stopped and
 *       started (a stopped instance keeps its disks);</li>
 *   <li>{@code cloudsql-instance} / {@code db-instance}, id the instance name: Cloud SQL has no stop; its
 *       activation policy {@code NEVER} stops it and {@code ALWAYS} starts it again;</li>
 *   <li>{@code dataproc-cluster}, id the cluster name in the session's region: Dataproc's pause is deleting the
 *       cluster, which is terminal — the built-in template says so and requires approval.</li>
 * </ul>
 */
final class GcpRemediationActions implements RemediationActions {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;

  GcpRemediationActions(GcpClients clients, CloudCalls calls, String project, String region) {
    this.clients = clients;
    this.calls = calls;
    this.project = project;
    this.region = region;
  }

  @Override
  public String observe(String resourceType, String resourceId) {
    return switch (kind(resourceType)) {
      case INSTANCE -> {
        Instance instance = calls.call(permission("observe", resourceType), () -> clients.instances().get(project,
            zone(resourceId), name(resourceId)));
        yield switch (instance.getStatus()) {
          case "RUNNING" -> "running";
          case "STOPPING", "SUSPENDING" -> "stopping";
          case "TERMINATED", "STOPPED", "SUSPENDED" -> "stopped";
          case "PROVISIONING", "STAGING", "REPAIRING" -> "starting";
          default -> instance.getStatus().toLowerCase(java.util.Locale.ROOT);
        };
      }
      case SQL -> {
        DatabaseInstance sql = calls.call(permission("observe", resourceType), () -> GcpClients.io(() -> clients.sqlAdmin().api()
            .instances().get(project, resourceId).execute()));
        String policy = sql.getSettings() == null ? null : sql.getSettings().getActivationPolicy();
        yield "NEVER".equals(policy) ? "stopped" : "RUNNABLE".equals(sql.getState()) ? "running" : "starting";
      }
      case DATAPROC -> {
        var cluster = calls.findOrNull(permission("observe", resourceType), () -> clients.dataproc()
            .getCluster(project, region, resourceId));
        yield cluster == null ? "terminated" : switch (cluster.getStatus().getState()) {
          case RUNNING -> "running";
          case DELETING -> "stopping";
          case STOPPED -> "stopped";
          case STARTING, CREATING, UPDATING -> "starting";
          default -> cluster.getStatus().getState().name().toLowerCase(java.util.Locale.ROOT);
        };
      }
    };
  }

  @Override
  public void start(String resourceType, String resourceId) {
    switch (kind(resourceType)) {
      case INSTANCE -> calls.call(permission("start", resourceType), () -> clients.instances().startCallable().call(
          com.google.cloud.compute.v1.StartInstanceRequest.newBuilder().setProject(project)
              .setZone(zone(resourceId)).setInstance(name(resourceId)).build()));
      case SQL -> activation(resourceType, resourceId, "start", "ALWAYS");
      case DATAPROC -> throw new UnsupportedOperationException("a paused Dataproc cluster is deleted: it cannot"
          + " be started again");
    }
  }

  @Override
  public void stop(String resourceType, String resourceId) {
    switch (kind(resourceType)) {
      case INSTANCE -> calls.call(permission("stop", resourceType), () -> clients.instances().stopCallable().call(
          com.google.cloud.compute.v1.StopInstanceRequest.newBuilder().setProject(project)
              .setZone(zone(resourceId)).setInstance(name(resourceId)).build()));
      case SQL -> activation(resourceType, resourceId, "stop", "NEVER");
      case DATAPROC -> throw new UnsupportedOperationException("Dataproc clusters are paused, not stopped");
    }
  }

  @Override
  public void pause(String resourceType, String resourceId) {
    if (kind(resourceType) != Kind.DATAPROC) {
      throw new UnsupportedOperationException("GCP " + resourceType + " has no provider-owned pause; stop it instead");
    }
    calls.deleteIfExists(permission("pause", resourceType), () -> clients.dataproc().deleteClusterCallable().call(
        com.google.cloud.dataproc.v1.DeleteClusterRequest.newBuilder().setProjectId(project).setRegion(region)
            .setClusterName(resourceId).build()));
  }

  @Override
  public String permission(String verb, String resourceType) {
    Kind kind = kind(resourceType);
    return switch (verb) {
      case "observe" -> switch (kind) {
        case INSTANCE -> COMPUTE_INSTANCES_GET;
        case SQL -> CLOUDSQL_INSTANCES_GET;
        case DATAPROC -> DATAPROC_CLUSTERS_GET;
      };
      case "start" -> kind == Kind.INSTANCE ? COMPUTE_INSTANCES_START : CLOUDSQL_INSTANCES_UPDATE;
      case "stop" -> kind == Kind.INSTANCE ? COMPUTE_INSTANCES_STOP : CLOUDSQL_INSTANCES_UPDATE;
      case "pause" -> DATAPROC_CLUSTERS_DELETE;
      default -> throw new IllegalArgumentException("no GCP permission for " + verb + " on " + resourceType);
    };
  }

  private void activation(String resourceType, String name, String verb, String policy) {
    calls.call(permission(verb, resourceType), () -> GcpClients.io(() -> clients.sqlAdmin().api().instances().patch(project,
        name, new DatabaseInstance().setSettings(new Settings().setActivationPolicy(policy))).execute()));
  }

  private enum Kind { INSTANCE, SQL, DATAPROC }

  private static Kind kind(String resourceType) {
    return switch (resourceType) {
      case "compute-instance", "vm" -> Kind.INSTANCE;
      case "cloudsql-instance", "db-instance" -> Kind.SQL;
      case "dataproc-cluster" -> Kind.DATAPROC;
      default -> throw new IllegalArgumentException("GCP remediation does not act on " + resourceType);
    };
  }

  /** {@code us-central1-a/web-1}, or an instance's path or URL. */
  private static String zone(String id) {
    String[] parts = id.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      if (parts[i].equals("zones")) {
        return parts[i + 1];
      }
    }
    return parts[0];
  }

  private static String name(String id) {
    return id.substring(id.lastIndexOf('/') + 1);
  }


}

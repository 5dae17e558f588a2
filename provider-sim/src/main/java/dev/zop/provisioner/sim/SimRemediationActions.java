package dev.zop.provisioner.sim;

import dev.zop.provisioner.spi.RemediationActions;
import java.util.Locale;

/** <b>A test double</b>: starts, stops and pauses the simulated cloud's workloads. */
final class SimRemediationActions implements RemediationActions {
  private final SimCloud cloud;

  SimRemediationActions(SimCloud cloud) {
    this.cloud = cloud;
  }

  @Override
  public String observe(String resourceType, String resourceId) throws InterruptedException {
    return cloud.observeWorkload(permission("observe", resourceType), resourceId);
  }

  @Override
  public void start(String resourceType, String resourceId) throws InterruptedException {
    cloud.changeWorkload(permission("start", resourceType), resourceId, "running");
  }

  @Override
  public void stop(String resourceType, String resourceId) throws InterruptedException {
    cloud.changeWorkload(permission("stop", resourceType), resourceId, "stopped");
  }

  /** Dataproc has no pause: the cluster is deleted, which is why its template calls the step irreversible. */
  @Override
  public void pause(String resourceType, String resourceId) throws InterruptedException {
    cloud.changeWorkload(permission("pause", resourceType), resourceId,
        resourceType.equals("dataproc-cluster") ? "terminated" : "paused");
  }

  @Override
  public String permission(String verb, String resourceType) {
    String action = switch (verb) {
      case "observe" -> "Describe";
      case "start" -> "Start";
      case "stop" -> "Stop";
      case "pause" -> "Pause";
      default -> throw new IllegalArgumentException("unknown verb " + verb);
    };
    return switch (resourceType) {
      case "vm" -> "compute:" + action + "Instances";
      case "db-instance" -> "database:" + action + "DBInstance" + (verb.equals("observe") ? "s" : "");
      default -> resourceType.toLowerCase(Locale.ROOT) + ":" + action;
    };
  }
}

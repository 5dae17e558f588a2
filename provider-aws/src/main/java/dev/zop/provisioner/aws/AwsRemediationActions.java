package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.spi.RemediationActions;
import java.util.Locale;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBInstance;

/**
 * Observes, starts and stops EC2 instances ({@code ec2-instance}, {@code vm}) and RDS instances
 * ({@code rds-instance}, {@code db-instance}) for remediation. AWS states are reported in remediation's
 * words: {@code running}, {@code stopped}, {@code starting}, {@code stopping}, {@code terminated}.
 */
final class AwsRemediationActions implements RemediationActions {
  private final Ec2Client ec2;
  private final RdsClient rds;

  AwsRemediationActions(Ec2Client ec2, RdsClient rds) {
    this.ec2 = ec2;
    this.rds = rds;
  }

  @Override
  public String observe(String resourceType, String resourceId) {
    if (isInstance(resourceType)) {
      Instance instance = CALLS.call(permission("observe", resourceType),
          () -> ec2.describeInstances(r -> r.instanceIds(resourceId))).reservations().get(0).instances().get(0);
      return switch (instance.state().nameAsString()) {
        case "pending" -> "starting";
        case "running" -> "running";
        case "stopping", "shutting-down" -> "stopping";
        case "stopped" -> "stopped";
        case "terminated" -> "terminated";
        default -> instance.state().nameAsString();
      };
    }
    DBInstance db = CALLS.call(permission("observe", resourceType),
        () -> rds.describeDBInstances(r -> r.dbInstanceIdentifier(resourceId))).dbInstances().get(0);
    return switch (db.dbInstanceStatus().toLowerCase(Locale.ROOT)) {
      case "available" -> "running";
      case "starting" -> "starting";
      case "stopping" -> "stopping";
      case "stopped" -> "stopped";
      case "deleting" -> "terminated";
      default -> db.dbInstanceStatus();
    };
  }

  @Override
  public void start(String resourceType, String resourceId) {
    if (isInstance(resourceType)) {
      CALLS.call(permission("start", resourceType), () -> ec2.startInstances(r -> r.instanceIds(resourceId)));
    } else {
      CALLS.call(permission("start", resourceType), () -> rds.startDBInstance(r -> r.dbInstanceIdentifier(resourceId)));
    }
  }

  @Override
  public void stop(String resourceType, String resourceId) {
    if (isInstance(resourceType)) {
      CALLS.call(permission("stop", resourceType), () -> ec2.stopInstances(r -> r.instanceIds(resourceId)));
    } else {
      CALLS.call(permission("stop", resourceType), () -> rds.stopDBInstance(r -> r.dbInstanceIdentifier(resourceId)));
    }
  }

  @Override
  public void pause(String resourceType, String resourceId) {
    throw new UnsupportedOperationException("AWS " + resourceType + " has no provider-owned pause; stop it instead");
  }

  @Override
  public String permission(String verb, String resourceType) {
    boolean instance = isInstance(resourceType);
    return switch (verb) {
      case "observe" -> instance ? EC2_DESCRIBE_INSTANCES : RDS_DESCRIBE_DB_INSTANCES;
      case "start" -> instance ? EC2_START_INSTANCES : RDS_START_DB_INSTANCE;
      case "stop" -> instance ? EC2_STOP_INSTANCES : RDS_STOP_DB_INSTANCE;
      default -> throw new IllegalArgumentException("no AWS action for " + verb + " on " + resourceType);
    };
  }

  private static boolean isInstance(String resourceType) {
    return switch (resourceType) {
      case "ec2-instance", "vm" -> true;
      case "rds-instance", "db-instance" -> false;
      default -> throw new IllegalArgumentException("AWS remediation acts on EC2 and RDS instances, not "
          + resourceType);
    };
  }
}

package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The built-in workflow templates and those the host registers; the host's win when both apply. */
public final class TemplateRegistry {
  public static final String STOP_IDLE_VM = "stop-idle-vm";
  public static final String STOP_IDLE_DATABASE = "stop-idle-database";
  public static final String PAUSE_SERVICE = "pause-service";
  public static final String PAUSE_DATAPROC = "pause-dataproc";

  private final List<WorkflowTemplate> registered;

  public TemplateRegistry(List<WorkflowTemplate> hostTemplates) {
    this.registered = List.copyOf(hostTemplates);
  }

  /** Host templates first (last registered first), then the built-ins. */
  public List<WorkflowTemplate> all() {
    List<WorkflowTemplate> all = new ArrayList<>(registered);
    java.util.Collections.reverse(all);
    all.addAll(builtIns());
    return all;
  }

  public WorkflowTemplate resolve(String action, String resourceType) {
    return all().stream().filter(t -> t.appliesTo(action, resourceType)).findFirst().orElse(null);
  }

  public WorkflowTemplate find(String id) {
    return all().stream().filter(t -> t.id().equals(id)).findFirst().orElse(null);
  }

  /** Step ids derive from template and step name, so they stay the same in every revision of a template. */
  public static UUID stableId(String templateId, String stepName) {
    return UUID.nameUUIDFromBytes(("zop:" + templateId + ":" + stepName).getBytes(StandardCharsets.UTF_8));
  }

  public static List<WorkflowTemplate> builtIns() {
    return List.of(
        stopTemplate(STOP_IDLE_VM, Set.of("vm", "ec2-instance", "compute-instance", "virtual-machine",
            "vm-scale-set", "virtual-machine-scale-set"),
            "Stop the idle VM. It can be started again; its disks are kept."),
        stopTemplate(STOP_IDLE_DATABASE, Set.of("db-instance", "rds-instance", "cloudsql-instance",
            "azure-database-server", "azure-mysql-server"), "Stop the idle database. It can be started again; its data is kept."),
        pauseTemplate(PAUSE_SERVICE, Set.of("synapse-pool", "ml-compute", "data-factory", "cognitive-services",
            "databricks-cluster"), false, "paused",
            "Pause the service. It has no stop; the provisioner pauses it and it can be resumed."),
        pauseTemplate(PAUSE_DATAPROC, Set.of("dataproc-cluster"), true, "terminated",
            "IRREVERSIBLE: pausing a Dataproc cluster deletes it. This is terminal and cannot be undone."));
  }

  private static WorkflowTemplate stopTemplate(String id, Set<String> types, String message) {
    return new WorkflowTemplate(id, 1, "stop", types, List.of(
        TemplateStep.precondition(stableId(id, "precondition"), "precondition", "running"),
        TemplateStep.approval(stableId(id, "approval"), "approval", message, null),
        TemplateStep.execute(stableId(id, "execute"), "execute", "stop"),
        TemplateStep.validate(stableId(id, "validate"), "validate", "stopped")), false);
  }

  private static WorkflowTemplate pauseTemplate(String id, Set<String> types, boolean irreversible,
      String finalState, String message) {
    return new WorkflowTemplate(id, 1, "pause", types, List.of(
        TemplateStep.precondition(stableId(id, "precondition"), "precondition", "running"),
        TemplateStep.approval(stableId(id, "approval"), "approval", message, (Duration) null),
        TemplateStep.pauseService(stableId(id, "pause_service"), "pause_service"),
        TemplateStep.validate(stableId(id, "validate"), "validate", finalState)), irreversible);
  }
}

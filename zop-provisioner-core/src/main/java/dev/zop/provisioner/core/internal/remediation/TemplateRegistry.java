package dev.zop.provisioner.core.internal.remediation;

import static dev.zop.provisioner.remediation.BuiltInTemplates.PAUSE_DATAPROC;
import static dev.zop.provisioner.remediation.BuiltInTemplates.PAUSE_SERVICE;
import static dev.zop.provisioner.remediation.BuiltInTemplates.STOP_IDLE_DATABASE;
import static dev.zop.provisioner.remediation.BuiltInTemplates.STOP_IDLE_VM;

import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The built-in workflow templates and those the host registers; the host's win when both apply. A built-in acts on
 * the cloud-neutral {@code vm} or {@code db-instance} and on the resource types the installed providers name for it
 * ({@link dev.zop.provisioner.spi.CloudProvider#remediationTypes()}): no cloud's types are written here.
 */
public final class TemplateRegistry {
  private final List<WorkflowTemplate> registered;
  private final List<WorkflowTemplate> builtIns;

  /** {@code providerTypes}: each installed provider's resource types, by built-in template id. */
  public TemplateRegistry(List<WorkflowTemplate> hostTemplates, Collection<Map<String, Set<String>>> providerTypes) {
    this.registered = List.copyOf(hostTemplates);
    Map<String, Set<String>> types = new HashMap<>();
    types.put(STOP_IDLE_VM, new TreeSet<>(Set.of("vm")));
    types.put(STOP_IDLE_DATABASE, new TreeSet<>(Set.of("db-instance")));
    types.put(PAUSE_SERVICE, new TreeSet<>());
    types.put(PAUSE_DATAPROC, new TreeSet<>());
    for (Map<String, Set<String>> declared : providerTypes) {
      declared.forEach((template, named) -> {
        Set<String> known = types.get(template);
        if (known == null) {
          throw new IllegalArgumentException("a provider names resource types for " + template
              + ", which is not a built-in template (" + types.keySet() + ")");
        }
        known.addAll(named);
      });
    }
    this.builtIns = builtIns(types);
  }

  /** Host templates first (last registered first), then the built-ins. */
  public List<WorkflowTemplate> all() {
    List<WorkflowTemplate> all = new ArrayList<>(registered);
    java.util.Collections.reverse(all);
    all.addAll(builtIns);
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

  /** The four built-ins, each acting on {@code types}' types for it (a pause on none where no provider names any). */
  private static List<WorkflowTemplate> builtIns(Map<String, Set<String>> types) {
    return List.of(
        stopTemplate(STOP_IDLE_VM, types.get(STOP_IDLE_VM),
            "Stop the idle VM. It can be started again; its disks are kept."),
        stopTemplate(STOP_IDLE_DATABASE, types.get(STOP_IDLE_DATABASE),
            "Stop the idle database. It can be started again; its data is kept."),
        pauseTemplate(PAUSE_SERVICE, types.get(PAUSE_SERVICE), false, "paused",
            "Pause the service. It has no stop; the provisioner pauses it and it can be resumed."),
        pauseTemplate(PAUSE_DATAPROC, types.get(PAUSE_DATAPROC), true, "terminated",
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

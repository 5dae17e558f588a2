package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.ResourceController;
import java.util.List;
import java.util.Locale;

/**
 * Observes and acts on existing Azure resources for remediation, in the controller's words ({@code running},
 * {@code stopped}, {@code starting}, {@code stopping}). A resource is named by its ARM id
 * ({@code /subscriptions/<s>/resourceGroups/<rg>/providers/...}) or as {@code <resource group>/<name>}:
 *
 * <ul>
 *   <li>{@code vm-scale-set} / {@code virtual-machine-scale-set}: a VM scale set, deallocated (its instances stop
 *       and stop billing for compute, their disks kept) and started;</li>
 *   <li>{@code virtual-machine} / {@code vm}: one VM, deallocated and started;</li>
 *   <li>{@code azure-database-server}: an Azure Database for PostgreSQL flexible server, stopped and started
 *       (Azure starts a stopped server again by itself after seven days).</li>
 * </ul>
 *
 * <p>The pause targets of the provisioning document are refused when a remediation is started, each with its
 * reason (422 {@code unsupported_resource_type}), never a silent success: Synapse SQL pools, Data Factory triggers,
 * Cognitive Services, ML compute and Databricks clusters are not acted on yet.
 */
final class AzureController implements ResourceController {
  private final AzureClients clients;
  private final CloudCalls calls;

  AzureController(AzureClients clients, CloudCalls calls) {
    this.clients = clients;
    this.calls = calls;
  }

  private enum Kind { SCALE_SET, VM, POSTGRES }

  /** A resource group and name, from an ARM id or {@code <group>/<name>}. */
  private record Target(String group, String name) {
    static Target of(String id) {
      String[] parts = id.startsWith("/") ? id.substring(1).split("/") : id.split("/");
      if (id.startsWith("/")) {
        for (int i = 0; i < parts.length - 1; i++) {
          if (parts[i].equalsIgnoreCase("resourceGroups")) {
            return new Target(parts[i + 1], parts[parts.length - 1]);
          }
        }
      } else if (parts.length == 2) {
        return new Target(parts[0], parts[1]);
      }
      throw new ProviderException(Failure.userAction("invalid_resource_id", "'" + id + "' names no Azure"
          + " resource", "Name the resource by its ARM id (/subscriptions/.../resourceGroups/<group>/providers/...)"
          + " or as <resource group>/<name>.", null));
    }
  }

  @Override
  public String observe(String resourceType, String resourceId) {
    Target target = Target.of(resourceId);
    return switch (kind(resourceType, resourceId)) {
      case SCALE_SET -> {
        var view = calls.call(SCALE_SETS_READ, () -> clients.compute().serviceClient().getVirtualMachineScaleSets()
            .getInstanceView(target.group(), target.name()));
        List<String> codes = view.virtualMachine() == null || view.virtualMachine().statusesSummary() == null
            ? List.of() : view.virtualMachine().statusesSummary().stream().map(s -> s.code()).toList();
        yield codes.isEmpty() ? "stopped" : powerState(codes);
      }
      case VM -> {
        var view = calls.call(VIRTUAL_MACHINES_READ, () -> clients.compute().serviceClient().getVirtualMachines()
            .instanceView(target.group(), target.name()));
        yield powerState(view.statuses() == null ? List.of() : view.statuses().stream()
            .map(InstanceViewStatus::code).toList());
      }
      case POSTGRES -> {
        var server = calls.call(FLEXIBLE_SERVERS_READ, () -> clients.postgres().serviceClient().getServers()
            .getByResourceGroup(target.group(), target.name()));
        yield switch (String.valueOf(server.state())) {
          case "Ready" -> "running";
          case "Stopped", "Disabled" -> "stopped";
          case "Stopping", "Dropping" -> "stopping";
          default -> "starting";
        };
      }
    };
  }

  /** The power state of a VM, or of every instance of a scale set: running only when all run. */
  static String powerState(List<String> codes) {
    List<String> power = codes.stream().filter(c -> c != null && c.startsWith("PowerState/"))
        .map(c -> c.substring("PowerState/".length()).toLowerCase(Locale.ROOT)).toList();
    if (power.isEmpty()) {
      return "starting";
    }
    if (power.stream().allMatch(p -> p.equals("running"))) {
      return "running";
    }
    if (power.stream().allMatch(p -> p.equals("deallocated") || p.equals("stopped"))) {
      return "stopped";
    }
    return power.stream().anyMatch(p -> p.equals("deallocating") || p.equals("stopping")) ? "stopping" : "starting";
  }

  @Override
  public void start(String resourceType, String resourceId) {
    Target target = Target.of(resourceId);
    switch (kind(resourceType, resourceId)) {
      case SCALE_SET -> calls.call(SCALE_SETS_START, () -> clients.compute().serviceClient()
          .getVirtualMachineScaleSets().beginStart(target.group(), target.name()));
      case VM -> calls.call(VIRTUAL_MACHINES_START, () -> clients.compute().serviceClient().getVirtualMachines()
          .beginStart(target.group(), target.name()));
      case POSTGRES -> calls.call(FLEXIBLE_SERVERS_START, () -> clients.postgres().serviceClient().getServers()
          .beginStart(target.group(), target.name()));
    }
  }

  @Override
  public void stop(String resourceType, String resourceId) {
    Target target = Target.of(resourceId);
    switch (kind(resourceType, resourceId)) {
      case SCALE_SET -> calls.call(SCALE_SETS_DEALLOCATE, () -> clients.compute().serviceClient()
          .getVirtualMachineScaleSets().beginDeallocate(target.group(), target.name()));
      case VM -> calls.call(VIRTUAL_MACHINES_DEALLOCATE, () -> clients.compute().serviceClient()
          .getVirtualMachines().beginDeallocate(target.group(), target.name()));
      case POSTGRES -> calls.call(FLEXIBLE_SERVERS_STOP, () -> clients.postgres().serviceClient().getServers()
          .beginStop(target.group(), target.name()));
    }
  }

  @Override
  public void pause(String resourceType, String resourceId) {
    kind(resourceType, resourceId);
    throw new ProviderException(Failure.userAction("unsupported_action", "Azure " + resourceType + " is stopped,"
        + " not paused", "Start a stop remediation for it instead.", null));
  }

  @Override
  public String permission(String verb, String resourceType) {
    Kind kind = kind(resourceType, null);
    return switch (verb) {
      case "observe" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_READ;
        case VM -> VIRTUAL_MACHINES_READ;
        case POSTGRES -> FLEXIBLE_SERVERS_READ;
      };
      case "start" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_START;
        case VM -> VIRTUAL_MACHINES_START;
        case POSTGRES -> FLEXIBLE_SERVERS_START;
      };
      case "stop" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_DEALLOCATE;
        case VM -> VIRTUAL_MACHINES_DEALLOCATE;
        case POSTGRES -> FLEXIBLE_SERVERS_STOP;
      };
      default -> throw new ProviderException(Failure.userAction("unsupported_action", "the Azure controller does"
          + " not " + verb + " " + resourceType, "Azure " + resourceType + " is stopped and started.", null));
    };
  }

  private static Kind kind(String resourceType, String resourceId) {
    Kind kind = switch (resourceType) {
      case "vm-scale-set", "virtual-machine-scale-set" -> Kind.SCALE_SET;
      case "virtual-machine", "vm" -> Kind.VM;
      case "azure-database-server" -> Kind.POSTGRES;
      case "synapse-pool", "data-factory", "cognitive-services", "ml-compute", "databricks-cluster" ->
          throw new ProviderException(Failure.userAction("unsupported_resource_type", "the Azure provider does not"
              + " pause " + resourceType + " yet: its management library is not part of this build, so nothing"
              + " would act on it", "Pause it in the Azure portal, or remove the recommendation.", null));
      default -> throw new ProviderException(Failure.userAction("unsupported_resource_type", "the Azure"
          + " controller does not act on " + resourceType, "Azure remediation acts on vm-scale-set,"
          + " virtual-machine and azure-database-server resources.", null));
    };
    if (kind == Kind.POSTGRES && resourceId != null && resourceId.toLowerCase(Locale.ROOT)
        .contains("/providers/microsoft.dbformysql/")) {
      throw new ProviderException(Failure.userAction("unsupported_resource_type", "the Azure controller does"
          + " not act on MySQL flexible servers yet", "Stop it in the Azure portal.", null));
    }
    return kind;
  }
}

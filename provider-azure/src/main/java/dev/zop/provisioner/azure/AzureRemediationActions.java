package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.cognitiveservices.fluent.models.AccountInner;
import com.azure.resourcemanager.cognitiveservices.models.AccountProperties;
import com.azure.resourcemanager.cognitiveservices.models.PublicNetworkAccess;
import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.RemediationActions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Observes and acts on existing Azure resources for remediation, in remediation's words ({@code running},
 * {@code stopped}, {@code paused}, {@code starting}, {@code stopping}). A resource is named by its ARM id
 * ({@code /subscriptions/<s>/resourceGroups/<rg>/providers/...}) or by its resource group and names
 * ({@code <group>/<name>}, {@code <group>/<workspace>/<pool>}):
 *
 * <ul>
 *   <li>{@code vm-scale-set} / {@code virtual-machine-scale-set}: a VM scale set, deallocated (its instances stop
 *       and stop billing for compute, their disks kept) and started;</li>
 *   <li>{@code virtual-machine} / {@code vm}: one VM, deallocated and started;</li>
 *   <li>{@code azure-database-server} (PostgreSQL) and {@code azure-mysql-server}: an Azure Database flexible
 *       server, stopped and started (Azure starts a stopped server again by itself after seven days);</li>
 *   <li>{@code synapse-pool}: a Synapse dedicated SQL pool, paused and resumed (a paused pool bills storage
 *       only);</li>
 *   <li>{@code data-factory}: a Data Factory trigger, stopped as its pause and started as its resume (the
 *       pipelines it runs stop being started);</li>
 *   <li>{@code cognitive-services}: a Cognitive Services account, paused by turning its public network access
 *       off (calls are refused, so pay-per-call spend stops; provisioned-throughput deployments still bill) and
 *       resumed by turning it on — the pause starts only from a running account, whose access was on.</li>
 * </ul>
 *
 * <p>ML compute and Databricks clusters are refused when a remediation is started (422
 * {@code unsupported_resource_type}): their management libraries are not served to this build.
 */
final class AzureRemediationActions implements RemediationActions {
  private final AzureClients clients;
  private final CloudCalls calls;

  AzureRemediationActions(AzureClients clients, CloudCalls calls) {
    this.clients = clients;
    this.calls = calls;
  }

  private enum Kind { SCALE_SET, VM, POSTGRES, MYSQL, SQL_POOL, TRIGGER, COGNITIVE }

  /** A resource group and the names below it (a pool's workspace and pool), from an ARM id or the short form. */
  private record Target(String group, List<String> names) {
    static Target of(String id, int depth) {
      String[] parts = (id.startsWith("/") ? id.substring(1) : id).split("/");
      if (id.startsWith("/")) {
        int providers = -1;
        String group = null;
        for (int i = 0; i < parts.length - 1; i++) {
          if (parts[i].equalsIgnoreCase("resourceGroups")) {
            group = parts[i + 1];
          } else if (parts[i].equalsIgnoreCase("providers")) {
            providers = i;
          }
        }
        // providers, namespace, then type/name pairs
        List<String> names = new ArrayList<>();
        for (int i = providers + 3; providers >= 0 && i < parts.length; i += 2) {
          names.add(parts[i]);
        }
        if (group != null && names.size() == depth) {
          return new Target(group, names);
        }
      } else if (parts.length == depth + 1) {
        return new Target(parts[0], List.of(parts).subList(1, parts.length));
      }
      throw new ProviderException(Failure.userAction("invalid_resource_id", "'" + id + "' names no Azure resource"
          + " of this type", "Name the resource by its ARM id (/subscriptions/.../resourceGroups/<group>/providers/"
          + "...) or as <resource group>/<name>" + (depth > 1 ? "/<child name>" : "") + ".", null));
    }

    String name() {
      return names.get(names.size() - 1);
    }

    String parent() {
      return names.get(0);
    }
  }

  private static Target target(Kind kind, String id) {
    return Target.of(id, kind == Kind.SQL_POOL || kind == Kind.TRIGGER ? 2 : 1);
  }

  @Override
  public String observe(String resourceType, String resourceId) {
    Kind kind = kind(resourceType, resourceId);
    Target t = target(kind, resourceId);
    return switch (kind) {
      case SCALE_SET -> {
        var view = calls.call(SCALE_SETS_READ, () -> clients.compute().serviceClient().getVirtualMachineScaleSets()
            .getInstanceView(t.group(), t.name()));
        List<String> codes = view.virtualMachine() == null || view.virtualMachine().statusesSummary() == null
            ? List.of() : view.virtualMachine().statusesSummary().stream().map(s -> s.code()).toList();
        yield codes.isEmpty() ? "stopped" : powerState(codes);
      }
      case VM -> {
        var view = calls.call(VIRTUAL_MACHINES_READ, () -> clients.compute().serviceClient().getVirtualMachines()
            .instanceView(t.group(), t.name()));
        yield powerState(view.statuses() == null ? List.of() : view.statuses().stream()
            .map(InstanceViewStatus::code).toList());
      }
      case POSTGRES, MYSQL -> {
        FlexibleServers servers = servers(kind);
        var server = servers.find(t.name(), t.group());
        if (server == null) {
          throw new ProviderException(Failure.userAction("resource_not_found", servers.label() + " " + resourceId
              + " does not exist", "Check the recommendation's resource id.", null));
        }
        yield switch (server.state()) {
          case "Ready" -> "running";
          case "Stopped", "Disabled" -> "stopped";
          case "Stopping", "Dropping" -> "stopping";
          default -> "starting";
        };
      }
      case SQL_POOL -> {
        var pool = calls.call(SQL_POOLS_READ, () -> clients.synapse().serviceClient().getSqlPools()
            .get(t.group(), t.parent(), t.name()));
        yield switch (String.valueOf(pool.status())) {
          case "Online" -> "running";
          case "Paused" -> "paused";
          case "Pausing" -> "stopping";
          default -> "starting";
        };
      }
      case TRIGGER -> {
        var trigger = calls.call(TRIGGERS_READ, () -> clients.dataFactory().serviceClient().getTriggers()
            .get(t.group(), t.parent(), t.name()));
        String state = trigger.properties() == null ? null : String.valueOf(trigger.properties().runtimeState());
        yield "Started".equals(state) ? "running" : "paused";
      }
      case COGNITIVE -> {
        AccountInner account = calls.call(COGNITIVE_ACCOUNTS_READ, () -> clients.cognitive().serviceClient()
            .getAccounts().getByResourceGroup(t.group(), t.name()));
        yield account.properties() != null
            && account.properties().publicNetworkAccess() == PublicNetworkAccess.DISABLED ? "paused" : "running";
      }
    };
  }

  private FlexibleServers servers(Kind kind) {
    return kind == Kind.MYSQL ? FlexibleServers.mysql(clients, calls, null) : FlexibleServers.postgres(clients,
        calls, null);
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

  /** Starts what was stopped, and resumes what was paused. */
  @Override
  public void start(String resourceType, String resourceId) {
    Kind kind = kind(resourceType, resourceId);
    Target t = target(kind, resourceId);
    switch (kind) {
      case SCALE_SET -> calls.call(SCALE_SETS_START, () -> clients.compute().serviceClient()
          .getVirtualMachineScaleSets().beginStart(t.group(), t.name()));
      case VM -> calls.call(VIRTUAL_MACHINES_START, () -> clients.compute().serviceClient().getVirtualMachines()
          .beginStart(t.group(), t.name()));
      case POSTGRES -> calls.call(FLEXIBLE_SERVERS_START, () -> clients.postgres().serviceClient().getServers()
          .beginStart(t.group(), t.name()));
      case MYSQL -> calls.call(MYSQL_SERVERS_START, () -> clients.mysql().serviceClient().getServers()
          .beginStart(t.group(), t.name()));
      case SQL_POOL -> calls.call(SQL_POOLS_RESUME, () -> clients.synapse().serviceClient().getSqlPools()
          .beginResume(t.group(), t.parent(), t.name()));
      case TRIGGER -> calls.call(TRIGGERS_START, () -> clients.dataFactory().serviceClient().getTriggers()
          .beginStart(t.group(), t.parent(), t.name()));
      case COGNITIVE -> publicAccess(t, PublicNetworkAccess.ENABLED);
    }
  }

  @Override
  public void stop(String resourceType, String resourceId) {
    Kind kind = kind(resourceType, resourceId);
    Target t = target(kind, resourceId);
    switch (kind) {
      case SCALE_SET -> calls.call(SCALE_SETS_DEALLOCATE, () -> clients.compute().serviceClient()
          .getVirtualMachineScaleSets().beginDeallocate(t.group(), t.name()));
      case VM -> calls.call(VIRTUAL_MACHINES_DEALLOCATE, () -> clients.compute().serviceClient()
          .getVirtualMachines().beginDeallocate(t.group(), t.name()));
      case POSTGRES -> calls.call(FLEXIBLE_SERVERS_STOP, () -> clients.postgres().serviceClient().getServers()
          .beginStop(t.group(), t.name()));
      case MYSQL -> calls.call(MYSQL_SERVERS_STOP, () -> clients.mysql().serviceClient().getServers()
          .beginStop(t.group(), t.name()));
      default -> throw new ProviderException(Failure.userAction("unsupported_action", "Azure " + resourceType
          + " is paused, not stopped", "Start a pause remediation for it instead.", null));
    }
  }

  @Override
  public void pause(String resourceType, String resourceId) {
    Kind kind = kind(resourceType, resourceId);
    Target t = target(kind, resourceId);
    switch (kind) {
      case SQL_POOL -> calls.call(SQL_POOLS_PAUSE, () -> clients.synapse().serviceClient().getSqlPools()
          .beginPause(t.group(), t.parent(), t.name()));
      case TRIGGER -> calls.call(TRIGGERS_STOP, () -> clients.dataFactory().serviceClient().getTriggers()
          .beginStop(t.group(), t.parent(), t.name()));
      case COGNITIVE -> publicAccess(t, PublicNetworkAccess.DISABLED);
      default -> throw new ProviderException(Failure.userAction("unsupported_action", "Azure " + resourceType
          + " is stopped, not paused", "Start a stop remediation for it instead.", null));
    }
  }

  /** A PATCH of the one property: the account's other settings and its tags stay as they are. */
  private void publicAccess(Target t, PublicNetworkAccess access) {
    calls.call(COGNITIVE_ACCOUNTS_WRITE, () -> clients.cognitive().serviceClient().getAccounts()
        .beginUpdate(t.group(), t.name(), new AccountInner().withProperties(new AccountProperties()
            .withPublicNetworkAccess(access))));
  }

  @Override
  public String permission(String verb, String resourceType) {
    Kind kind = kind(resourceType, null);
    return switch (verb) {
      case "observe" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_READ;
        case VM -> VIRTUAL_MACHINES_READ;
        case POSTGRES -> FLEXIBLE_SERVERS_READ;
        case MYSQL -> MYSQL_SERVERS_READ;
        case SQL_POOL -> SQL_POOLS_READ;
        case TRIGGER -> TRIGGERS_READ;
        case COGNITIVE -> COGNITIVE_ACCOUNTS_READ;
      };
      case "start" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_START;
        case VM -> VIRTUAL_MACHINES_START;
        case POSTGRES -> FLEXIBLE_SERVERS_START;
        case MYSQL -> MYSQL_SERVERS_START;
        case SQL_POOL -> SQL_POOLS_RESUME;
        case TRIGGER -> TRIGGERS_START;
        case COGNITIVE -> COGNITIVE_ACCOUNTS_WRITE;
      };
      case "stop" -> switch (kind) {
        case SCALE_SET -> SCALE_SETS_DEALLOCATE;
        case VM -> VIRTUAL_MACHINES_DEALLOCATE;
        case POSTGRES -> FLEXIBLE_SERVERS_STOP;
        case MYSQL -> MYSQL_SERVERS_STOP;
        default -> throw unsupported(verb, resourceType);
      };
      case "pause" -> switch (kind) {
        case SQL_POOL -> SQL_POOLS_PAUSE;
        case TRIGGER -> TRIGGERS_STOP;
        case COGNITIVE -> COGNITIVE_ACCOUNTS_WRITE;
        default -> throw unsupported(verb, resourceType);
      };
      default -> throw unsupported(verb, resourceType);
    };
  }

  private static ProviderException unsupported(String verb, String resourceType) {
    return new ProviderException(Failure.userAction("unsupported_action", "Azure remediation does not " + verb
        + " " + resourceType, "Scale sets, VMs and database servers are stopped and started; Synapse pools, Data"
        + " Factory triggers and Cognitive Services accounts are paused and resumed.", null));
  }

  private static Kind kind(String resourceType, String resourceId) {
    Kind kind = switch (resourceType) {
      case "vm-scale-set", "virtual-machine-scale-set" -> Kind.SCALE_SET;
      case "virtual-machine", "vm" -> Kind.VM;
      case "azure-database-server" -> Kind.POSTGRES;
      case "azure-mysql-server" -> Kind.MYSQL;
      case "synapse-pool" -> Kind.SQL_POOL;
      case "data-factory" -> Kind.TRIGGER;
      case "cognitive-services" -> Kind.COGNITIVE;
      case "ml-compute", "databricks-cluster" -> throw new ProviderException(Failure.userAction(
          "unsupported_resource_type", "the Azure provider cannot pause " + resourceType + ": its management"
              + " library is not part of this build, so nothing would act on it", "Pause it in the Azure portal,"
              + " or remove the recommendation.", null));
      default -> throw new ProviderException(Failure.userAction("unsupported_resource_type", "the Azure"
          + " remediation does not act on " + resourceType, "Azure remediation acts on vm-scale-set,"
          + " virtual-machine, azure-database-server, synapse-pool, data-factory and cognitive-services"
          + " resources.", null));
    };
    if (kind == Kind.POSTGRES && resourceId != null && resourceId.toLowerCase(Locale.ROOT)
        .contains("/providers/microsoft.dbformysql/")) {
      throw new ProviderException(Failure.userAction("wrong_resource_type", resourceId + " is a MySQL flexible"
          + " server", "Name its type azure-mysql-server: MySQL's servers are stopped with their own actions.", null));
    }
    return kind;
  }
}

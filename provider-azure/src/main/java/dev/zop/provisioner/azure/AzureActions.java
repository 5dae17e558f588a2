package dev.zop.provisioner.azure;

import java.util.List;

/**
 * Every Azure RBAC action the provider performs, written once: steps declare them (what {@code plan} lists),
 * calls are tagged with them (a call with an undeclared one is refused), and failures name them.
 */
final class AzureActions {
  static final String VIRTUAL_NETWORKS_READ = "Microsoft.Network/virtualNetworks/read";
  static final String VIRTUAL_NETWORKS_WRITE = "Microsoft.Network/virtualNetworks/write";
  static final String VIRTUAL_NETWORKS_DELETE = "Microsoft.Network/virtualNetworks/delete";
  static final String SUBNETS_READ = "Microsoft.Network/virtualNetworks/subnets/read";
  static final String SUBNETS_WRITE = "Microsoft.Network/virtualNetworks/subnets/write";
  static final String PEERINGS_READ = "Microsoft.Network/virtualNetworks/virtualNetworkPeerings/read";
  static final String PEERINGS_WRITE = "Microsoft.Network/virtualNetworks/virtualNetworkPeerings/write";
  static final String PEERINGS_DELETE = "Microsoft.Network/virtualNetworks/virtualNetworkPeerings/delete";
  /** Peering with a network needs this on the remote network. */
  static final String VIRTUAL_NETWORKS_PEER = "Microsoft.Network/virtualNetworks/peer/action";
  static final String MANAGED_CLUSTERS_READ = "Microsoft.ContainerService/managedClusters/read";
  static final String MANAGED_CLUSTERS_WRITE = "Microsoft.ContainerService/managedClusters/write";
  static final String MANAGED_CLUSTERS_DELETE = "Microsoft.ContainerService/managedClusters/delete";
  static final String AGENT_POOLS_READ = "Microsoft.ContainerService/managedClusters/agentPools/read";
  static final String AGENT_POOLS_WRITE = "Microsoft.ContainerService/managedClusters/agentPools/write";
  static final String AGENT_POOLS_DELETE = "Microsoft.ContainerService/managedClusters/agentPools/delete";
  static final String MANAGED_CLUSTERS_LIST_USER_CREDENTIAL =
      "Microsoft.ContainerService/managedClusters/listClusterUserCredential/action";
  /** Placing a cluster's nodes in a subnet needs this on the subnet. */
  static final String SUBNETS_JOIN = "Microsoft.Network/virtualNetworks/subnets/join/action";
  static final String FLEXIBLE_SERVERS_READ = "Microsoft.DBforPostgreSQL/flexibleServers/read";
  static final String FLEXIBLE_SERVERS_WRITE = "Microsoft.DBforPostgreSQL/flexibleServers/write";
  static final String FLEXIBLE_SERVERS_DELETE = "Microsoft.DBforPostgreSQL/flexibleServers/delete";
  /** Where a space names no region, its resources go to its resource group's location. */
  static final String RESOURCE_GROUPS_READ = "Microsoft.Resources/subscriptions/resourceGroups/read";
  static final String REGISTRIES_READ = "Microsoft.ContainerRegistry/registries/read";
  static final String REGISTRIES_WRITE = "Microsoft.ContainerRegistry/registries/write";
  static final String REGISTRIES_DELETE = "Microsoft.ContainerRegistry/registries/delete";

  static final String SCALE_SETS_READ = "Microsoft.Compute/virtualMachineScaleSets/read";
  static final String SCALE_SETS_WRITE = "Microsoft.Compute/virtualMachineScaleSets/write";
  static final String SCALE_SETS_DELETE = "Microsoft.Compute/virtualMachineScaleSets/delete";
  static final String SCALE_SET_VMS_READ = "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read";
  static final String SCALE_SETS_MANUAL_UPGRADE = "Microsoft.Compute/virtualMachineScaleSets/manualUpgrade/action";
  static final String SECURITY_GROUPS_READ = "Microsoft.Network/networkSecurityGroups/read";
  static final String SECURITY_GROUPS_WRITE = "Microsoft.Network/networkSecurityGroups/write";
  static final String SECURITY_GROUPS_DELETE = "Microsoft.Network/networkSecurityGroups/delete";
  /** Putting a security group on a scale set's network interfaces needs this on the group. */
  static final String SECURITY_GROUPS_JOIN = "Microsoft.Network/networkSecurityGroups/join/action";
  static final String PUBLIC_IPS_READ = "Microsoft.Network/publicIPAddresses/read";
  static final String PUBLIC_IPS_WRITE = "Microsoft.Network/publicIPAddresses/write";
  static final String PUBLIC_IPS_DELETE = "Microsoft.Network/publicIPAddresses/delete";
  /** A load balancer's front end takes a public address with this on the address. */
  static final String PUBLIC_IPS_JOIN = "Microsoft.Network/publicIPAddresses/join/action";
  static final String LOAD_BALANCERS_READ = "Microsoft.Network/loadBalancers/read";
  static final String LOAD_BALANCERS_WRITE = "Microsoft.Network/loadBalancers/write";
  static final String LOAD_BALANCERS_DELETE = "Microsoft.Network/loadBalancers/delete";
  /** Scale set instances join a load balancer's backend pool with this on the pool. */
  static final String BACKEND_POOLS_JOIN = "Microsoft.Network/loadBalancers/backendAddressPools/join/action";
  static final String AUTOSCALE_READ = "Microsoft.Insights/autoscalesettings/read";
  static final String AUTOSCALE_WRITE = "Microsoft.Insights/autoscalesettings/write";
  static final String AUTOSCALE_DELETE = "Microsoft.Insights/autoscalesettings/delete";

  static final String SCALE_SETS_START = "Microsoft.Compute/virtualMachineScaleSets/start/action";
  static final String SCALE_SETS_DEALLOCATE = "Microsoft.Compute/virtualMachineScaleSets/deallocate/action";
  static final String VIRTUAL_MACHINES_READ = "Microsoft.Compute/virtualMachines/read";
  static final String VIRTUAL_MACHINES_START = "Microsoft.Compute/virtualMachines/start/action";
  static final String VIRTUAL_MACHINES_DEALLOCATE = "Microsoft.Compute/virtualMachines/deallocate/action";
  static final String FLEXIBLE_SERVERS_START = "Microsoft.DBforPostgreSQL/flexibleServers/start/action";
  static final String FLEXIBLE_SERVERS_STOP = "Microsoft.DBforPostgreSQL/flexibleServers/stop/action";

  static final String SQL_POOLS_READ = "Microsoft.Synapse/workspaces/sqlPools/read";
  static final String SQL_POOLS_PAUSE = "Microsoft.Synapse/workspaces/sqlPools/pause/action";
  static final String SQL_POOLS_RESUME = "Microsoft.Synapse/workspaces/sqlPools/resume/action";
  static final String TRIGGERS_READ = "Microsoft.DataFactory/factories/triggers/read";
  static final String TRIGGERS_START = "Microsoft.DataFactory/factories/triggers/start/action";
  static final String TRIGGERS_STOP = "Microsoft.DataFactory/factories/triggers/stop/action";
  static final String COGNITIVE_ACCOUNTS_READ = "Microsoft.CognitiveServices/accounts/read";
  static final String COGNITIVE_ACCOUNTS_WRITE = "Microsoft.CognitiveServices/accounts/write";

  static final String PRIVATE_ZONES_READ = "Microsoft.Network/privateDnsZones/read";
  static final String PRIVATE_ZONES_WRITE = "Microsoft.Network/privateDnsZones/write";
  static final String PRIVATE_ZONES_DELETE = "Microsoft.Network/privateDnsZones/delete";
  static final String ZONE_LINKS_READ = "Microsoft.Network/privateDnsZones/virtualNetworkLinks/read";
  static final String ZONE_LINKS_WRITE = "Microsoft.Network/privateDnsZones/virtualNetworkLinks/write";
  static final String ZONE_LINKS_DELETE = "Microsoft.Network/privateDnsZones/virtualNetworkLinks/delete";
  /** A flexible server with private access publishes its name in a private zone with this on the zone. */
  static final String PRIVATE_ZONES_JOIN = "Microsoft.Network/privateDnsZones/join/action";
  /** Linking a private zone to a network needs this on the network. */
  static final String VIRTUAL_NETWORKS_JOIN = "Microsoft.Network/virtualNetworks/join/action";

  static final String MYSQL_SERVERS_READ = "Microsoft.DBforMySQL/flexibleServers/read";
  static final String MYSQL_SERVERS_WRITE = "Microsoft.DBforMySQL/flexibleServers/write";
  static final String MYSQL_SERVERS_DELETE = "Microsoft.DBforMySQL/flexibleServers/delete";
  static final String MYSQL_SERVERS_START = "Microsoft.DBforMySQL/flexibleServers/start/action";
  static final String MYSQL_SERVERS_STOP = "Microsoft.DBforMySQL/flexibleServers/stop/action";
  static final String REDIS_READ = "Microsoft.Cache/redis/read";
  static final String REDIS_WRITE = "Microsoft.Cache/redis/write";
  static final String REDIS_DELETE = "Microsoft.Cache/redis/delete";
  static final String REDIS_LIST_KEYS = "Microsoft.Cache/redis/listKeys/action";

  /** Key Vault data actions: the vault must grant them (Key Vault Secrets Officer has them all). */
  static final String KEY_VAULT_SECRETS_GET = "Microsoft.KeyVault/vaults/secrets/getSecret/action";
  static final String KEY_VAULT_SECRETS_SET = "Microsoft.KeyVault/vaults/secrets/setSecret/action";
  static final String KEY_VAULT_SECRETS_DELETE = "Microsoft.KeyVault/vaults/secrets/delete";
  static final String KEY_VAULT_SECRETS_PURGE = "Microsoft.KeyVault/vaults/secrets/purge/action";

  private AzureActions() {}

  /**
   * A step's actions, with the Key Vault data actions it calls when the account keeps secrets in a vault (and
   * without them when the engine's local store does).
   */
  static List<String> withVault(boolean vault, List<String> actions, String... vaultActions) {
    if (!vault) {
      return actions;
    }
    List<String> all = new java.util.ArrayList<>(actions);
    all.addAll(List.of(vaultActions));
    return List.copyOf(all);
  }
}

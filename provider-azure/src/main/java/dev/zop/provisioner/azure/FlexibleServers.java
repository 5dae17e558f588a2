package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import dev.zop.provisioner.kit.CloudCalls;
import java.util.Map;

/**
 * Azure Database flexible servers of one engine. PostgreSQL's and MySQL's management libraries have the same
 * shape in different model classes; the datastore's steps see them through this.
 */
interface FlexibleServers {
  /** What the steps read of a server. */
  record Server(Map<String, String> tags, String state, String host, Shape shape) {}

  /** What a create asks for. */
  /** {@code subnetId} and {@code privateZoneId} for private access in a network, both null for public access. */
  record Wanted(String adminUser, String password, String version, int storageGb, int backupRetentionDays,
      boolean zoneRedundant, String sku, String location, Map<String, String> tags, String subnetId,
      String privateZoneId) {}

  String label();

  /** The service a subnet must be delegated to for the engine's servers to live in it. */
  String delegation();

  /** What the name of the private DNS zone of a server with private access must end with. */
  String zoneSuffix();

  int port();

  String readAction();

  String writeAction();

  String deleteAction();

  /** The server, or null when there is none of that name. */
  Server find(String name);

  /** The server of that name in another resource group (remediation's, named by ARM id), or null. */
  Server find(String name, String group);

  void create(String name, Wanted wanted);

  /** What a revision may change of a server: its size, storage, backups kept and zone redundancy. */
  record Shape(String sku, int storageGb, int backupRetentionDays, boolean zoneRedundant) {}

  /** Asks for the server's shape to become {@code wanted} (a PATCH); the server shows it once done. */
  void update(String name, Shape wanted);

  void delete(String name);

  /** Burstable B sizes, Memory Optimized E sizes, General Purpose the rest: both engines name tiers alike. */
  static String tier(String sku) {
    return sku.startsWith("Standard_B") ? "Burstable" : sku.startsWith("Standard_E") ? "MemoryOptimized"
        : "GeneralPurpose";
  }

  static FlexibleServers postgres(AzureClients clients, CloudCalls calls, String resourceGroup) {
    return new FlexibleServers() {
      @Override
      public String label() {
        return "PostgreSQL server";
      }

      @Override
      public int port() {
        return 5432;
      }

      @Override
      public String delegation() {
        return "Microsoft.DBforPostgreSQL/flexibleServers";
      }

      @Override
      public String zoneSuffix() {
        return ".postgres.database.azure.com";
      }

      @Override
      public String readAction() {
        return FLEXIBLE_SERVERS_READ;
      }

      @Override
      public String writeAction() {
        return FLEXIBLE_SERVERS_WRITE;
      }

      @Override
      public String deleteAction() {
        return FLEXIBLE_SERVERS_DELETE;
      }

      @Override
      public Server find(String name) {
        return find(name, resourceGroup);
      }

      @Override
      public Server find(String name, String group) {
        var server = calls.findOrNull(FLEXIBLE_SERVERS_READ, () -> clients.postgres().serviceClient().getServers()
            .getByResourceGroup(group, name));
        return server == null ? null : new Server(server.tags(), String.valueOf(server.state()),
            server.fullyQualifiedDomainName(), new Shape(server.sku() == null ? null : server.sku().name(),
                server.storage() == null || server.storage().storageSizeGB() == null ? 0
                    : server.storage().storageSizeGB(),
                server.backup() == null || server.backup().backupRetentionDays() == null ? 0
                    : server.backup().backupRetentionDays(),
                server.highAvailability() != null && com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                    .equals(server.highAvailability().mode())));
      }

      @Override
      public void create(String name, Wanted w) {
        var server = new com.azure.resourcemanager.postgresqlflexibleserver.fluent.models.ServerInner()
            .withAdministratorLogin(w.adminUser()).withAdministratorLoginPassword(w.password())
            // the library's ServerVersion enum stops at 14: newer majors by name
            .withVersion(com.azure.resourcemanager.postgresqlflexibleserver.models.ServerVersion
                .fromString(w.version()))
            .withStorage(new com.azure.resourcemanager.postgresqlflexibleserver.models.Storage()
                .withStorageSizeGB(w.storageGb()))
            .withBackup(new com.azure.resourcemanager.postgresqlflexibleserver.models.Backup()
                .withBackupRetentionDays(w.backupRetentionDays()))
            .withHighAvailability(new com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailability()
                .withMode(w.zoneRedundant()
                    ? com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                    : com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode.DISABLED));
        server.withSku(new com.azure.resourcemanager.postgresqlflexibleserver.models.Sku().withName(w.sku())
            .withTier(com.azure.resourcemanager.postgresqlflexibleserver.models.SkuTier.fromString(tier(w.sku()))))
            .withLocation(w.location()).withTags(w.tags());
        if (w.subnetId() != null) {
          server.withNetwork(new com.azure.resourcemanager.postgresqlflexibleserver.models.Network()
              .withDelegatedSubnetResourceId(w.subnetId()).withPrivateDnsZoneArmResourceId(w.privateZoneId()));
        }
        calls.call(FLEXIBLE_SERVERS_WRITE, () -> clients.postgres().serviceClient().getServers()
            .beginCreate(resourceGroup, name, server));
      }

      @Override
      public void update(String name, Shape w) {
        var update = new com.azure.resourcemanager.postgresqlflexibleserver.models.ServerForUpdate()
            .withSku(new com.azure.resourcemanager.postgresqlflexibleserver.models.Sku().withName(w.sku())
                .withTier(com.azure.resourcemanager.postgresqlflexibleserver.models.SkuTier.fromString(tier(w.sku()))))
            .withStorage(new com.azure.resourcemanager.postgresqlflexibleserver.models.Storage().withStorageSizeGB(w.storageGb()))
            .withBackup(new com.azure.resourcemanager.postgresqlflexibleserver.models.Backup().withBackupRetentionDays(w.backupRetentionDays()))
            .withHighAvailability(new com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailability().withMode(w.zoneRedundant()
                ? com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                : com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode.DISABLED));
        calls.call(FLEXIBLE_SERVERS_WRITE, () -> clients.postgres().serviceClient().getServers()
            .beginUpdate(resourceGroup, name, update));
      }

      @Override
      public void delete(String name) {
        calls.deleteIfExists(FLEXIBLE_SERVERS_DELETE, () -> clients.postgres().serviceClient().getServers()
            .beginDelete(resourceGroup, name));
      }
    };
  }

  static FlexibleServers mysql(AzureClients clients, CloudCalls calls, String resourceGroup) {
    return new FlexibleServers() {
      @Override
      public String label() {
        return "MySQL server";
      }

      @Override
      public int port() {
        return 3306;
      }

      @Override
      public String delegation() {
        return "Microsoft.DBforMySQL/flexibleServers";
      }

      @Override
      public String zoneSuffix() {
        return ".mysql.database.azure.com";
      }

      @Override
      public String readAction() {
        return MYSQL_SERVERS_READ;
      }

      @Override
      public String writeAction() {
        return MYSQL_SERVERS_WRITE;
      }

      @Override
      public String deleteAction() {
        return MYSQL_SERVERS_DELETE;
      }

      @Override
      public Server find(String name) {
        return find(name, resourceGroup);
      }

      @Override
      public Server find(String name, String group) {
        var server = calls.findOrNull(MYSQL_SERVERS_READ, () -> clients.mysql().serviceClient().getServers()
            .getByResourceGroup(group, name));
        return server == null ? null : new Server(server.tags(), String.valueOf(server.state()),
            server.fullyQualifiedDomainName(), new Shape(server.sku() == null ? null : server.sku().name(),
                server.storage() == null || server.storage().storageSizeGB() == null ? 0
                    : server.storage().storageSizeGB(),
                server.backup() == null || server.backup().backupRetentionDays() == null ? 0
                    : server.backup().backupRetentionDays(),
                server.highAvailability() != null && com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                    .equals(server.highAvailability().mode())));
      }

      @Override
      public void create(String name, Wanted w) {
        var server = new com.azure.resourcemanager.mysqlflexibleserver.fluent.models.ServerInner()
            .withAdministratorLogin(w.adminUser()).withAdministratorLoginPassword(w.password())
            .withVersion(com.azure.resourcemanager.mysqlflexibleserver.models.ServerVersion.fromString(w.version()))
            .withStorage(new com.azure.resourcemanager.mysqlflexibleserver.models.Storage()
                .withStorageSizeGB(w.storageGb()))
            .withBackup(new com.azure.resourcemanager.mysqlflexibleserver.models.Backup()
                .withBackupRetentionDays(w.backupRetentionDays()))
            .withHighAvailability(new com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailability()
                .withMode(w.zoneRedundant()
                    ? com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                    : com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailabilityMode.DISABLED));
        server.withSku(new com.azure.resourcemanager.mysqlflexibleserver.models.Sku().withName(w.sku())
            .withTier(com.azure.resourcemanager.mysqlflexibleserver.models.SkuTier.fromString(tier(w.sku()))))
            .withLocation(w.location()).withTags(w.tags());
        if (w.subnetId() != null) {
          server.withNetwork(new com.azure.resourcemanager.mysqlflexibleserver.models.Network()
              .withDelegatedSubnetResourceId(w.subnetId()).withPrivateDnsZoneResourceId(w.privateZoneId())
              .withPublicNetworkAccess(com.azure.resourcemanager.mysqlflexibleserver.models.EnableStatusEnum.DISABLED));
        }
        calls.call(MYSQL_SERVERS_WRITE, () -> clients.mysql().serviceClient().getServers()
            .beginCreate(resourceGroup, name, server));
      }

      @Override
      public void update(String name, Shape w) {
        var update = new com.azure.resourcemanager.mysqlflexibleserver.models.ServerForUpdate()
            .withSku(new com.azure.resourcemanager.mysqlflexibleserver.models.Sku().withName(w.sku())
                .withTier(com.azure.resourcemanager.mysqlflexibleserver.models.SkuTier.fromString(tier(w.sku()))))
            .withStorage(new com.azure.resourcemanager.mysqlflexibleserver.models.Storage().withStorageSizeGB(w.storageGb()))
            .withBackup(new com.azure.resourcemanager.mysqlflexibleserver.models.Backup().withBackupRetentionDays(w.backupRetentionDays()))
            .withHighAvailability(new com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailability().withMode(w.zoneRedundant()
                ? com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailabilityMode.ZONE_REDUNDANT
                : com.azure.resourcemanager.mysqlflexibleserver.models.HighAvailabilityMode.DISABLED));
        calls.call(MYSQL_SERVERS_WRITE, () -> clients.mysql().serviceClient().getServers()
            .beginUpdate(resourceGroup, name, update));
      }

      @Override
      public void delete(String name) {
        calls.deleteIfExists(MYSQL_SERVERS_DELETE, () -> clients.mysql().serviceClient().getServers()
            .beginDelete(resourceGroup, name));
      }
    };
  }
}

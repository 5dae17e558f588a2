package dev.zop.provisioner.gcp;

/**
 * Every IAM permission the provider uses, written once: steps declare them (what {@code plan} lists), calls are
 * tagged with them (a call with an undeclared one is refused), and failures name them in their fix hints.
 */
final class GcpPermissions {
  // compute
  static final String COMPUTE_NETWORKS_CREATE = "compute.networks.create";
  static final String COMPUTE_NETWORKS_GET = "compute.networks.get";
  static final String COMPUTE_NETWORKS_LIST = "compute.networks.list";
  static final String COMPUTE_NETWORKS_DELETE = "compute.networks.delete";
  static final String COMPUTE_NETWORKS_ADD_PEERING = "compute.networks.addPeering";
  static final String COMPUTE_NETWORKS_REMOVE_PEERING = "compute.networks.removePeering";
  static final String COMPUTE_SUBNETWORKS_CREATE = "compute.subnetworks.create";
  static final String COMPUTE_SUBNETWORKS_GET = "compute.subnetworks.get";
  static final String COMPUTE_SUBNETWORKS_LIST = "compute.subnetworks.list";
  static final String COMPUTE_SUBNETWORKS_DELETE = "compute.subnetworks.delete";
  static final String COMPUTE_GLOBAL_OPERATIONS_GET = "compute.globalOperations.get";
  static final String COMPUTE_REGION_OPERATIONS_GET = "compute.regionOperations.get";
  static final String COMPUTE_INSTANCE_TEMPLATES_CREATE = "compute.instanceTemplates.create";
  static final String COMPUTE_INSTANCE_TEMPLATES_GET = "compute.instanceTemplates.get";
  static final String COMPUTE_INSTANCE_TEMPLATES_DELETE = "compute.instanceTemplates.delete";
  /** Regional and zonal managed instance groups share these permissions, as do their autoscalers. */
  static final String COMPUTE_INSTANCE_GROUP_MANAGERS_CREATE = "compute.instanceGroupManagers.create";
  static final String COMPUTE_INSTANCE_GROUP_MANAGERS_GET = "compute.instanceGroupManagers.get";
  static final String COMPUTE_INSTANCE_GROUP_MANAGERS_DELETE = "compute.instanceGroupManagers.delete";
  static final String COMPUTE_INSTANCE_GROUP_MANAGERS_UPDATE = "compute.instanceGroupManagers.update";
  static final String COMPUTE_AUTOSCALERS_CREATE = "compute.autoscalers.create";
  static final String COMPUTE_AUTOSCALERS_GET = "compute.autoscalers.get";
  static final String COMPUTE_AUTOSCALERS_DELETE = "compute.autoscalers.delete";
  static final String COMPUTE_AUTOSCALERS_UPDATE = "compute.autoscalers.update";
  static final String COMPUTE_FIREWALLS_CREATE = "compute.firewalls.create";
  static final String COMPUTE_FIREWALLS_GET = "compute.firewalls.get";
  static final String COMPUTE_FIREWALLS_DELETE = "compute.firewalls.delete";
  static final String COMPUTE_FIREWALLS_UPDATE = "compute.firewalls.update";
  static final String COMPUTE_HEALTH_CHECKS_CREATE = "compute.healthChecks.create";
  static final String COMPUTE_HEALTH_CHECKS_GET = "compute.healthChecks.get";
  static final String COMPUTE_HEALTH_CHECKS_DELETE = "compute.healthChecks.delete";
  static final String COMPUTE_REGION_HEALTH_CHECKS_CREATE = "compute.regionHealthChecks.create";
  static final String COMPUTE_REGION_HEALTH_CHECKS_GET = "compute.regionHealthChecks.get";
  static final String COMPUTE_REGION_HEALTH_CHECKS_DELETE = "compute.regionHealthChecks.delete";
  static final String COMPUTE_BACKEND_SERVICES_CREATE = "compute.backendServices.create";
  static final String COMPUTE_BACKEND_SERVICES_GET = "compute.backendServices.get";
  static final String COMPUTE_BACKEND_SERVICES_DELETE = "compute.backendServices.delete";
  static final String COMPUTE_REGION_BACKEND_SERVICES_CREATE = "compute.regionBackendServices.create";
  static final String COMPUTE_REGION_BACKEND_SERVICES_GET = "compute.regionBackendServices.get";
  static final String COMPUTE_REGION_BACKEND_SERVICES_DELETE = "compute.regionBackendServices.delete";
  static final String COMPUTE_URL_MAPS_CREATE = "compute.urlMaps.create";
  static final String COMPUTE_URL_MAPS_GET = "compute.urlMaps.get";
  static final String COMPUTE_URL_MAPS_DELETE = "compute.urlMaps.delete";
  static final String COMPUTE_TARGET_HTTP_PROXIES_CREATE = "compute.targetHttpProxies.create";
  static final String COMPUTE_TARGET_HTTP_PROXIES_GET = "compute.targetHttpProxies.get";
  static final String COMPUTE_TARGET_HTTP_PROXIES_DELETE = "compute.targetHttpProxies.delete";
  static final String COMPUTE_TARGET_HTTPS_PROXIES_CREATE = "compute.targetHttpsProxies.create";
  static final String COMPUTE_TARGET_HTTPS_PROXIES_GET = "compute.targetHttpsProxies.get";
  static final String COMPUTE_TARGET_HTTPS_PROXIES_DELETE = "compute.targetHttpsProxies.delete";
  static final String COMPUTE_GLOBAL_FORWARDING_RULES_CREATE = "compute.globalForwardingRules.create";
  static final String COMPUTE_GLOBAL_FORWARDING_RULES_GET = "compute.globalForwardingRules.get";
  static final String COMPUTE_GLOBAL_FORWARDING_RULES_DELETE = "compute.globalForwardingRules.delete";
  static final String COMPUTE_FORWARDING_RULES_CREATE = "compute.forwardingRules.create";
  static final String COMPUTE_FORWARDING_RULES_GET = "compute.forwardingRules.get";
  static final String COMPUTE_FORWARDING_RULES_DELETE = "compute.forwardingRules.delete";
  static final String COMPUTE_INSTANCES_GET = "compute.instances.get";
  static final String COMPUTE_INSTANCES_START = "compute.instances.start";
  static final String COMPUTE_INSTANCES_STOP = "compute.instances.stop";
  // dataproc
  static final String DATAPROC_CLUSTERS_GET = "dataproc.clusters.get";
  static final String DATAPROC_CLUSTERS_DELETE = "dataproc.clusters.delete";
  // cloud dns
  static final String DNS_MANAGED_ZONES_CREATE = "dns.managedZones.create";
  static final String DNS_MANAGED_ZONES_GET = "dns.managedZones.get";
  static final String DNS_MANAGED_ZONES_LIST = "dns.managedZones.list";
  static final String DNS_MANAGED_ZONES_DELETE = "dns.managedZones.delete";
  /** Binding a private zone to a network needs this on the network. */
  static final String DNS_NETWORKS_BIND_PRIVATE_DNS_ZONE = "dns.networks.bindPrivateDNSZone";
  // artifact registry
  static final String ARTIFACTREGISTRY_REPOSITORIES_CREATE = "artifactregistry.repositories.create";
  static final String ARTIFACTREGISTRY_REPOSITORIES_GET = "artifactregistry.repositories.get";
  static final String ARTIFACTREGISTRY_REPOSITORIES_DELETE = "artifactregistry.repositories.delete";
  static final String ARTIFACTREGISTRY_REPOSITORIES_UPDATE = "artifactregistry.repositories.update";
  static final String ARTIFACTREGISTRY_DOCKER_IMAGES_LIST = "artifactregistry.dockerImages.list";
  // kubernetes engine
  static final String CONTAINER_CLUSTERS_CREATE = "container.clusters.create";
  static final String CONTAINER_CLUSTERS_GET = "container.clusters.get";
  static final String CONTAINER_CLUSTERS_LIST = "container.clusters.list";
  static final String CONTAINER_CLUSTERS_DELETE = "container.clusters.delete";
  /** A running cluster's changes: its control plane's version and its node pools (made, changed, deleted). */
  static final String CONTAINER_CLUSTERS_UPDATE = "container.clusters.update";
  static final String CONTAINER_OPERATIONS_GET = "container.operations.get";
  /** Nodes run as the project's default compute service account, which the creator must be allowed to act as. */
  static final String IAM_SERVICE_ACCOUNTS_ACT_AS = "iam.serviceAccounts.actAs";
  // cloud sql (its operations are read with cloudsql.instances.get)
  static final String CLOUDSQL_INSTANCES_CREATE = "cloudsql.instances.create";
  static final String CLOUDSQL_INSTANCES_GET = "cloudsql.instances.get";
  static final String CLOUDSQL_INSTANCES_DELETE = "cloudsql.instances.delete";
  static final String CLOUDSQL_INSTANCES_UPDATE = "cloudsql.instances.update";
  static final String CLOUDSQL_INSTANCES_LIST = "cloudsql.instances.list";
  // memorystore
  static final String REDIS_INSTANCES_CREATE = "redis.instances.create";
  static final String REDIS_INSTANCES_GET = "redis.instances.get";
  static final String REDIS_INSTANCES_DELETE = "redis.instances.delete";
  static final String REDIS_INSTANCES_UPDATE = "redis.instances.update";
  static final String REDIS_INSTANCES_GET_AUTH_STRING = "redis.instances.getAuthString";
  // secret manager
  static final String SECRETMANAGER_SECRETS_CREATE = "secretmanager.secrets.create";
  static final String SECRETMANAGER_SECRETS_GET = "secretmanager.secrets.get";
  static final String SECRETMANAGER_SECRETS_DELETE = "secretmanager.secrets.delete";
  static final String SECRETMANAGER_VERSIONS_ADD = "secretmanager.versions.add";
  static final String SECRETMANAGER_VERSIONS_ACCESS = "secretmanager.versions.access";

  private GcpPermissions() {}
}

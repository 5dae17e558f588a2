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
  // artifact registry
  static final String ARTIFACTREGISTRY_REPOSITORIES_CREATE = "artifactregistry.repositories.create";
  static final String ARTIFACTREGISTRY_REPOSITORIES_GET = "artifactregistry.repositories.get";
  static final String ARTIFACTREGISTRY_REPOSITORIES_DELETE = "artifactregistry.repositories.delete";
  static final String ARTIFACTREGISTRY_DOCKER_IMAGES_LIST = "artifactregistry.dockerImages.list";
  // kubernetes engine
  static final String CONTAINER_CLUSTERS_CREATE = "container.clusters.create";
  static final String CONTAINER_CLUSTERS_GET = "container.clusters.get";
  static final String CONTAINER_CLUSTERS_LIST = "container.clusters.list";
  static final String CONTAINER_CLUSTERS_DELETE = "container.clusters.delete";
  static final String CONTAINER_OPERATIONS_GET = "container.operations.get";
  /** Nodes run as the project's default compute service account, which the creator must be allowed to act as. */
  static final String IAM_SERVICE_ACCOUNTS_ACT_AS = "iam.serviceAccounts.actAs";
  // secret manager
  static final String SECRETMANAGER_SECRETS_CREATE = "secretmanager.secrets.create";
  static final String SECRETMANAGER_SECRETS_GET = "secretmanager.secrets.get";
  static final String SECRETMANAGER_SECRETS_DELETE = "secretmanager.secrets.delete";
  static final String SECRETMANAGER_VERSIONS_ADD = "secretmanager.versions.add";
  static final String SECRETMANAGER_VERSIONS_ACCESS = "secretmanager.versions.access";

  private GcpPermissions() {}
}

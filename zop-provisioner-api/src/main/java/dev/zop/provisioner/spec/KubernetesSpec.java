package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A managed Kubernetes cluster (EKS, GKE, AKS) with its node groups.
 *
 * @param vpcId       the network to place the cluster in; null lets the provider use its default
 * @param subnetIds   the subnets for the control plane and nodes; empty lets the provider choose
 * @param clusterRole an existing identity for the control plane (on AWS an IAM role ARN); null lets the job
 *                    create one
 */
public record KubernetesSpec(
    String name,
    String version,
    List<NodeGroup> nodeGroups,
    @JsonProperty("vpcID") String vpcId,
    @JsonProperty("subnetIDs") List<String> subnetIds,
    String clusterRole) implements ResourceSpec {

  private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+");

  public KubernetesSpec {
    nodeGroups = nodeGroups == null ? List.of() : List.copyOf(nodeGroups);
    subnetIds = subnetIds == null ? List.of() : List.copyOf(subnetIds);
  }

  public static Builder builder() {
    return new Builder();
  }

  public static Builder named(String name) {
    return new Builder().name(name);
  }

  public Builder toBuilder() {
    return new Builder().name(name).version(version).nodeGroups(nodeGroups).vpcId(vpcId).subnetIds(subnetIds)
        .clusterRole(clusterRole);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.KUBERNETES;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, true);
    if (c.required("version", version)) {
      c.matches("version", version, VERSION, "a Kubernetes minor version such as 1.30");
    }
    if (nodeGroups.isEmpty()) {
      c.add("nodeGroups", "required", "at least one node group is required");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < nodeGroups.size(); i++) {
      NodeGroup group = nodeGroups.get(i);
      if (group == null) {
        c.add("nodeGroups[" + i + "]", "required", "node group must not be null");
        continue;
      }
      c.merge("nodeGroups[" + i + "]", group.validate());
      if (group.name() != null && !seen.add(group.name())) {
        c.add("nodeGroups[" + i + "].name", "duplicate", "node group names must be unique");
      }
    }
    c.cloudId("vpcID", vpcId);
    c.cloudIds("subnetIDs", subnetIds);
    c.cloudId("clusterRole", clusterRole);
    return c.errors();
  }

  /** Builds a {@link KubernetesSpec}; {@link #build()} validates. */
  public static final class Builder extends PlacedSpecBuilder<Builder, KubernetesSpec> {
    private String version;
    private List<NodeGroup> nodeGroups = new ArrayList<>();
    private String clusterRole;

    private Builder() {}

    public Builder clusterRole(String value) {
      this.clusterRole = value;
      return this;
    }

    public Builder version(String value) {
      this.version = value;
      return this;
    }

    public Builder nodeGroup(String groupName, String instanceType, int min, int max) {
      this.nodeGroups.add(NodeGroup.of(groupName, instanceType, min, max));
      return this;
    }

    public Builder nodeGroups(List<NodeGroup> groups) {
      this.nodeGroups = new ArrayList<>(groups);
      return this;
    }

    @Override
    KubernetesSpec spec() {
      return new KubernetesSpec(name, version, nodeGroups, vpcId, subnetIds, clusterRole);
    }
  }
}

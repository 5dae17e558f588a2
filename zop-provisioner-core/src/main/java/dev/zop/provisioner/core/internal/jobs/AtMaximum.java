package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;

/** A spec at the most it can scale to: what a plan prices as "at most", and a space's budget counts. */
final class AtMaximum {
  private AtMaximum() {}

  /** The spec with every node group and pool scaled to its maximum, or the spec itself when nothing scales. */
  static ResourceSpec of(ResourceSpec spec) {
    if (spec instanceof KubernetesSpec cluster && cluster.nodeGroups().stream().anyMatch(g -> g.max() != null)) {
      // the records themselves: the spec was validated when it was planned, and priced is all this copy is for
      return new KubernetesSpec(cluster.name(), cluster.version(), cluster.nodeGroups().stream()
          .map(g -> g.max() == null ? g : new NodeGroup(g.name(), g.instanceType(), g.min(), g.max(), g.max()))
          .toList(), cluster.vpcId(), cluster.subnetIds(), cluster.clusterRole());
    }
    if (spec instanceof VmPoolSpec pool && pool.max() != null) {
      return new VmPoolSpec(pool.name(), pool.instanceType(), pool.max(), pool.max(), pool.createLoadBalancer(),
          pool.loadBalancerType(), pool.listenerPorts(), pool.vpcId(), pool.subnetIds(), pool.imageId(),
          pool.certificateArn());
    }
    return spec;
  }
}

package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.LoadBalancerSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Discovery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The existing networks a spec points at ({@code vpcID}, {@code subnetIDs}, {@code peerVpcID}), checked against
 * what the provider finds in the account and region, so a typo is a 400 at submit rather than a failed step.
 */
record NetworkReferences(String vpcId, List<String> subnetIds, String peerVpcId) {
  static NetworkReferences of(ResourceSpec spec) {
    if (spec instanceof KubernetesSpec k) {
      return new NetworkReferences(k.vpcId(), k.subnetIds(), null);
    }
    if (spec instanceof VmPoolSpec v) {
      return new NetworkReferences(v.vpcId(), v.subnetIds(), null);
    }
    if (spec instanceof DatastoreSpec d) {
      return new NetworkReferences(d.vpcId(), d.subnetIds(), null);
    }
    if (spec instanceof LoadBalancerSpec l) {
      return new NetworkReferences(l.vpcId(), l.subnetIds(), null);
    }
    if (spec instanceof NetworkSpec n) {
      return new NetworkReferences(null, List.of(), n.peerVpcId());
    }
    return new NetworkReferences(null, List.of(), null);
  }

  boolean isEmpty() {
    return vpcId == null && (subnetIds == null || subnetIds.isEmpty()) && peerVpcId == null;
  }

  /** Every reference that names nothing the account holds, or a subnet outside the named network. */
  List<FieldError> check(Discovery discovery) throws Exception {
    List<FieldError> errors = new ArrayList<>();
    if (vpcId != null || peerVpcId != null) {
      List<String> networks = discovery.networks().stream().map(DiscoveredNetwork::id).toList();
      if (vpcId != null && !networks.contains(vpcId)) {
        errors.add(FieldError.of("config.vpcID", "not_found", "no network " + vpcId + " in this account and region"));
      }
      if (peerVpcId != null && !networks.contains(peerVpcId)) {
        errors.add(FieldError.of("config.peerVpcID", "not_found",
            "no network " + peerVpcId + " in this account and region"));
      }
    }
    if (subnetIds != null && !subnetIds.isEmpty()) {
      Map<String, DiscoveredSubnet> subnets = discovery.subnets(null).stream()
          .collect(Collectors.toMap(DiscoveredSubnet::id, Function.identity(), (a, b) -> a));
      for (int i = 0; i < subnetIds.size(); i++) {
        String id = subnetIds.get(i);
        DiscoveredSubnet subnet = subnets.get(id);
        String field = "config.subnetIDs[" + i + "]";
        if (subnet == null) {
          errors.add(FieldError.of(field, "not_found", "no subnet " + id + " in this account and region"));
        } else if (vpcId != null && subnet.networkId() != null && !vpcId.equals(subnet.networkId())) {
          errors.add(FieldError.of(field, "wrong_network", "subnet " + id + " is in " + subnet.networkId()
              + ", not in " + vpcId));
        }
      }
    }
    return errors;
  }
}

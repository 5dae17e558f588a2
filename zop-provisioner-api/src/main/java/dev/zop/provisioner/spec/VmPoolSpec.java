package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool of identical VMs (EC2 + Auto Scaling group, MIG, VM Scale Set), optionally behind a load balancer.
 *
 * @param loadBalancerType {@code application} (HTTP and HTTPS) or {@code network} (TCP); null lets the provider
 *                         choose from the ports: HTTP on an application load balancer, or, for 443 without a
 *                         certificate, TCP on a network load balancer that passes TLS through to the instances
 * @param imageId          the machine image; null lets the provider pick its current default
 * @param certificateArn   the TLS certificate an application load balancer serves port 443 with (HTTPS)
 */
public record VmPoolSpec(
    String name,
    String instanceType,
    Integer min,
    Integer max,
    Boolean createLoadBalancer,
    String loadBalancerType,
    List<Integer> listenerPorts,
    @JsonProperty("vpcID") String vpcId,
    @JsonProperty("subnetIDs") List<String> subnetIds,
    String imageId,
    String certificateArn) implements ResourceSpec {

  public VmPoolSpec {
    createLoadBalancer = Boolean.TRUE.equals(createLoadBalancer);
    listenerPorts = listenerPorts == null ? List.of() : List.copyOf(listenerPorts);
    subnetIds = subnetIds == null ? List.of() : List.copyOf(subnetIds);
  }

  public static Builder builder() {
    return new Builder();
  }

  public static Builder named(String name) {
    return new Builder().name(name);
  }

  public Builder toBuilder() {
    return new Builder().name(name).instanceType(instanceType).size(min, max)
        .loadBalancer(createLoadBalancer, loadBalancerType).listenerPorts(listenerPorts)
        .vpcId(vpcId).subnetIds(subnetIds).imageId(imageId).certificateArn(certificateArn);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.VM_POOL;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, true);
    c.required("instanceType", instanceType);
    c.scaling("", min, max, 1000);
    if (loadBalancerType != null && !loadBalancerType.equals("application") && !loadBalancerType.equals("network")) {
      c.add("loadBalancerType", "invalid_value", "must be 'application' or 'network'");
    }
    c.ports("listenerPorts", listenerPorts);
    if (createLoadBalancer && listenerPorts.isEmpty()) {
      c.add("listenerPorts", "required", "a load balancer needs at least one listener port");
    }
    c.cloudId("vpcID", vpcId);
    c.cloudIds("subnetIDs", subnetIds);
    c.cloudId("imageId", imageId);
    if (certificateArn != null && (certificateArn.isBlank() || certificateArn.length() > 2048)) {
      c.add("certificateArn", "invalid_value", "a certificate's identifier, up to 2048 characters");
    }
    return c.errors();
  }

  /** Builds a {@link VmPoolSpec}; {@link #build()} validates. */
  public static final class Builder extends PlacedSpecBuilder<Builder, VmPoolSpec> {
    private String instanceType;
    private Integer min;
    private Integer max;
    private boolean createLoadBalancer;
    private String loadBalancerType;
    private List<Integer> listenerPorts = new ArrayList<>();
    private String imageId;
    private String certificateArn;

    private Builder() {}

    public Builder instanceType(String value) {
      this.instanceType = value;
      return this;
    }

    public Builder size(Integer minSize, Integer maxSize) {
      this.min = minSize;
      this.max = maxSize;
      return this;
    }

    /** Puts an application load balancer in front of the pool. */
    public Builder withLoadBalancer(Integer... ports) {
      return loadBalancer(true, "application").listenerPorts(List.of(ports));
    }

    public Builder loadBalancer(boolean create, String type) {
      this.createLoadBalancer = create;
      this.loadBalancerType = type;
      return this;
    }

    public Builder listenerPorts(List<Integer> ports) {
      this.listenerPorts = new ArrayList<>(ports);
      return this;
    }

    public Builder imageId(String value) {
      this.imageId = value;
      return this;
    }

    public Builder certificateArn(String value) {
      this.certificateArn = value;
      return this;
    }

    @Override
    VmPoolSpec spec() {
      return new VmPoolSpec(name, instanceType, min, max, createLoadBalancer, loadBalancerType,
          listenerPorts, vpcId, subnetIds, imageId, certificateArn);
    }
  }
}

package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A standalone load balancer (ALB/NLB, GCLB, Azure LB) with listeners on the given ports.
 *
 * @param type {@code application} (HTTP, the default) or {@code network} (TCP)
 */
public record LoadBalancerSpec(
    String name,
    String type,
    List<Integer> listenerPorts,
    @JsonProperty("vpcID") String vpcId,
    @JsonProperty("subnetIDs") List<String> subnetIds) implements ResourceSpec {

  public LoadBalancerSpec {
    type = type == null ? "application" : type;
    listenerPorts = listenerPorts == null ? List.of() : List.copyOf(listenerPorts);
    subnetIds = subnetIds == null ? List.of() : List.copyOf(subnetIds);
  }

  public static Builder named(String name) {
    return new Builder().name(name);
  }

  public Builder toBuilder() {
    return new Builder().name(name).type(type).listenerPorts(listenerPorts).vpcId(vpcId).subnetIds(subnetIds);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.LOAD_BALANCER;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, true);
    if (!type.equals("application") && !type.equals("network")) {
      c.add("type", "invalid_value", "must be 'application' or 'network'");
    }
    if (listenerPorts.isEmpty()) {
      c.add("listenerPorts", "required", "at least one listener port is required");
    }
    c.ports("listenerPorts", listenerPorts);
    c.cloudId("vpcID", vpcId);
    c.cloudIds("subnetIDs", subnetIds);
    return c.errors();
  }

  /** Builds a {@link LoadBalancerSpec}; {@link #build()} validates. */
  public static final class Builder extends PlacedSpecBuilder<Builder, LoadBalancerSpec> {
    private String type;
    private List<Integer> listenerPorts = new ArrayList<>();

    private Builder() {}

    public Builder type(String value) {
      this.type = value;
      return this;
    }

    public Builder listenerPorts(List<Integer> ports) {
      this.listenerPorts = new ArrayList<>(ports);
      return this;
    }

    @Override
    LoadBalancerSpec spec() {
      return new LoadBalancerSpec(name, type, listenerPorts, vpcId, subnetIds);
    }
  }
}

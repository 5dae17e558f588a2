package dev.zop.provisioner.spec;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import java.util.List;

/**
 * The desired resource of a provisioning job. Each kind has its own record; all of them report every invalid
 * field at once from {@link #validate()}, named as in the REST body ({@code nodeGroups[0].max}).
 */
public sealed interface ResourceSpec
    permits KubernetesSpec, VmPoolSpec, DatastoreSpec, NetworkSpec, RegistrySpec, LoadBalancerSpec, ComponentSpec {

  JobKind kind();

  /** The resource's name, or null when the kind allows the engine to derive one. */
  String name();

  /** Every problem with this spec; empty when it is valid. Never throws. */
  List<FieldError> validate();

  /** The spec type a job of {@code kind} carries, for reading a {@code config} document of that kind. */
  static Class<? extends ResourceSpec> typeFor(JobKind kind) {
    return switch (kind) {
      case KUBERNETES -> KubernetesSpec.class;
      case VM_POOL -> VmPoolSpec.class;
      case DATASTORE -> DatastoreSpec.class;
      case NETWORK -> NetworkSpec.class;
      case REGISTRY -> RegistrySpec.class;
      case LOAD_BALANCER -> LoadBalancerSpec.class;
      case COMPONENT -> ComponentSpec.class;
      case REMEDIATION -> throw new IllegalArgumentException("remediation jobs have no resource spec");
    };
  }
}

package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.kit.MachineSize.Family;
import org.junit.jupiter.api.Test;

class MachineSizesTest {
  private final MachineSizes cloud = MachineSizes.of(
      new MachineSize("small-burst", Family.BURSTABLE, 2, 4),
      new MachineSize("general-2", Family.GENERAL, 2, 8),
      new MachineSize("memory-2", Family.MEMORY, 2, 16));

  @Test
  void anAliasIsTheProvidersSizeOfTheSameFamilyVcpusAndMemory() {
    assertThat(cloud.forAlias("t3.medium").name()).isEqualTo("small-burst");
    assertThat(cloud.forAlias("m5.large").name()).isEqualTo("general-2");
    assertThat(cloud.forAlias("r5.large").name()).isEqualTo("memory-2");
    // t3.large gives what general-2 gives in vCPUs and memory, but is of another family
    assertThat(cloud.forAlias("t3.large")).isNull();
    assertThat(cloud.forAlias("general-2")).as("a provider's own name is no alias").isNull();
    assertThat(cloud.own("general-2").vcpus()).isEqualTo(2);
    assertThat(cloud.nameForAlias("m5.large")).isEqualTo("general-2");
    assertThat(cloud.nameForAlias("c5.large")).isNull();
    assertThat(MachineSizes.readsAsAwsType("c5.large")).isTrue();
    assertThat(MachineSizes.readsAsAwsType("general-2")).isFalse();
    assertThat(MachineSizes.alias("m5.xlarge")).isEqualTo(new MachineSize("m5.xlarge", Family.GENERAL, 4, 16));
  }

  @Test
  void aSpecsAliasesResolveToTheProvidersSizesAndThePlanSaysSo() {
    java.util.List<dev.zop.provisioner.PlanDefault> filled = new java.util.ArrayList<>();
    java.util.List<dev.zop.provisioner.spec.NodeGroup> groups = cloud.resolveNodeGroups(java.util.List.of(
        new dev.zop.provisioner.spec.NodeGroup("web", "m5.large", 1, 3, 2),
        new dev.zop.provisioner.spec.NodeGroup("own", "memory-2", 1, 2, null)), "the cloud's size", filled);

    assertThat(groups).containsExactly(new dev.zop.provisioner.spec.NodeGroup("web", "general-2", 1, 3, 2),
        new dev.zop.provisioner.spec.NodeGroup("own", "memory-2", 1, 2, null));
    assertThat(cloud.resolve("instanceType", "t3.medium", "the cloud's size", filled)).isEqualTo("small-burst");
    assertThat(cloud.resolve("instanceType", "huge-1", "the cloud's size", filled)).isEqualTo("huge-1");
    assertThat(filled).containsExactly(
        new dev.zop.provisioner.PlanDefault("nodeGroups[0].instanceType", "general-2",
            "the cloud's size with the vCPUs and memory of m5.large"),
        new dev.zop.provisioner.PlanDefault("instanceType", "small-burst",
            "the cloud's size with the vCPUs and memory of t3.medium"));
  }

  @Test
  void twoSizesThatGiveTheSameAreRefused() {
    assertThatThrownBy(() -> MachineSizes.of(new MachineSize("a", Family.GENERAL, 2, 8),
        new MachineSize("b", Family.GENERAL, 2, 8))).hasMessageContaining("a and b give the same");
    assertThatThrownBy(() -> MachineSizes.of(new MachineSize("a", Family.GENERAL, 2, 8),
        new MachineSize("a", Family.MEMORY, 2, 16))).hasMessageContaining("two sizes named a");
  }

  @Test
  void atLeastIsTheSmallestSizeThatHoldsWhatTheAliasGivesOfItsFamilyFirst() {
    MachineSizes tiers = MachineSizes.of(
        new MachineSize("shared", Family.BURSTABLE, 1, 0.6),
        new MachineSize("burst-2-4", Family.BURSTABLE, 2, 4),
        new MachineSize("custom-2-4", Family.GENERAL, 2, 4),
        new MachineSize("custom-2-8", Family.GENERAL, 2, 8),
        new MachineSize("custom-4-16", Family.GENERAL, 4, 16),
        new MachineSize("custom-16-16", Family.GENERAL, 16, 16));
    // an RDS class gives what its instance type gives: db.t3.micro is 2 vCPUs and 1 GiB, of the burstable family
    assertThat(MachineSizes.anyAlias("db.t3.micro")).isEqualTo(new MachineSize("db.t3.micro", Family.BURSTABLE, 2, 1));
    assertThat(tiers.atLeast("db.t3.micro").name()).as("its family first, never less than asked")
        .isEqualTo("burst-2-4");
    assertThat(tiers.atLeast("db.m5.large").name()).as("the same shape").isEqualTo("custom-2-8");
    // db.r5.large (2 vCPUs, 16 GiB): no memory-family size, so the smallest of any that holds it, by memory then vCPUs
    assertThat(tiers.atLeast("db.r5.large").name()).isEqualTo("custom-4-16");
    assertThat(tiers.atLeast("db.m5.4xlarge")).as("none that large").isNull();
    assertThat(tiers.atLeast("custom-2-8")).as("a provider's own name is no alias").isNull();
    assertThat(tiers.atLeast("db.nosuch.large")).isNull();
    assertThat(tiers.atLeast(new MachineSize("x", Family.MEMORY, 1, 1)).name()).isEqualTo("burst-2-4");
  }

  @Test
  void aCacheIsSizedByMemoryAlone() {
    MachineSizes caches = MachineSizes.of(
        new MachineSize("c-1", Family.GENERAL, 0, 1),
        new MachineSize("c-6", Family.GENERAL, 0, 6),
        new MachineSize("c-13", Family.GENERAL, 0, 13));
    assertThat(caches.atLeast("cache.t3.micro").name()).isEqualTo("c-1");
    // cache.m5.large has 6.38 GiB: 6 is less
    assertThat(caches.atLeast("cache.m5.large").name()).isEqualTo("c-13");
    assertThat(caches.atLeast("cache.r5.xlarge")).isNull();
    assertThat(caches.atLeast("m5.large")).as("an instance type asks for vCPUs a cache size does not give").isNull();
    assertThat(MachineSizes.cacheAliases()).contains("cache.t3.small", "cache.r5.large");
    assertThat(MachineSizes.databaseAliases()).contains("db.t3.medium", "db.r5.large");
  }
}

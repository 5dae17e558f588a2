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
  void twoSizesThatGiveTheSameAreRefused() {
    assertThatThrownBy(() -> MachineSizes.of(new MachineSize("a", Family.GENERAL, 2, 8),
        new MachineSize("b", Family.GENERAL, 2, 8))).hasMessageContaining("a and b give the same");
    assertThatThrownBy(() -> MachineSizes.of(new MachineSize("a", Family.GENERAL, 2, 8),
        new MachineSize("a", Family.MEMORY, 2, 16))).hasMessageContaining("two sizes named a");
  }
}

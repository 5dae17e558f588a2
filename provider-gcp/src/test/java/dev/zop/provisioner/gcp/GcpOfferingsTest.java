package dev.zop.provisioner.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.discovery.Offerings;
import org.junit.jupiter.api.Test;

/** What the wizard offers on GCP: each neutral size as the machine type it becomes, priced as that type. */
class GcpOfferingsTest {
  @Test
  void aNeutralSizeIsOfferedAsTheMachineTypeItBecomesAtThatTypesPrice() {
    Offerings offerings = new GcpProvider().offerings("us-central1");
    assertThat(offerings.machineSizes()).filteredOn(s -> s.name().equals("m5.large")).singleElement()
        .satisfies(size -> {
          assertThat(size.providerName()).isEqualTo(MachineTypes.SIZES.nameForAlias("m5.large"));
          assertThat(size.hourlyPrice()).isEqualByComparingTo(
              GcpPrices.TABLE.hourlyPrice("us-central1", "compute:" + size.providerName()));
        });
    assertThat(offerings.machineSizes()).allSatisfy(size ->
        assertThat(MachineTypes.SIZES.nameForAlias(size.name())).isEqualTo(size.providerName()));
  }
}

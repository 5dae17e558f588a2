package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.discovery.Offerings;
import org.junit.jupiter.api.Test;

/** What the wizard offers on Azure: each neutral size as the VM size it becomes, priced as that size. */
class AzureOfferingsTest {
  @Test
  void aNeutralSizeIsOfferedAsTheVmSizeItBecomesAtThatSizesPrice() {
    Offerings offerings = new AzureProvider().offerings("eastus");
    assertThat(offerings.machineSizes()).filteredOn(s -> s.name().equals("m5.large")).singleElement()
        .satisfies(size -> {
          assertThat(size.providerName()).isEqualTo("Standard_D2s_v5");
          assertThat(size.hourlyPrice()).isEqualByComparingTo(
              AzurePrices.TABLE.hourlyPrice("eastus", "vm:Standard_D2s_v5"));
        });
  }
}

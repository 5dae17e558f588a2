package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.discovery.OfferedSize;
import dev.zop.provisioner.discovery.Offerings;
import org.junit.jupiter.api.Test;

/** What the wizard offers on AWS: the kit's sizes under their own names, priced from the dated table, EKS versions. */
class AwsOfferingsTest {
  @Test
  void sizesComeWithTheirListPriceAndVersionsAreWhatTheDriverTakes() {
    Offerings offerings = new AwsProvider().offerings("us-east-2");
    assertThat(offerings.pricesAsOf()).isEqualTo(AwsPrices.TABLE.asOf());
    assertThat(offerings.machineSizes()).filteredOn(s -> s.name().equals("m5.large")).singleElement()
        .satisfies(size -> {
          assertThat(size.providerName()).isEqualTo("m5.large");
          assertThat(size.family()).isEqualTo("general");
          // us-east-2 is priced as us-east-1
          assertThat(size.hourlyPrice()).isEqualByComparingTo("0.096");
        });
    // every size is priced where the table lists the region
    assertThat(offerings.machineSizes()).extracting(OfferedSize::hourlyPrice).doesNotContainNull();
    // a region the table does not list is offered without prices, never with another region's guess
    assertThat(new AwsProvider().offerings("ap-east-1").machineSizes())
        .isNotEmpty().extracting(OfferedSize::hourlyPrice).containsOnlyNulls();
    assertThat(offerings.databaseClasses()).filteredOn(s -> s.name().equals("db.t3.medium"))
        .extracting(OfferedSize::hourlyPrice).singleElement()
        .isEqualTo(AwsPrices.TABLE.hourlyPrice("us-east-1", "rds-postgres:db.t3.medium"));
    assertThat(offerings.cacheNodeTypes()).extracting(OfferedSize::name).contains("cache.t3.micro");
    assertThat(offerings.kubernetesVersions()).containsExactlyElementsOf(
        KubernetesDriver.VERSIONS.stream().sorted().toList());
  }
}

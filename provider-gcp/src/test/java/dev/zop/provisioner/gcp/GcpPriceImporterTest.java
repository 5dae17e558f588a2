package dev.zop.provisioner.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.kit.PriceTable;
import dev.zop.provisioner.kit.prices.ImportedPrices;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A page of the Cloud Billing Catalog's SKUs, in Google's own format, read into the provider's table. */
class GcpPriceImporterTest {
  @TempDir
  Path dir;

  @Test
  void machineTypesArePricedFromTheirFamilysCoreAndRamSkusAndCloudSqlFromItsVcpuAndRam() throws Exception {
    var results = ImportedPrices.importFile(
        GcpPriceImporterTest.class.getResourceAsStream("prices/compute-skus-page.json"), dir);
    assertThat(results).singleElement().satisfies(r -> {
      assertThat(r.provider()).isEqualTo("gcp");
      assertThat(r.asOf()).isEqualTo("2026-11-20");
      // the seven N2 types the provider offers and Cloud SQL's two unit prices; no E2 SKUs in the page
      assertThat(r.prices()).isEqualTo(Map.of("europe-west3", 9));
    });
    JsonNode frankfurt = new ObjectMapper().readTree(dir.resolve("gcp.json").toFile())
        .at("/regions/europe-west3/hourly");
    // 2 x 0.03805 + 8 x 0.0051; the preemptible core SKU is not on-demand and is left out
    assertThat(frankfurt.get("compute:n2-standard-2").decimalValue()).isEqualByComparingTo("0.1169");
    assertThat(frankfurt.get("compute:n2-highmem-8").decimalValue()).isEqualByComparingTo("0.6308");
    assertThat(frankfurt.has("compute:e2-micro")).isFalse();
    assertThat(frankfurt.get("cloudsql:vcpu").decimalValue()).isEqualByComparingTo("0.0496");
    assertThat(frankfurt.get("cloudsql:ram-gb").decimalValue()).isEqualByComparingTo("0.0084");

    System.setProperty("zop.prices.dir", dir.toString());
    try {
      PriceTable prices = PriceTable.load(GcpPrices.class, "prices.json", "gcp");
      assertThat(prices.hourlyPrice("europe-west3", "compute:n2-standard-4")).isEqualByComparingTo("0.2338");
      assertThat(prices.hourly("europe-west3", "vm", "compute:n2-standard-4", 1).source())
          .isEqualTo("Cloud Billing Catalog on-demand prices (imported) of 2026-11-20");
    } finally {
      System.clearProperty("zop.prices.dir");
    }
  }
}

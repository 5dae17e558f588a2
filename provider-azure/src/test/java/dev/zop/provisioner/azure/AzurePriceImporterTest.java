package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.kit.PriceTable;
import dev.zop.provisioner.kit.prices.ImportedPrices;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A page of the Azure Retail Prices API, in Azure's own format, read into the provider's table. */
class AzurePriceImporterTest {
  @TempDir
  Path dir;

  @Test
  void linuxPayAsYouGoAndStandardCachePricesAreImported() throws Exception {
    var results = ImportedPrices.importFile(
        AzurePriceImporterTest.class.getResourceAsStream("prices/retail-prices-page.json"), dir);
    assertThat(results).singleElement().satisfies(r -> {
      assertThat(r.provider()).isEqualTo("azure");
      assertThat(r.asOf()).isEqualTo("2026-11-01");
      assertThat(r.prices()).isEqualTo(Map.of("westeurope", 2));
    });
    JsonNode west = new ObjectMapper().readTree(dir.resolve("azure.json").toFile()).at("/regions/westeurope/hourly");
    // not the Windows, Spot or reservation lines of the same size, nor the Basic cache of the same name
    assertThat(west.get("vm:Standard_D2s_v5").decimalValue()).isEqualByComparingTo("0.096");
    assertThat(west.get("redis:C1").decimalValue()).isEqualByComparingTo("0.151");

    System.setProperty("zop.prices.dir", dir.toString());
    try {
      PriceTable prices = PriceTable.load(AzurePrices.class, "prices.json", "azure");
      assertThat(prices.hourly("westeurope", "cache", "redis:C1", 1).monthly()).isEqualByComparingTo("110.23");
      assertThat(prices.hourly("westeurope", "cache", "redis:C1", 1).source())
          .isEqualTo("Azure Retail Prices pay-as-you-go prices (imported) of 2026-11-01");
    } finally {
      System.clearProperty("zop.prices.dir");
    }
  }
}

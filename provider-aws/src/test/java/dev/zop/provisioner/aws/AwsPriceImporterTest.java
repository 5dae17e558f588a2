package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.kit.PriceTable;
import dev.zop.provisioner.kit.prices.ImportedPrices;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AWS Price List offer files, excerpts in AWS's own format, read into the provider's table and planned from. */
class AwsPriceImporterTest {
  @TempDir
  Path dir;

  @Test
  void linuxOnDemandAndSingleAzPricesAreImportedAndPlansReadThemNamingTheImportedTable() throws Exception {
    List<ImportedPrices.Result> ec2 = ImportedPrices.importFile(excerpt("AmazonEC2-excerpt.json"), dir);
    assertThat(ec2).singleElement().satisfies(r -> {
      assertThat(r.provider()).isEqualTo("aws");
      assertThat(r.asOf()).isEqualTo("2026-12-01");
      assertThat(r.prices()).isEqualTo(Map.of("eu-central-1", 1, "us-east-1", 1));
    });
    ImportedPrices.importFile(excerpt("AmazonRDS-excerpt.json"), dir);

    JsonNode table = new ObjectMapper().readTree(dir.resolve("aws.json").toFile());
    JsonNode east = table.at("/regions/us-east-1/hourly");
    // the Windows and unused-reservation lines of the same instance type are not the plan's price
    assertThat(east.get("ec2:m5.large").decimalValue()).isEqualByComparingTo("0.096");
    assertThat(east.get("rds-postgres:db.t3.large").decimalValue()).isEqualByComparingTo("0.145");
    assertThat(east.get("rds-mysql:db.t3.large").decimalValue()).isEqualByComparingTo("0.136");
    assertThat(east.size()).isEqualTo(3); // the Multi-AZ line is left out: plans count two single-AZ instances
    assertThat(table.get("asOf").asText()).as("the oldest date of what it holds").isEqualTo("2026-11-30");

    System.setProperty("zop.prices.dir", dir.toString());
    try {
      PriceTable prices = PriceTable.load(AwsPrices.class, "prices.json", "aws");
      CostComponent frankfurt = prices.hourly("eu-central-1", "nodes", "ec2:t3.large", 2);
      assertThat(frankfurt.monthly()).isEqualByComparingTo("140.16");
      assertThat(frankfurt.source()).isEqualTo("AWS Price List on-demand prices (imported) of 2026-11-30");
      // what was not imported is still the shipped table's, and says so
      CostComponent shipped = prices.hourly("us-east-1", "db", "rds-mysql:db.t3.micro", 1);
      assertThat(shipped.monthly()).isEqualByComparingTo("12.41");
      assertThat(shipped.source()).isEqualTo("AWS on-demand list prices of 2026-11-01");
      assertThat(prices.hourly("ap-south-1", "nodes", "ec2:m5.large", 1).priceKnown()).isFalse();
    } finally {
      System.clearProperty("zop.prices.dir");
    }
  }

  @Test
  void aFileInNoVendorsFormatIsRefusedSayingWhatIsRead() {
    assertThatThrownBy(() -> ImportedPrices.importFile(
        new ByteArrayInputStream("{\"prices\": []}".getBytes(StandardCharsets.UTF_8)), dir))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AWS Price List offer file");
  }

  private static InputStream excerpt(String name) {
    return AwsPriceImporterTest.class.getResourceAsStream("prices/" + name);
  }
}

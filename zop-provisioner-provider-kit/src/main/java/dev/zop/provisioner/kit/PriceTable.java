package dev.zop.provisioner.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CostComponent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A dated table of list prices shipped with a provider. A price the table does not hold becomes a "price unknown"
 * line naming what is missing and the table's date; nothing is guessed.
 *
 * <p>The JSON: {@code {"asOf": "2026-11-01", "currency": "USD", "sameAs": {"us-east-2": "us-east-1"},
 * "regions": {"us-east-1": {"hourly": {"ec2:m5.large": 0.096}, "monthly": {"rds:gp3-gb": 0.115}}}}}.
 * {@code sameAs} lets regions with identical prices share one list.
 */
public final class PriceTable {
  private final JsonNode table;
  /** The operator's imported prices, which take the place of this table's key by key; null when none. */
  private final PriceTable imported;

  private PriceTable(JsonNode table, PriceTable imported) {
    this.table = table;
    this.imported = imported;
    if (asOf().isEmpty()) {
      throw new IllegalStateException("a price table needs an asOf date");
    }
  }

  /**
   * Loads the table from a classpath resource beside {@code owner}, under the prices an operator imported for
   * {@code provider} ({@link dev.zop.provisioner.kit.prices.ImportedPrices}): an imported price wins, and its
   * lines name the imported table and its date.
   */
  public static PriceTable load(Class<?> owner, String resource, String provider) {
    PriceTable shipped = load(owner, resource);
    JsonNode imported = dev.zop.provisioner.kit.prices.ImportedPrices.read(
        dev.zop.provisioner.kit.prices.ImportedPrices.directory(), provider);
    return imported == null ? shipped : new PriceTable(shipped.table, new PriceTable(imported, null));
  }

  /** Loads the table from a classpath resource beside {@code owner}. */
  public static PriceTable load(Class<?> owner, String resource) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing beside " + owner.getName());
      }
      return new PriceTable(new ObjectMapper().readTree(in), null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the price table " + resource, e);
    }
  }

  /**
   * What every line priced from this table names: the table's {@code "table"} title and its date, as in
   * {@code "AWS on-demand list prices of 2026-11-01"}.
   */
  public String source() {
    return table.path("table").asText("list prices") + " of " + asOf();
  }

  /** The {@link #source} of the price of {@code key} in {@code region}: the imported table's where it has it. */
  public String sourceOf(String region, String key) {
    return imported != null && imported.hourlyPrice(region, key) != null ? imported.source() : source();
  }

  /** The date the prices were taken, shown in every plan. */
  public String asOf() {
    return table.path("asOf").asText();
  }

  /** {@code count} resources billed by the hour all month; {@code key} like {@code ec2:m5.large}. */
  public CostComponent hourly(String region, String name, String key, long count) {
    if (imported != null && imported.hourlyPrice(region, key) != null) {
      return imported.hourly(region, name, key, count);
    }
    JsonNode price = prices(region).path("hourly").path(key);
    if (price.isMissingNode()) {
      return CostComponent.unknown(name, "hour", CostComponent.HOURS_PER_MONTH.multiply(BigDecimal.valueOf(count)),
          missing(region, key)).from(source());
    }
    return CostComponent.hourly(name, count, price.decimalValue()).from(source());
  }

  /** The list price an hour of {@code key} in {@code region}, or null when the table has none. */
  public BigDecimal hourlyPrice(String region, String key) {
    if (region == null) {
      return null; // a space placed without a region (an Azure resource group's) has no regional list to read
    }
    BigDecimal own = imported == null ? null : imported.hourlyPrice(region, key);
    if (own != null) {
      return own;
    }
    JsonNode price = prices(region).path("hourly").path(key);
    return price.isMissingNode() ? null : price.decimalValue();
  }

  /** {@code quantity} units billed per month, e.g. GB-months of storage. */
  public CostComponent monthly(String region, String name, String unit, String key, BigDecimal quantity) {
    Objects.requireNonNull(quantity, "quantity");
    JsonNode price = prices(region).path("monthly").path(key);
    if (price.isMissingNode()) {
      return CostComponent.unknown(name, unit, quantity, missing(region, key)).from(source());
    }
    return CostComponent.monthly(name, unit, quantity, price.decimalValue()).from(source());
  }

  private JsonNode prices(String region) {
    String listed = table.path("sameAs").path(region).asText(region);
    return table.path("regions").path(listed);
  }

  private String missing(String region, String key) {
    if (region == null) {
      return "no region to price " + key + " in: the space names none and where its resources go could not be read";
    }
    return "no list price for " + key + " in " + region + " in the table of " + asOf();
  }
}

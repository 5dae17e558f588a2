package dev.zop.provisioner.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CostComponent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;

/**
 * On-demand list prices from the dated table shipped with the provider ({@code prices.json}). A price the
 * table does not hold becomes a "price unknown" line naming what is missing; nothing is guessed.
 */
final class AwsPrices {
  private static final JsonNode TABLE = load();

  private AwsPrices() {}

  static String asOf() {
    return TABLE.path("asOf").asText();
  }

  /** {@code count} resources billed by the hour, all month; {@code key} like {@code ec2:m5.large}. */
  static CostComponent hourly(String region, String name, String key, long count) {
    JsonNode price = prices(region).path("hourly").path(key);
    if (price.isMissingNode()) {
      return CostComponent.unknown(name, "hour", CostComponent.HOURS_PER_MONTH.multiply(BigDecimal.valueOf(count)),
          missing(region, key));
    }
    return CostComponent.hourly(name, count, price.decimalValue());
  }

  /** {@code quantity} units billed per month, e.g. GB-months of storage. */
  static CostComponent monthly(String region, String name, String unit, String key, BigDecimal quantity) {
    JsonNode price = prices(region).path("monthly").path(key);
    if (price.isMissingNode()) {
      return CostComponent.unknown(name, unit, quantity, missing(region, key));
    }
    return CostComponent.monthly(name, unit, quantity, price.decimalValue());
  }

  /** The region's prices; Ohio and Oregon list the same on-demand prices as N. Virginia for these services. */
  private static JsonNode prices(String region) {
    String listed = TABLE.path("sameAs").path(region).asText(region);
    return TABLE.path("regions").path(listed);
  }

  private static String missing(String region, String key) {
    return "no list price for " + key + " in " + region + " in the table of " + asOf();
  }

  private static JsonNode load() {
    try (InputStream in = AwsPrices.class.getResourceAsStream("prices.json")) {
      if (in == null) {
        throw new IllegalStateException("prices.json is missing from the AWS provider");
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the AWS price table", e);
    }
  }
}

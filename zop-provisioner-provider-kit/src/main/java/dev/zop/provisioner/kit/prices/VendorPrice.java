package dev.zop.provisioner.kit.prices;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * One on-demand price as a vendor publishes it, in US dollars, before a provider names it in its table.
 *
 * @param region     the vendor's region code ({@code us-east-1}, {@code eastus}, {@code us-central1})
 * @param attributes what the vendor says of the product, under the vendor's own names: an AWS product's attributes
 *                   and {@code productFamily}; an Azure item's fields ({@code serviceName}, {@code armSkuName},
 *                   {@code skuName}, {@code productName}, {@code meterName}, {@code type}); a GCP SKU's
 *                   {@code description} and its category ({@code resourceFamily}, {@code resourceGroup},
 *                   {@code usageType})
 * @param unit       the vendor's unit ({@code Hrs}, {@code 1 Hour}, {@code h}, {@code GiBy.h}, {@code GB-Mo})
 * @param price      the price of one unit
 */
public record VendorPrice(String region, Map<String, String> attributes, String unit, BigDecimal price) {
  public VendorPrice {
    Objects.requireNonNull(region, "region");
    attributes = Map.copyOf(attributes);
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(price, "price");
  }

  /** An attribute, or the empty string when the vendor did not give it. */
  public String attribute(String name) {
    return attributes.getOrDefault(name, "");
  }

  /** Whether the unit is an hour, in any vendor's spelling. */
  public boolean hourly() {
    return unit.equals("Hrs") || unit.equals("1 Hour") || unit.equals("h");
  }
}

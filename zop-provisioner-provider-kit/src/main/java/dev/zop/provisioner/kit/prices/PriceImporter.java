package dev.zop.provisioner.kit.prices;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * How a provider names a vendor's prices in its own table, so an operator can refresh the table from the files the
 * vendor publishes ({@code zop prices import FILE}). Registered for {@link java.util.ServiceLoader} beside the
 * provider.
 */
public interface PriceImporter {
  /** The provider whose table the prices go to ({@code aws}); also the name of its file of imported prices. */
  String provider();

  /** The vendor whose files this reads. */
  VendorPriceFile.Vendor vendor();

  /** What the imported table is called in every line priced from it. */
  String tableName();

  /**
   * The provider's hourly prices by region and key ({@code ec2:m5.large}) that {@code prices} give; prices the
   * provider does not use are left out.
   */
  Map<String, Map<String, BigDecimal>> hourly(List<VendorPrice> prices);

  /**
   * The hourly prices of {@code prices} by region under the key {@code keyOf} gives each, for a provider whose
   * keys each name one vendor price; {@code keyOf} answers null for a price the provider does not use.
   */
  static Map<String, Map<String, BigDecimal>> hourlyByKey(List<VendorPrice> prices,
      java.util.function.Function<VendorPrice, String> keyOf) {
    Map<String, Map<String, BigDecimal>> out = new java.util.TreeMap<>();
    for (VendorPrice price : prices) {
      String key = price.hourly() ? keyOf.apply(price) : null;
      if (key != null) {
        out.computeIfAbsent(price.region(), r -> new java.util.TreeMap<>()).put(key, price.price());
      }
    }
    return out;
  }
}

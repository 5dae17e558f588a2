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
}

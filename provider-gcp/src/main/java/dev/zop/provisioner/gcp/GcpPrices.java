package dev.zop.provisioner.gcp;

import dev.zop.provisioner.kit.PriceTable;

/**
 * On-demand list prices from the dated table shipped with the provider ({@code prices.json}), under what an operator
 * imported from the vendor's own price files ({@code zop prices import}).
 */
final class GcpPrices {
  static final PriceTable TABLE = PriceTable.load(GcpPrices.class, "prices.json", "gcp");

  private GcpPrices() {}
}

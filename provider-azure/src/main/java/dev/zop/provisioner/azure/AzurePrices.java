package dev.zop.provisioner.azure;

import dev.zop.provisioner.kit.PriceTable;

/** List prices from the dated table shipped with the provider ({@code prices.json}). */
final class AzurePrices {
  static final PriceTable TABLE = PriceTable.load(AzurePrices.class, "prices.json", "azure");

  private AzurePrices() {}
}

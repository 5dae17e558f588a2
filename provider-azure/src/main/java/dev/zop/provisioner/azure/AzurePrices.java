package dev.zop.provisioner.azure;

import dev.zop.provisioner.kit.PriceTable;
import java.util.function.Supplier;

/** List prices from the dated table shipped with the provider ({@code prices.json}). */
final class AzurePrices {
  static final PriceTable TABLE = PriceTable.load(AzurePrices.class, "prices.json", "azure");

  private AzurePrices() {}

  /**
   * The region to price in: the space's, or where its resources will go when it names none (the resource group's
   * location). Null when that cannot be read, which leaves every line unknown rather than priced somewhere else.
   */
  static String region(String spaceRegion, Supplier<String> location) {
    if (spaceRegion != null && !spaceRegion.isBlank()) {
      return spaceRegion;
    }
    try {
      return location.get();
    } catch (RuntimeException unreadable) {
      return null;
    }
  }
}

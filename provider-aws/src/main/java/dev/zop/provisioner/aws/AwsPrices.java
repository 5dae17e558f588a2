package dev.zop.provisioner.aws;

import dev.zop.provisioner.kit.PriceTable;

/** On-demand list prices from the dated table shipped with the provider ({@code prices.json}). */
final class AwsPrices {
  static final PriceTable TABLE = PriceTable.load(AwsPrices.class, "prices.json");

  private AwsPrices() {}
}

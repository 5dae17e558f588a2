package dev.zop.provisioner.aws;

import dev.zop.provisioner.kit.PriceTable;

/**
 * On-demand list prices from the dated table shipped with the provider ({@code prices.json}), under what an operator
 * imported from the vendor's own price files ({@code zop prices import}).
 */
final class AwsPrices {
  static final PriceTable TABLE = PriceTable.load(AwsPrices.class, "prices.json", "aws");

  private AwsPrices() {}
}

package dev.zop.provisioner.cli;

import dev.zop.provisioner.CostComponent;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Money as people read it in a plan: a total that left out a line without a price is "at least" that much, and a
 * difference that depends on such a line is unknown, never computed as if the line cost $0.
 */
final class Costs {
  private Costs() {}

  static String money(BigDecimal amount) {
    return "$" + amount.setScale(2, RoundingMode.HALF_UP).toPlainString();
  }

  static String total(BigDecimal knownSum, boolean complete) {
    return complete ? money(knownSum) : "at least " + money(knownSum);
  }

  static String delta(BigDecimal delta) {
    if (delta == null) {
      return "difference unknown: a price on one side is not in the table";
    }
    return (delta.signum() > 0 ? "+" : delta.signum() < 0 ? "-" : "±") + money(delta.abs());
  }

  /** A line for each priced line whose price is unknown, saying why. */
  static void unknownLines(StringBuilder out, List<CostComponent> costs) {
    costs.stream().filter(c -> !c.priceKnown())
        .forEach(c -> out.append("unknown price: ").append(c.name()).append(" (").append(c.note()).append(")\n"));
  }
}

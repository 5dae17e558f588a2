package dev.zop.provisioner;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One priced line of an estimate, in US dollars. When a price is not known, both prices are null and
 * {@code note} says why, rather than guessing: a total that holds such a line is a lower bound, never a sum that
 * counted it as $0.
 *
 * @param unit     what is counted: {@code hour}, {@code GB-month}, ...
 * @param quantity how many units per month (hours are counted at 730 per month)
 * @param source   the price table the line was read from and its date ({@code "AWS on-demand list prices of
 *                 2026-11-01"}), also for a price the table did not hold; null for a line priced by hand
 */
@NullMarked
public record CostComponent(String name, String unit, BigDecimal quantity, @Nullable BigDecimal unitPrice,
    @Nullable BigDecimal monthly, @Nullable String note, @Nullable String source) {

  /** Hours in an average month, the convention cloud price pages use. */
  public static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);

  public CostComponent {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(quantity, "quantity");
  }

  /** A line without the table it came from, as lines were before they named it. */
  public CostComponent(String name, String unit, BigDecimal quantity, BigDecimal unitPrice, BigDecimal monthly,
      String note) {
    this(name, unit, quantity, unitPrice, monthly, note, null);
  }

  /** This line, naming the table (and its date) its price was read from. */
  public CostComponent from(String table) {
    return new CostComponent(name, unit, quantity, unitPrice, monthly, note, table);
  }

  /** {@code count} resources billed by the hour, all month. */
  public static CostComponent hourly(String name, long count, BigDecimal pricePerHour) {
    BigDecimal hours = HOURS_PER_MONTH.multiply(BigDecimal.valueOf(count));
    return new CostComponent(name, "hour", hours, pricePerHour,
        pricePerHour.multiply(hours).setScale(2, RoundingMode.HALF_UP), null);
  }

  /** {@code quantity} units billed per month, e.g. GB-month of storage. */
  public static CostComponent monthly(String name, String unit, BigDecimal quantity, BigDecimal pricePerUnit) {
    return new CostComponent(name, unit, quantity, pricePerUnit,
        pricePerUnit.multiply(quantity).setScale(2, RoundingMode.HALF_UP), null);
  }

  public static CostComponent unknown(String name, String unit, BigDecimal quantity, String why) {
    return new CostComponent(name, unit, quantity, null, null, "price unknown: " + why);
  }

  public boolean priceKnown() {
    return monthly != null;
  }
}

package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.CostComponent;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class PriceTableTest {
  private final PriceTable table = PriceTable.load(PriceTableTest.class, "test-prices.json");

  @Test
  void pricesWhatItListsAndSaysWhenItWasTaken() {
    assertThat(table.asOf()).isEqualTo("2026-11-01");
    CostComponent vm = table.hourly("east-1", "two small VMs", "vm:small", 2);
    assertThat(vm.priceKnown()).isTrue();
    assertThat(vm.monthly()).isEqualByComparingTo(new BigDecimal("0.02").multiply(CostComponent.HOURS_PER_MONTH)
        .multiply(BigDecimal.valueOf(2)));
    assertThat(table.monthly("east-1", "disk", "GB-month", "disk:gb", BigDecimal.TEN).monthly())
        .isEqualByComparingTo("1.0");
  }

  @Test
  void aRegionCanShareAnotherRegionsList() {
    assertThat(table.hourly("east-2", "vm", "vm:small", 1).priceKnown()).isTrue();
  }

  @Test
  void anUnlistedPriceIsUnknownAndSaysWhatIsMissing() {
    CostComponent unknown = table.hourly("west-9", "vm", "vm:huge", 1);
    assertThat(unknown.priceKnown()).isFalse();
    assertThat(unknown.toString()).contains("vm:huge").contains("west-9").contains("2026-11-01");
  }

  @Test
  void aMissingTableIsAClearError() {
    assertThatThrownBy(() -> PriceTable.load(PriceTableTest.class, "absent.json"))
        .hasMessageContaining("absent.json");
  }
}

package dev.zop.provisioner.gcp;

import com.google.auto.service.AutoService;
import dev.zop.provisioner.kit.MachineSize;
import dev.zop.provisioner.kit.prices.PriceImporter;
import dev.zop.provisioner.kit.prices.VendorPrice;
import dev.zop.provisioner.kit.prices.VendorPriceFile;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pages of the Cloud Billing Catalog's SKUs (Compute Engine's, Cloud SQL's) as the provider's table names them.
 * Google prices a machine type by its family's vCPU and memory SKUs ("N2 Instance Core running in Americas", "N2
 * Instance Ram ..."), so each machine type the provider offers is its vCPUs times the one plus its GB times the
 * other; the shared-core types (e2-micro, e2-small, e2-medium) have no such SKUs and keep the shipped prices. Cloud
 * SQL's zonal vCPU and RAM SKUs give its custom tiers.
 */
@AutoService(PriceImporter.class)
public final class GcpPriceImporter implements PriceImporter {
  private static final Pattern MACHINE_SKU = Pattern.compile("([A-Z0-9]+) Instance (Core|Ram) running in .*");
  private static final Pattern SQL_SKU = Pattern.compile("Cloud SQL for PostgreSQL: Zonal - (vCPU|RAM) in .*");
  private static final List<String> SHARED_CORE = List.of("e2-micro", "e2-small", "e2-medium");

  @Override
  public String provider() {
    return GcpProvider.ID;
  }

  @Override
  public VendorPriceFile.Vendor vendor() {
    return VendorPriceFile.Vendor.GCP;
  }

  @Override
  public String tableName() {
    return "Cloud Billing Catalog on-demand prices";
  }

  @Override
  public Map<String, Map<String, BigDecimal>> hourly(List<VendorPrice> prices) {
    // per region: "n2:core" -> price a vCPU-hour, "n2:ram" -> price a GiB-hour
    Map<String, Map<String, BigDecimal>> units = new HashMap<>();
    Map<String, Map<String, BigDecimal>> out = new TreeMap<>();
    for (VendorPrice price : prices) {
      String description = price.attribute("description");
      Matcher machine = MACHINE_SKU.matcher(description);
      Matcher sql = SQL_SKU.matcher(description);
      if (machine.matches() && !description.contains("Sole Tenancy") && !description.contains("Custom")) {
        units.computeIfAbsent(price.region(), r -> new HashMap<>())
            .put(machine.group(1).toLowerCase(java.util.Locale.ROOT) + ":" + machine.group(2).toLowerCase(
                java.util.Locale.ROOT), price.price());
      } else if (sql.matches()) {
        out.computeIfAbsent(price.region(), r -> new TreeMap<>())
            .put(sql.group(1).equals("vCPU") ? "cloudsql:vcpu" : "cloudsql:ram-gb", price.price());
      }
    }
    units.forEach((region, byFamily) -> {
      for (MachineSize size : MachineTypes.SIZES.all()) {
        String family = size.name().substring(0, size.name().indexOf('-'));
        BigDecimal core = byFamily.get(family + ":core");
        BigDecimal ram = byFamily.get(family + ":ram");
        if (core != null && ram != null && !SHARED_CORE.contains(size.name())) {
          out.computeIfAbsent(region, r -> new TreeMap<>()).put("compute:" + size.name(),
              core.multiply(BigDecimal.valueOf(size.vcpus())).add(ram.multiply(BigDecimal.valueOf(size.memoryGib())))
                  .stripTrailingZeros());
        }
      }
    });
    return out;
  }
}

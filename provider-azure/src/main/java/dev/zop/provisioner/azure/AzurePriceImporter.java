package dev.zop.provisioner.azure;

import com.google.auto.service.AutoService;
import dev.zop.provisioner.kit.prices.PriceImporter;
import dev.zop.provisioner.kit.prices.VendorPrice;
import dev.zop.provisioner.kit.prices.VendorPriceFile;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Pages of the Azure Retail Prices API as the provider's table names them: Linux pay-as-you-go virtual machines
 * (not Spot or Low Priority) and Azure Cache for Redis Standard (C) and Premium (P) sizes, each by the hour.
 * Flexible servers are priced by the vCore in that API and keep the shipped table's prices.
 */
@AutoService(PriceImporter.class)
public final class AzurePriceImporter implements PriceImporter {
  private static final Pattern REDIS_SIZE = Pattern.compile("[CP]\\d+");

  @Override
  public String provider() {
    return AzureProvider.ID;
  }

  @Override
  public VendorPriceFile.Vendor vendor() {
    return VendorPriceFile.Vendor.AZURE;
  }

  @Override
  public String tableName() {
    return "Azure Retail Prices pay-as-you-go prices";
  }

  @Override
  public Map<String, Map<String, BigDecimal>> hourly(List<VendorPrice> prices) {
    return PriceImporter.hourlyByKey(prices, AzurePriceImporter::key);
  }

  private static String key(VendorPrice price) {
    String product = price.attribute("productName");
    String sku = price.attribute("skuName");
    if (price.attribute("serviceName").equals("Virtual Machines")) {
      boolean plain = !product.contains("Windows") && !sku.contains("Spot") && !sku.contains("Low Priority")
          && !price.attribute("armSkuName").isEmpty();
      return plain ? "vm:" + price.attribute("armSkuName") : null;
    }
    if (price.attribute("serviceName").equals("Redis Cache") && REDIS_SIZE.matcher(sku).matches()) {
      boolean tier = sku.startsWith("C") ? product.contains("Standard") : product.contains("Premium");
      return tier ? "redis:" + sku : null;
    }
    return null;
  }
}

package dev.zop.provisioner.aws;

import com.google.auto.service.AutoService;
import dev.zop.provisioner.kit.prices.PriceImporter;
import dev.zop.provisioner.kit.prices.VendorPrice;
import dev.zop.provisioner.kit.prices.VendorPriceFile;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The AWS Price List offer files (AmazonEC2, AmazonRDS, AmazonElastiCache) as the provider's table names them: Linux
 * shared-tenancy instances, single-AZ RDS instances by engine, Redis cache nodes, each by the hour.
 */
@AutoService(PriceImporter.class)
public final class AwsPriceImporter implements PriceImporter {
  @Override
  public String provider() {
    return AwsProvider.ID;
  }

  @Override
  public VendorPriceFile.Vendor vendor() {
    return VendorPriceFile.Vendor.AWS;
  }

  @Override
  public String tableName() {
    return "AWS Price List on-demand prices";
  }

  @Override
  public Map<String, Map<String, BigDecimal>> hourly(List<VendorPrice> prices) {
    return PriceImporter.hourlyByKey(prices, AwsPriceImporter::key);
  }

  private static String key(VendorPrice price) {
    String type = price.attribute("instanceType");
    switch (price.attribute("productFamily")) {
      case "Compute Instance" -> {
        boolean plain = price.attribute("operatingSystem").equals("Linux")
            && price.attribute("tenancy").equals("Shared") && price.attribute("preInstalledSw").equals("NA")
            && price.attribute("capacitystatus").equals("Used");
        return plain ? "ec2:" + type : null;
      }
      case "Database Instance" -> {
        if (!price.attribute("deploymentOption").equals("Single-AZ")) {
          return null; // a multi-AZ plan counts two single-AZ instances, as the provider prices it
        }
        return switch (price.attribute("databaseEngine")) {
          case "PostgreSQL" -> "rds-postgres:" + type;
          case "MySQL" -> "rds-mysql:" + type;
          default -> null;
        };
      }
      case "Cache Instance" -> {
        return price.attribute("cacheEngine").equals("Redis") ? "elasticache:" + type : null;
      }
      default -> {
        return null;
      }
    }
  }
}

package dev.zop.provisioner.kit.prices;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A price file in a vendor's own format, as an operator downloads it, read into {@link VendorPrice}s:
 * <ul>
 *   <li>an AWS Price List offer file ({@code https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/
 *       current/us-east-1/index.json}: {@code offerCode}, {@code products} by SKU, {@code terms.OnDemand});</li>
 *   <li>a page of the Azure Retail Prices API ({@code https://prices.azure.com/api/retail/prices?$filter=...}:
 *       {@code Items}, each with {@code armRegionName}, {@code retailPrice}, {@code unitOfMeasure});</li>
 *   <li>a page of the Cloud Billing Catalog API's SKUs ({@code https://cloudbilling.googleapis.com/v1/services/
 *       SERVICE/skus}: {@code skus}, each with {@code serviceRegions}, {@code category} and
 *       {@code pricingInfo[].pricingExpression.tieredRates}).</li>
 * </ul>
 * Only US-dollar, on-demand (pay-as-you-go) prices are read; reservations, savings plans, spot and other currencies
 * are left out, as plans price on demand.
 */
public final class VendorPriceFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The vendor whose format a file is in. */
  public enum Vendor { AWS, AZURE, GCP }

  /**
   * What a file held.
   *
   * @param vendor the vendor whose format it is
   * @param asOf   the date the vendor published it ({@code publicationDate}, the newest {@code effectiveStartDate}
   *               or {@code effectiveTime}), as {@code yyyy-mm-dd}
   * @param prices each on-demand US-dollar price
   */
  public record Read(Vendor vendor, String asOf, List<VendorPrice> prices) {
    public Read {
      prices = List.copyOf(prices);
    }
  }

  private VendorPriceFile() {}

  /** Reads a file in any of the three formats, told apart by their top-level fields. */
  public static Read read(InputStream in) throws IOException {
    JsonNode root = JSON.readTree(in);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a price file: a JSON object is expected");
    }
    if (root.has("offerCode") && root.has("products")) {
      return aws(root);
    }
    if (root.has("Items")) {
      return azure(root);
    }
    if (root.has("skus")) {
      return gcp(root);
    }
    throw new IllegalArgumentException("not a price file this reads: expected an AWS Price List offer file"
        + " (offerCode, products, terms), an Azure Retail Prices page (Items) or a Cloud Billing Catalog SKU page"
        + " (skus)");
  }

  private static Read aws(JsonNode root) {
    List<VendorPrice> out = new ArrayList<>();
    JsonNode onDemand = root.path("terms").path("OnDemand");
    for (Iterator<Map.Entry<String, JsonNode>> products = root.get("products").fields(); products.hasNext(); ) {
      Map.Entry<String, JsonNode> product = products.next();
      Map<String, String> attributes = new HashMap<>();
      product.getValue().path("attributes").fields()
          .forEachRemaining(a -> attributes.put(a.getKey(), a.getValue().asText()));
      attributes.put("productFamily", product.getValue().path("productFamily").asText());
      attributes.put("offerCode", root.get("offerCode").asText());
      String region = attributes.getOrDefault("regionCode", "");
      if (region.isEmpty()) {
        continue; // global products (data transfer between regions) have no region to price a plan in
      }
      for (JsonNode term : iterable(onDemand.path(product.getKey()))) {
        for (JsonNode dimension : iterable(term.path("priceDimensions"))) {
          JsonNode usd = dimension.path("pricePerUnit").path("USD");
          if (usd.isTextual() && dimension.path("beginRange").asText("0").equals("0")) {
            out.add(new VendorPrice(region, attributes, dimension.path("unit").asText(),
                new BigDecimal(usd.asText()).stripTrailingZeros()));
          }
        }
      }
    }
    return new Read(Vendor.AWS, date(root.path("publicationDate").asText()), out);
  }

  private static Read azure(JsonNode root) {
    List<VendorPrice> out = new ArrayList<>();
    String newest = "";
    for (JsonNode item : root.get("Items")) {
      if (!item.path("currencyCode").asText("USD").equals("USD") || !item.path("type").asText().equals("Consumption")
          || item.path("tierMinimumUnits").asDouble(0) != 0) {
        continue;
      }
      Map<String, String> attributes = new HashMap<>();
      for (String field : List.of("serviceName", "serviceFamily", "productName", "skuName", "armSkuName",
          "meterName", "type", "location")) {
        attributes.put(field, item.path(field).asText());
      }
      out.add(new VendorPrice(item.path("armRegionName").asText(), attributes, item.path("unitOfMeasure").asText(),
          item.get("retailPrice").decimalValue().stripTrailingZeros()));
      String effective = date(item.path("effectiveStartDate").asText());
      newest = effective.compareTo(newest) > 0 ? effective : newest;
    }
    return new Read(Vendor.AZURE, newest, out);
  }

  private static Read gcp(JsonNode root) {
    List<VendorPrice> out = new ArrayList<>();
    String newest = "";
    for (JsonNode sku : root.get("skus")) {
      JsonNode category = sku.path("category");
      if (!category.path("usageType").asText().equals("OnDemand")) {
        continue;
      }
      Map<String, String> attributes = new HashMap<>();
      attributes.put("description", sku.path("description").asText());
      attributes.put("serviceDisplayName", category.path("serviceDisplayName").asText());
      attributes.put("resourceFamily", category.path("resourceFamily").asText());
      attributes.put("resourceGroup", category.path("resourceGroup").asText());
      attributes.put("usageType", category.path("usageType").asText());
      JsonNode pricing = sku.path("pricingInfo").path(0);
      JsonNode expression = pricing.path("pricingExpression");
      JsonNode rate = firstPaidTier(expression.path("tieredRates"));
      if (rate == null || !rate.path("unitPrice").path("currencyCode").asText("USD").equals("USD")) {
        continue;
      }
      BigDecimal price = new BigDecimal(rate.path("unitPrice").path("units").asText("0"))
          .add(BigDecimal.valueOf(rate.path("unitPrice").path("nanos").asLong(0), 9)).stripTrailingZeros();
      for (JsonNode region : sku.path("serviceRegions")) {
        out.add(new VendorPrice(region.asText(), attributes, expression.path("usageUnit").asText(), price));
      }
      String effective = date(pricing.path("effectiveTime").asText());
      newest = effective.compareTo(newest) > 0 ? effective : newest;
    }
    return new Read(Vendor.GCP, newest, out);
  }

  /** The rate from the first tier: a free first tier (a monthly allowance) is passed over for the rate after it. */
  private static JsonNode firstPaidTier(JsonNode tiers) {
    JsonNode chosen = null;
    for (JsonNode tier : tiers) {
      chosen = tier;
      JsonNode price = tier.path("unitPrice");
      if (price.path("units").asLong(0) != 0 || price.path("nanos").asLong(0) != 0) {
        return tier;
      }
    }
    return chosen;
  }

  private static Iterable<JsonNode> iterable(JsonNode node) {
    List<JsonNode> values = new ArrayList<>();
    node.elements().forEachRemaining(values::add);
    return values;
  }

  /** The {@code yyyy-mm-dd} a timestamp begins with, or the empty string. */
  private static String date(String timestamp) {
    return timestamp.length() >= 10 ? timestamp.substring(0, 10) : "";
  }
}

package dev.zop.provisioner.kit.prices;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The operator's imported prices: a file a provider, {@code <provider>.json} in {@link #directory()}, in the
 * format of a shipped {@link dev.zop.provisioner.kit.PriceTable}, whose prices take the place of the shipped ones
 * key by key. An engine reads it when it starts.
 */
public final class ImportedPrices {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What one import wrote.
   *
   * @param provider the provider whose table it went to
   * @param file     the file written
   * @param asOf     the vendor's date of the prices
   * @param prices   how many prices were written, by region
   */
  public record Result(String provider, Path file, String asOf, Map<String, Integer> prices) {}

  private ImportedPrices() {}

  /**
   * Where imported prices are kept: {@code -Dzop.prices.dir}, else {@code ZOP_PRICES_DIR}, else
   * {@code $XDG_CONFIG_HOME/zop-provisioner/prices} ({@code ~/.config/zop-provisioner/prices}).
   */
  public static Path directory() {
    String set = System.getProperty("zop.prices.dir", System.getenv("ZOP_PRICES_DIR"));
    if (set != null && !set.isBlank()) {
      return Path.of(set);
    }
    String config = System.getenv("XDG_CONFIG_HOME");
    Path base = config != null && !config.isBlank() ? Path.of(config)
        : Path.of(System.getProperty("user.home"), ".config");
    return base.resolve("zop-provisioner").resolve("prices");
  }

  /** The imported table of {@code provider} in {@code directory}, or null when none was imported. */
  public static JsonNode read(Path directory, String provider) {
    Path file = directory.resolve(provider + ".json");
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the imported prices " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads a vendor's price file and merges what each provider of that vendor uses into its imported table in
   * {@code directory} (prices already imported for other keys stay). Refuses a file no provider on the class path
   * takes, or one whose prices no provider uses.
   */
  public static List<Result> importFile(InputStream vendorFile, Path directory) throws IOException {
    VendorPriceFile.Read read = VendorPriceFile.read(vendorFile);
    List<PriceImporter> importers = ServiceLoader.load(PriceImporter.class).stream().map(ServiceLoader.Provider::get)
        .filter(importer -> importer.vendor() == read.vendor()).toList();
    if (importers.isEmpty()) {
      throw new IllegalArgumentException("no provider on the class path reads " + read.vendor() + " prices");
    }
    List<Result> results = importers.stream().map(importer -> write(importer, read, directory))
        .filter(result -> !result.prices().isEmpty()).toList();
    if (results.isEmpty()) {
      throw new IllegalArgumentException("the file holds " + read.prices().size() + " " + read.vendor()
          + " prices and none of them is one a plan uses (on-demand, US dollars, the sizes the providers offer)");
    }
    return results;
  }

  private static Result write(PriceImporter importer, VendorPriceFile.Read read, Path directory) {
    Map<String, Map<String, BigDecimal>> hourly = importer.hourly(read.prices());
    Map<String, Integer> counts = new TreeMap<>();
    hourly.forEach((region, prices) -> {
      if (!prices.isEmpty()) {
        counts.put(region, prices.size());
      }
    });
    Path file = directory.resolve(importer.provider() + ".json");
    if (counts.isEmpty()) {
      return new Result(importer.provider(), file, read.asOf(), counts);
    }
    JsonNode before = read(directory, importer.provider());
    ObjectNode table = before instanceof ObjectNode kept ? kept : JSON.createObjectNode();
    String asOf = read.asOf().isEmpty() ? java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString() : read.asOf();
    // the table's date is the oldest of what it holds: a plan must not show a newer date than its prices have
    String earlier = table.path("asOf").asText("");
    table.put("asOf", earlier.isEmpty() || asOf.compareTo(earlier) < 0 ? asOf : earlier);
    table.put("currency", "USD");
    table.put("table", importer.tableName() + " (imported)");
    ObjectNode regions = table.withObjectProperty("regions");
    hourly.forEach((region, prices) -> {
      ObjectNode list = regions.withObjectProperty(region).withObjectProperty("hourly");
      prices.forEach((key, price) -> list.put(key, price));
    });
    try {
      Files.createDirectories(directory);
      Path partial = Files.createTempFile(directory, importer.provider(), ".partial");
      JSON.writerWithDefaultPrettyPrinter().writeValue(partial.toFile(), table);
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot write " + file, e);
    }
    return new Result(importer.provider(), file, asOf, counts);
  }
}

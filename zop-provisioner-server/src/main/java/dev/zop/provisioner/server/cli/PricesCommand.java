package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.kit.prices.ImportedPrices;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "prices", mixinStandardHelpOptions = true,
    description = "Refresh the providers' price tables from the vendors' own price files.",
    subcommands = PricesCommand.Import.class)
final class PricesCommand {

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = {"Read a price file as the vendor publishes it into the price table of each provider that uses"
          + " its prices; an engine started afterwards plans with them, and every line priced from them names the"
          + " imported table and the vendor's date.",
          "Reads: an AWS Price List offer file (AmazonEC2, AmazonRDS, AmazonElastiCache index.json for a region), a"
              + " page of the Azure Retail Prices API, a page of the Cloud Billing Catalog's SKUs (Compute Engine,"
              + " Cloud SQL). Prices already imported for other sizes stay."})
  static final class Import implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "the vendor's price files (JSON)")
    List<Path> files;

    @Option(names = "--dir", description = "where imported prices are kept (default: ZOP_PRICES_DIR, else"
        + " $XDG_CONFIG_HOME/zop-provisioner/prices); the engine reads the same place")
    Path dir;

    @Override
    public Integer call() throws Exception {
      Path directory = dir != null ? dir : ImportedPrices.directory();
      for (Path file : files) {
        try (InputStream in = Files.newInputStream(file)) {
          for (ImportedPrices.Result result : ImportedPrices.importFile(in, directory)) {
            int total = result.prices().values().stream().mapToInt(Integer::intValue).sum();
            System.out.println(result.provider() + ": " + total + " prices of " + result.asOf() + " from " + file
                + " into " + result.file() + " " + result.prices());
          }
        }
      }
      System.err.println("engines started from now on plan with these prices (restart a running one)");
      return 0;
    }
  }
}

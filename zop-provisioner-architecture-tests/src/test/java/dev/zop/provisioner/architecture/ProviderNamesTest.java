package dev.zop.provisioner.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.spi.CloudProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A provider is one module: the resource types a cloud's remediation acts on are named by that cloud's provider
 * ({@link CloudProvider#remediationTypes()}) and by no module the providers plug into. Read from the installed
 * providers themselves, then looked for, as string literals, in the sources of every such module.
 */
class ProviderNamesTest {
  /** The modules the providers plug into, which must name no cloud's resource types. */
  private static final List<String> SHARED = List.of("zop-provisioner-api", "zop-provisioner-core",
      "zop-provisioner-wire", "zop-provisioner-client", "zop-provisioner-server", "zop-provisioner-cli",
      "zop-provisioner-notifiers", "zop-provisioner-spring-boot-starter", "zop-provisioner-provider-kit");

  @Test
  void noSharedModuleNamesACloudsResourceTypes() {
    Set<String> types = new TreeSet<>();
    ServiceLoader.load(CloudProvider.class).stream()
        .forEach(p -> p.get().remediationTypes().values().forEach(types::addAll));
    // AWS's, GCP's and Azure's at least: a rule over an empty list would pass for nothing
    assertThat(types).contains("ec2-instance", "cloudsql-instance", "synapse-pool");

    List<String> named = new ArrayList<>();
    for (String module : SHARED) {
      Path sources = Path.of("..", module, "src", "main");
      assertThat(sources).as(module + "'s sources").isDirectory();
      try (Stream<Path> files = Files.walk(sources)) {
        files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".js")).forEach(file -> {
          String text = read(file);
          for (String type : types) {
            if (text.contains("\"" + type + "\"") || text.contains("'" + type + "'")) {
              named.add(Path.of("..").relativize(file) + " names " + type);
            }
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(named).as("a cloud's resource types named outside its provider's module").isEmpty();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

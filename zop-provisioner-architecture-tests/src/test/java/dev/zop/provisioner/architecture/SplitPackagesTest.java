package dev.zop.provisioner.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each module's classes live in packages of its own: no jar reaches into another's package-private members by
 * putting a class in it (what the testkit's crash hook once did in the engine's package), and the modules can
 * become named modules without a split package. Read from the sources of every module of the build.
 */
class SplitPackagesTest {

  @Test
  void noPackageSpansTwoModules() throws IOException {
    Map<String, Set<String>> modulesByPackage = new TreeMap<>();
    List<Path> modules;
    try (Stream<Path> dirs = Files.list(Path.of(".."))) {
      modules = dirs.filter(dir -> Files.isDirectory(dir.resolve("src/main/java"))).sorted().toList();
    }
    // the engine, the API, the testkit and the providers at least: a rule over no module would pass for nothing
    assertThat(modules).extracting(dir -> dir.getFileName().toString())
        .contains("zop-provisioner-core", "zop-provisioner-api", "zop-provisioner-testkit", "provider-aws");
    for (Path module : modules) {
      Path sources = module.resolve("src/main/java");
      for (String pkg : packagesOf(sources)) {
        modulesByPackage.computeIfAbsent(pkg, p -> new TreeSet<>()).add(module.getFileName().toString());
      }
    }
    Map<String, Set<String>> split = modulesByPackage.entrySet().stream().filter(e -> e.getValue().size() > 1)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    assertThat(split).as("packages whose classes come from more than one module").isEmpty();
  }

  private static Set<String> packagesOf(Path sources) {
    try (Stream<Path> files = Files.walk(sources)) {
      return files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
          .map(f -> sources.relativize(f.getParent()).toString().replace(java.io.File.separatorChar, '.'))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The console's ES modules import one another without a circle: the shell imports pages, never the reverse. */
class ConsoleModulesTest {
  private static final Path CONSOLE = Path.of("src/main/resources/dev/zop/provisioner/server/console");
  private static final Pattern IMPORT = Pattern.compile("^import [^;]*? from '\\./([a-z0-9-]+\\.js)';",
      Pattern.MULTILINE);

  @Test
  void noModuleImportsItselfThroughAnother() throws IOException {
    Map<String, List<String>> imports = new HashMap<>();
    try (Stream<Path> files = Files.list(CONSOLE)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".js")).toList()) {
        List<String> named = new ArrayList<>();
        Matcher m = IMPORT.matcher(Files.readString(file));
        while (m.find()) {
          named.add(m.group(1));
        }
        imports.put(file.getFileName().toString(), named);
      }
    }
    assertThat(imports).containsKeys("app.js", "notice.js", "jobs.js");
    assertThat(imports.get("app.js")).contains("jobs.js", "notice.js");
    List<String> circles = new ArrayList<>();
    for (String start : imports.keySet()) {
      circle(start, start, imports, new LinkedHashSet<>(), circles);
    }
    assertThat(circles).as("import circles").isEmpty();
  }

  private static void circle(String start, String at, Map<String, List<String>> imports, Set<String> path,
      List<String> circles) {
    if (!path.add(at)) {
      return;
    }
    for (String next : imports.getOrDefault(at, List.of())) {
      if (next.equals(start)) {
        circles.add(String.join(" -> ", path) + " -> " + start);
      } else {
        circle(start, next, imports, path, circles);
      }
    }
    path.remove(at);
  }
}

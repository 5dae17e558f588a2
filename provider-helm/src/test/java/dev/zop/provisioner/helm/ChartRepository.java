package dev.zop.provisioner.helm;

import com.marcnuri.helm.Helm;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The project's fixture charts packaged with Helm, and the upstream charts vendored as packages, served as a chart
 * repository on 127.0.0.1.
 */
final class ChartRepository implements AutoCloseable {
  private final HttpServer server;
  private final Path root;

  private ChartRepository(HttpServer server, Path root) {
    this.server = server;
    this.root = root;
  }

  /**
   * Packages every chart under {@code charts/} in the test resources and serves them, with the packages under
   * {@code upstream-charts/}, behind one index.
   */
  static ChartRepository serve() throws IOException {
    Path root = Files.createTempDirectory("zop-charts");
    Path sources = Path.of("src/test/resources/charts").toAbsolutePath();
    StringBuilder index = new StringBuilder("apiVersion: v1\nentries:\n");
    // a chart's versions sit under its name (from Chart.yaml, not the directory's) in one entry
    Map<String, List<String>> versions = new TreeMap<>();
    try (Stream<Path> charts = Files.list(sources)) {
      for (Path chart : charts.sorted().toList()) {
        new Helm(chart).packageIt().withDestination(root).call();
        List<String> lines = Files.readAllLines(chart.resolve("Chart.yaml"));
        versions.computeIfAbsent(field(lines, "name:"), n -> new ArrayList<>()).add(field(lines, "version:"));
      }
    }
    // helm-java does not write index.yaml, so the fixture does
    versions.forEach((name, list) -> {
      index.append("  ").append(name).append(":\n");
      for (String version : list) {
        index.append("  - apiVersion: v2\n    name: ").append(name).append("\n    version: ").append(version)
            .append("\n    urls:\n    - ").append(name).append('-').append(version).append(".tgz\n");
      }
    });
    // upstream charts vendored already packaged, named <chart>-<version>.tgz (see upstream-charts/README.md)
    try (Stream<Path> packages = Files.list(Path.of("src/test/resources/upstream-charts").toAbsolutePath())) {
      for (Path tgz : packages.filter(p -> p.toString().endsWith(".tgz")).sorted().toList()) {
        String file = tgz.getFileName().toString();
        String base = file.substring(0, file.length() - ".tgz".length());
        int dash = base.lastIndexOf('-');
        String name = base.substring(0, dash);
        Files.copy(tgz, root.resolve(file));
        index.append("  ").append(name).append(":\n  - apiVersion: v2\n    name: ").append(name)
            .append("\n    version: ").append(base.substring(dash + 1)).append("\n    urls:\n    - ").append(file)
            .append('\n');
      }
    }
    Files.writeString(root.resolve("index.yaml"), index.toString());
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
      if (!file.startsWith(root) || !Files.isRegularFile(file)) {
        exchange.sendResponseHeaders(404, -1);
        exchange.close();
        return;
      }
      byte[] body = Files.readAllBytes(file);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return new ChartRepository(server, root);
  }

  private static String field(List<String> lines, String key) {
    return lines.stream().filter(l -> l.startsWith(key)).findFirst().orElseThrow().substring(key.length()).trim();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

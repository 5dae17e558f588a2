package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed OpenAPI document as other teams' tools read it, none of them ours: Redocly's and Spectral's linters
 * find nothing to report; a Python client that openapi-generator makes from it, and a TypeScript client typed by
 * openapi-typescript for openapi-fetch (type-checked strictly first), each run the quick path — plan, submit, list
 * a page then the next, await, events, a revision planned and applied with its history, delete — against a real {@code zop serve --demo} process, with no edits to
 * what was generated. The npm tools are those {@code contract-clients/package-lock.json} pins, installed by
 * {@code scripts/test.sh}; the generator is the jar the build copies into {@code target/tools}.
 */
class GeneratedClientsTest {
  static final Path DOCUMENT = OpenApiDocumentTest.COMMITTED.toAbsolutePath();
  static final Path TOOLS = Path.of("..", "contract-clients").toAbsolutePath().normalize();
  static final Path GENERATED = Path.of("target", "generated-clients").toAbsolutePath();

  static Path dir;
  static ZopServeProcess serve;
  static String base;
  static String token;

  @BeforeAll
  static void start() throws Exception {
    assertThat(TOOLS.resolve("node_modules/.bin/redocly")).as("the npm tools of contract-clients are installed:"
        + " scripts/test.sh runs npm ci there (or run it yourself: npm ci --prefix contract-clients)").exists();
    dir = Files.createTempDirectory("zop-demo");
    token = zop("tokens", "create", "--data-dir", dir.toString(), "--org", "demo", "--actor", "clients@example.com",
        "--role", "admin").trim();
    serve = ZopServeProcess.start(dir, Map.of(), "--demo");
    base = serve.base();
  }

  @AfterAll
  static void stop() throws Exception {
    if (serve != null) {
      serve.close();
    }
  }

  @Test
  void redoclyFindsNothingToReport() throws Exception {
    Run lint = run(TOOLS, Map.of(), node("redocly"), "lint", DOCUMENT.toString());
    assertThat(lint.exit()).as(lint.out()).isZero();
    assertThat(lint.out()).contains("Your API description is valid").doesNotContainPattern("You have \\d+ warnings?");
  }

  @Test
  void spectralFindsNothingToReport() throws Exception {
    Run lint = run(TOOLS, Map.of(), node("spectral"), "lint", "--fail-severity", "hint", DOCUMENT.toString());
    assertThat(lint.exit()).as(lint.out()).isZero();
    assertThat(lint.out()).contains("No results with a severity of 'hint' or higher found");
  }

  @Test
  void aGeneratedPythonClientRunsTheQuickPath() throws Exception {
    Path out = GENERATED.resolve("python");
    Run generate = run(Path.of("").toAbsolutePath(), Map.of(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        Path.of("target", "tools", "openapi-generator-cli.jar").toString(), "generate", "-i", DOCUMENT.toString(),
        "-g", "python", "-o", out.toString(), "--additional-properties=packageName=zop_client,projectName=zop-client");
    assertThat(generate.exit()).as(generate.out()).isZero();
    Run quickPath = run(TOOLS, Map.of("PYTHONPATH", out.toString(), "ZOP_URL", base, "ZOP_TOKEN", token),
        "python3", TOOLS.resolve("python/quick_path.py").toString());
    assertThat(quickPath.exit()).as(quickPath.out()).isZero();
    assertThat(quickPath.out()).contains("python quick path: ok");
  }

  @Test
  void aTypeScriptClientTypedFromTheDocumentRunsTheQuickPath() throws Exception {
    Path out = GENERATED.resolve("typescript");
    Files.createDirectories(out);
    Files.copy(TOOLS.resolve("typescript/quick-path.mts"), out.resolve("quick-path.mts"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.copy(TOOLS.resolve("typescript/tsconfig.json"), out.resolve("tsconfig.json"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Path modules = out.resolve("node_modules");
    if (!Files.exists(modules, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(modules, TOOLS.resolve("node_modules"));
    }
    Run types = run(out, Map.of(), node("openapi-typescript"), DOCUMENT.toString(), "-o", "schema.ts");
    assertThat(types.exit()).as(types.out()).isZero();
    Run check = run(out, Map.of(), node("tsc"), "-p", "tsconfig.json");
    assertThat(check.exit()).as("the strict type check: " + check.out()).isZero();
    Run quickPath = run(out, Map.of("ZOP_URL", base, "ZOP_TOKEN", token), "node", "out/quick-path.mjs");
    assertThat(quickPath.exit()).as(quickPath.out()).isZero();
    assertThat(quickPath.out()).contains("typescript quick path: ok");
  }

  private static String node(String tool) {
    return TOOLS.resolve("node_modules/.bin/" + tool).toString();
  }

  record Run(int exit, String out) {}

  /** Runs a command to its end (at most five minutes), its output and errors together. */
  private static Run run(Path directory, Map<String, String> env, String... command) throws Exception {
    List<String> all = new ArrayList<>(List.of(command));
    Path log = Files.createTempFile(dir, "run", ".log");
    ProcessBuilder builder = new ProcessBuilder(all).directory(directory.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    builder.environment().put("NO_COLOR", "1");
    builder.environment().put("REDOCLY_TELEMETRY", "off");
    builder.environment().put("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true");
    Process process = builder.start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish within 5 minutes: "
          + Files.readString(log));
    }
    return new Run(process.exitValue(), Files.readString(log));
  }

  private static String zop(String... args) {
    return ZopServeProcess.zop(args);
  }
}

package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.cli.Zop;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code zop serve} as an operator starts it: a process of its own on this test's class path, on loopback, with its
 * store in {@code dir}, started and waited for until {@code /readyz} answers, stopped with SIGTERM.
 */
final class ZopServeProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final String base;

  private ZopServeProcess(Process process, Path log, String base) {
    this.process = process;
    this.log = log;
    this.base = base;
  }

  /** Starts {@code zop serve --data-dir dir} with {@code options} and {@code environment} added. */
  static ZopServeProcess start(Path dir, Map<String, String> environment, String... options) throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Zop.class.getName(), "serve", "--data-dir", dir.toString(),
        "--host", "127.0.0.1", "--port", Integer.toString(port)));
    command.addAll(List.of(options));
    Path log = dir.resolve("serve.log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("ZOP_HOME", dir.toString());
    builder.environment().putAll(environment);
    ZopServeProcess serve = new ZopServeProcess(builder.start(), log, "http://127.0.0.1:" + port);
    try {
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
        if (!serve.process.isAlive()) {
          throw new IllegalStateException("zop serve exited");
        }
        try {
          return RawHttp.json(serve.base, "GET", "/readyz", null, null).status() == 200;
        } catch (AssertionError notListeningYet) {
          return false;
        }
      });
    } catch (RuntimeException notStarted) {
      serve.process.destroyForcibly();
      throw new AssertionError("zop serve did not start: " + serve.log(), notStarted);
    }
    return serve;
  }

  String base() {
    return base;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** What the process has printed so far. */
  String log() throws IOException {
    return java.nio.file.Files.readString(log);
  }

  /** SIGTERM, the graceful path; true when it ended within 30 s. */
  boolean stop() throws InterruptedException {
    process.destroy();
    return process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (!stop()) {
      process.destroyForcibly();
    }
  }

  /** Runs a {@code zop} command in this JVM, as a shell user would; requires exit 0 and returns what it printed. */
  static String zop(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertThat(Zop.execute(args)).as("zop " + String.join(" ", args)).isZero();
    } finally {
      System.setOut(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}

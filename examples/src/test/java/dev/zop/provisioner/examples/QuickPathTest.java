package dev.zop.provisioner.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The service's first five minutes (docs/service.md) as a person runs them, every step a real {@code scripts/zop}
 * process: the service with its demo cloud, a token made while it runs, a job file submitted and watched to
 * {@code succeeded}, then torn down and watched to {@code deleted}.
 */
class QuickPathTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path ZOP = ROOT.resolve("scripts/zop");
  private Process serve;

  record Run(int exit, String out, String err) {}

  @AfterEach
  void stopTheService() throws InterruptedException {
    if (serve != null) {
      serve.destroy();
      assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("zop serve stops on SIGTERM").isTrue();
    }
  }

  @Test
  void serveTheDemoMakeATokenSubmitWatchAndDelete() throws Exception {
    Path data = Files.createTempDirectory("zop-quick-path");
    serve = new ProcessBuilder(ZOP.toString(), "serve", "--demo", "--port", "0", "--data-dir", data.toString())
        .redirectErrorStream(true).start();
    BufferedReader lines = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
    List<String> banner = CompletableFuture.supplyAsync(() -> {
      List<String> seen = new ArrayList<>();
      lines.lines().takeWhile(line -> seen.add(line) && !line.startsWith("demo: zop tokens create")).forEach(l -> { });
      return seen;
    }).get(120, TimeUnit.SECONDS);
    // the rest of the service's output is drained so it never blocks on a full pipe
    CompletableFuture.runAsync(() -> lines.lines().forEach(l -> { }));
    String url = banner.stream().filter(l -> l.startsWith("zop provisioner listening on ")).findFirst()
        .orElseThrow(() -> new AssertionError(banner)).substring("zop provisioner listening on ".length());
    String space = banner.stream().filter(l -> l.contains("nothing real is created")).findFirst()
        .map(l -> l.replaceAll(".*space (spc_\\S+).*", "$1")).orElseThrow(() -> new AssertionError(banner));
    assertThat(space).startsWith("spc_");

    Run token = zop("tokens", "create", "--org", "demo", "--actor", "you@example.com", "--role", "admin",
        "--data-dir", data.toString());
    assertThat(token.exit()).as(token.err()).isZero();
    assertThat(token.out().strip()).startsWith("zop_").doesNotContain("\n");
    String[] client = {"--url", url, "--token", token.out().strip()};

    Run submitted = zop(concat(new String[] {"jobs", "submit", "-f",
        ROOT.resolve("examples/jobs/kubernetes.yaml").toString(), "--space", space, "--watch"}, client));
    assertThat(submitted.exit()).as(submitted.out() + submitted.err()).isZero();
    List<String> watched = submitted.out().lines().toList();
    assertThat(watched.get(0)).startsWith("job job_");
    // piped, the progress comes as plain lines, no terminal redraws, and ends succeeded
    assertThat(submitted.out()).doesNotContain("\r");
    assertThat(watched.get(watched.size() - 1)).contains("succeeded");
    String job = watched.get(0).substring("job ".length());

    Run shown = zop(concat(new String[] {"jobs", "get", job, "-o", "json"}, client));
    assertThat(shown.exit()).isZero();
    // a simulated cloud says so in what it hands back: sim: ids, endpoints under the reserved .invalid domain
    assertThat(shown.out()).contains("\"status\" : \"succeeded\"", "\"sim:sim-demo-1:", ".sim.invalid");

    Run deleted = zop(concat(new String[] {"jobs", "delete", job, "--watch"}, client));
    assertThat(deleted.exit()).as(deleted.out() + deleted.err()).isZero();
    assertThat(deleted.out().strip().lines().reduce((a, b) -> b).orElseThrow()).contains("deleted");
  }

  private static String[] concat(String[] first, String[] second) {
    String[] all = java.util.Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }

  private static Run zop(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(ZOP.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("zop-out", ".txt");
    Path err = Files.createTempFile("zop-err", ".txt");
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as(String.join(" ", command) + " ends").isTrue();
    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }
}

package dev.zop.provisioner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The client-only {@code zop}: what it carries, and what it says of the service's own commands. */
class ClientOnlyZopTest {
  record Run(int exit, String out, String err) {}

  static Run zop(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      return new Run(Zop.execute(args), stdout.toString(StandardCharsets.UTF_8),
          stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void theServicesCommandsAreListedAndSayWhereTheyRun() {
    Run help = zop("--help");
    assertThat(help.out()).contains("serve", "tokens", "jobs", "spaces", "accounts", "Exit codes:");
    Run serve = zop("serve", "--demo");
    assertThat(serve.exit()).isEqualTo(Zop.USAGE);
    assertThat(serve.err()).contains("`zop serve` needs the service's classes", "fix: run it through scripts/zop")
        .doesNotContain("\tat ");
    Run tokens = zop("tokens", "create", "--org", "acme");
    assertThat(tokens.exit()).isEqualTo(Zop.USAGE);
    assertThat(tokens.err()).contains("`zop tokens` needs the service's classes");
  }

  @Test
  void theClientOnlyClassPathCarriesNoEngineNoStoreAndNoProvider() {
    for (String absent : new String[] {"dev.zop.provisioner.core.EmbeddedProvisioner", "org.h2.Driver",
        "io.javalin.Javalin", "software.amazon.awssdk.core.SdkClient", "dev.zop.provisioner.sim.SimProvider"}) {
      assertThat(getClass().getClassLoader().getResource(absent.replace('.', '/') + ".class")).as(absent).isNull();
    }
  }

  @Test
  void quietPrintsOnlyTheIdsOfWhatWasShown() {
    var json = ClientOptions.JSON;
    assertThat(ClientOptions.ids(json.createObjectNode().put("id", "job_1").put("status", "queued")))
        .isEqualTo("job_1");
    var page = json.createObjectNode();
    page.putArray("data").add(json.createObjectNode().put("id", "spc_a")).add(json.createObjectNode().put("id",
        "spc_b"));
    assertThat(ClientOptions.ids(page)).isEqualTo("spc_a\nspc_b");
    assertThat(ClientOptions.ids(json.createArrayNode().add(json.createObjectNode().put("id", "ca_1"))))
        .isEqualTo("ca_1");
  }
}

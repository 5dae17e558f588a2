package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.server.cli.Zop;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The {@code zop} client commands against a running server, as a shell user runs them. */
class ZopCommandTest {
  static ServerFixture fixture;
  static Provisioner client;
  static Space space;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "cli"));
    space = client.spaces().create(SpaceRequest.of("sim", "cli-space", account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    client.close();
    fixture.close();
  }

  record Run(int exit, String out, String err) {
    JsonNode json() {
      try {
        return RawHttp.JSON.readTree(out);
      } catch (java.io.IOException e) {
        throw new AssertionError("not JSON: " + out, e);
      }
    }
  }

  static Run zop(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--url=" + fixture.baseUrl());
    all.add("--token=" + fixture.adminToken);
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      int exit = Zop.execute(all.toArray(String[]::new));
      return new Run(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void submitFromYamlWatchPlanListAndDelete() throws Exception {
    Path file = Files.createTempFile("cluster", ".yaml");
    Files.writeString(file, """
        spaceID: %s
        kind: kubernetes
        name: cli cluster
        tags: {team: platform}
        config:
          name: cli-cluster
          version: "1.30"
          nodeGroups:
            - {name: default, instanceType: m5.large, min: 1, max: 3}
        """.formatted(space.id()));

    Run plan = zop("jobs", "plan", "-f", file.toString());
    assertThat(plan.exit()).isZero();
    assertThat(plan.json().get("steps").size()).isPositive();

    Run watched = zop("jobs", "submit", "-f", file.toString(), "--watch");
    assertThat(watched.exit()).as(watched.err()).isZero();
    assertThat(watched.out()).startsWith("job job_").contains("[####################] 5/5 succeeded");
    // not a terminal: plain lines, no carriage-return frames
    assertThat(watched.out()).doesNotContain("\r");

    Run list = zop("jobs", "list", "--space", space.id().value(), "--status", "succeeded");
    assertThat(list.exit()).isZero();
    assertThat(list.json().get("items").get(0).get("name").asText()).isEqualTo("cli cluster");
    String id = list.json().get("items").get(0).get("id").asText();

    Run got = zop("jobs", "get", id);
    assertThat(got.json().get("tags").get("team").asText()).isEqualTo("platform");

    Run deleted = zop("jobs", "delete", id);
    assertThat(deleted.exit()).isZero();
    assertThat(zop("jobs", "watch", id).exit()).isZero(); // ends when the teardown is done
    assertThat(zop("jobs", "get", id).json().get("status").asText()).isEqualTo("deleted");
  }

  @Test
  void accountsAreMadeFromTheCommandLineAndSpacesNameThem() {
    Run created = zop("accounts", "create", "--provider", "sim", "--name", "from-the-shell",
        "--property", "team=platform");
    assertThat(created.exit()).as(created.err()).isZero();
    String id = created.json().get("id").asText();
    assertThat(id).startsWith("ca_");
    assertThat(zop("accounts", "get", id).json().get("properties").get("team").asText()).isEqualTo("platform");
    assertThat(zop("accounts", "list").out()).contains(id);

    Run space = zop("spaces", "create", "--name", "shell-space", "--provider", "sim", "--account", id,
        "--config", "region=sim-east-1");
    assertThat(space.exit()).as(space.err()).isZero();
    assertThat(space.json().get("cloudAccountId").asText()).isEqualTo(id);

    // credentials are references: a property that looks like one is refused with its field named
    Run refused = zop("accounts", "create", "--provider", "sim", "--name", "leaky", "--property", "clientSecret=x");
    assertThat(refused.exit()).isNotZero();
    assertThat(refused.err()).contains("properties.clientSecret");
  }

  @Test
  void serveSaysWhereItListensAndWhereItKeepsItsStore() {
    ByteArrayOutputStream help = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(help, true, StandardCharsets.UTF_8));
    try {
      assertThat(Zop.execute("serve", "--help")).isZero();
    } finally {
      System.setOut(out);
    }
    String text = help.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    assertThat(text).contains("default 127.0.0.1, this machine only");
    // picocli wraps long descriptions anywhere, paths included
    assertThat(text.replace(" ", "")).contains("~/.local/share/zop-provisioner").doesNotContain("~/.zop");
  }

  @Test
  void refusalsPrintTheCodeAndFieldsAndExitNonZero() throws Exception {
    Path file = Files.createTempFile("bad", ".json");
    Files.writeString(file, "{\"spaceID\":\"" + space.id() + "\",\"kind\":\"vm_pool\",\"config\":{\"name\":\"\","
        + "\"instanceType\":\"m5.large\",\"min\":5,\"max\":2}}");
    Run refused = zop("jobs", "submit", "-f", file.toString());
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("validation_failed", "config.");
    assertThat(refused.err()).doesNotContain("at dev.zop");

    Run missing = zop("jobs", "get", "job_nope");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("not_found");

    assertThat(zop("spaces", "list").json().get(0).get("id").asText()).isEqualTo(space.id().value());
  }
}

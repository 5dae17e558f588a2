package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.cli.Zop;
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
    return zopAt(fixture.baseUrl(), fixture.adminToken, args);
  }

  /** Runs a {@code zop} client command in this JVM against {@code url}, capturing what it prints. */
  static Run zopAt(String url, String token, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--url=" + url);
    all.add("--token=" + token);
    return zopWith(all);
  }

  /** Runs {@code zop} with exactly {@code all} as its arguments, capturing what it prints. */
  static Run zopWith(List<String> all) {
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
    assertThat(watched.out()).startsWith("job job_").contains("[####################] 5/5 succeeded")
        .containsPattern("console: " + java.util.regex.Pattern.quote(fixture.baseUrl()) + "/ui/#/jobs/job_\\w+");
    // not a terminal: plain lines, no carriage-return frames
    assertThat(watched.out()).doesNotContain("\r");

    Run list = zop("jobs", "list", "--space", space.id().value(), "--status", "succeeded");
    assertThat(list.exit()).isZero();
    assertThat(list.json().get("data").get(0).get("name").asText()).isEqualTo("cli cluster");
    String id = list.json().get("data").get(0).get("id").asText();

    Run got = zop("jobs", "get", id);
    assertThat(got.json().get("tags").get("team").asText()).isEqualTo("platform");

    Run deleted = zop("jobs", "delete", id);
    assertThat(deleted.exit()).isZero();
    assertThat(zop("jobs", "watch", id).exit()).isZero(); // ends when the teardown is done
    assertThat(zop("jobs", "get", id).json().get("status").asText()).isEqualTo("deleted");
  }

  @Test
  void guardrailsAreMadeFromAFilePlansShowTheirVerdictsAndAHeldJobIsApprovedFromTheCommandLine() throws Exception {
    Space guarded = client.spaces().create(SpaceRequest.of("sim", "cli-guarded",
        client.spaces().get(space.id()).cloudAccountId()).region("sim-east-1"));
    Path rule = Files.createTempFile("guardrail", ".yaml");
    Files.writeString(rule, """
        name: cli-sizes
        level: deny
        rule: {type: allowed_sizes, sizes: [m5.large]}
        scope: {spaces: [%s]}
        """.formatted(guarded.id()));
    Run made = zop("guardrails", "create", "-f", rule.toString(), "-o", "table");
    assertThat(made.exit()).as(made.err()).isZero();
    assertThat(made.out()).startsWith("cli-sizes v1 deny allowed_sizes  grd_");
    String id = made.out().trim().substring(made.out().trim().lastIndexOf(' ') + 1);

    Path job = Files.createTempFile("cluster", ".yaml");
    Files.writeString(job, """
        spaceID: %s
        kind: kubernetes
        config:
          name: too-big
          version: "1.30"
          nodeGroups:
            - {name: default, instanceType: m5.4xlarge, min: 1, max: 6}
        """.formatted(guarded.id()));
    Run plan = zop("jobs", "plan", "-f", job.toString(), "-o", "table");
    assertThat(plan.exit()).isEqualTo(Zop.REFUSED);
    assertThat(plan.out()).contains("guardrails:\n  cli-sizes v1: denied at config.nodeGroups[0].instanceType:")
        .contains("fix: use one of [m5.large]");
    Run refused = zop("jobs", "submit", "-f", job.toString());
    assertThat(refused.exit()).isEqualTo(Zop.REFUSED);
    assertThat(refused.err()).startsWith("error: guardrail_denied: ")
        .contains("config.nodeGroups[0].instanceType: cli-sizes (v1): ");

    // as an approval, a developer's job is held and a lead approves it
    Path approval = Files.createTempFile("guardrail", ".yaml");
    Files.writeString(approval, "level: approval\n");
    Run updated = zop("guardrails", "update", id, "-f", approval.toString(), "-o", "table");
    assertThat(updated.exit()).as(updated.err()).isZero();
    assertThat(updated.out()).startsWith("cli-sizes v2 approval");
    String developer = fixture.token("acme", "dev@acme.com", "operator");
    Run held = zopAt(fixture.baseUrl(), developer, "jobs", "submit", "-f", job.toString());
    assertThat(held.exit()).as(held.err()).isZero();
    assertThat(held.err()).contains("held: awaiting approval: cli-sizes (v2)");
    String jobId = held.json().get("id").asText();
    assertThat(held.json().get("status").asText()).isEqualTo("awaiting_approval");
    Run self = zopAt(fixture.baseUrl(), developer, "guardrails", "approve", jobId);
    assertThat(self.exit()).isEqualTo(Zop.REFUSED);
    assertThat(self.err()).startsWith("error: self_approval: ");
    Run approved = zop("guardrails", "approve", jobId, "--reason", "load test");
    assertThat(approved.exit()).as(approved.err()).isZero();
    assertThat(zop("jobs", "watch", jobId).exit()).isZero();
    assertThat(zop("guardrails", "decisions", jobId, "-o", "table").out())
        .contains("create approval_required by dev@acme.com").contains("approve approved by alice@acme.com");
    // the organisation's latest, the refused plan's decision among them: it made no job
    assertThat(zop("guardrails", "decisions", "--limit", "10", "-o", "table").out())
        .contains("create denied by alice@acme.com (no job)");
    assertThat(zop("guardrails", "delete", id, "-o", "table").out()).isEqualTo("deleted cli-sizes at version 3\n");
  }

  @Test
  void aJobIsRevisedFromAFileDiffedFirstThenAppliedWithItsHistoryListed() throws Exception {
    dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(), dev.zop.provisioner.spec.RegistrySpec
        .named("team/cli-revised")).id(), java.time.Duration.ofSeconds(60));
    Path file = Files.createTempFile("registry", ".yaml");
    Files.writeString(file, """
        kind: registry
        config: {name: team/cli-revised, immutableTags: true, scanOnPush: true}
        """);

    Run diff = zop("jobs", "diff", job.id().value(), "-f", file.toString(), "-o", "table");
    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.out()).contains("revision 2 of " + job.id(), "  ~ immutableTags: ", " -> true (in place)",
        "steps: [update-repository]", "monthly: ");
    assertThat(zop("jobs", "diff", job.id().value(), "-f", file.toString()).json().at("/changes/0/effect").asText())
        .isEqualTo("in_place");

    Run applied = zop("jobs", "apply", job.id().value(), "-f", file.toString(), "--watch");
    assertThat(applied.exit()).as(applied.err()).isZero();
    Run revisions = zop("jobs", "revisions", job.id().value());
    assertThat(revisions.json().size()).isEqualTo(2);
    assertThat(revisions.json().at("/1/config/immutableTags").asBoolean()).isTrue();
    assertThat(revisions.json().at("/1/status").asText()).isEqualTo("applied");

    // the same file again changes nothing: refused by field, exit non-zero
    Run same = zop("jobs", "diff", job.id().value(), "-f", file.toString());
    assertThat(same.exit()).isNotZero();
    assertThat(same.err()).contains("config: the revised config is the job's config as it is");
  }

  /**
   * A class the price list does not hold is shown as unknown: the plan's total is "at least" the priced lines, and a
   * revision to it has no difference (it once read -$105.12, the unknown class counted as $0).
   */
  @Test
  void anUnknownPriceIsAtLeastInAPlanAndAnUnknownDifferenceInADiff() throws Exception {
    dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(), dev.zop.provisioner.spec
        .DatastoreSpec.postgres().name("cli-priced").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(20).multiAz(true).build()).id(), java.time.Duration.ofSeconds(60));
    Path file = Files.createTempFile("datastore", ".yaml");
    Files.writeString(file, """
        spaceID: %s
        kind: datastore
        config: {engine: postgres, name: cli-priced, version: "16.3", instanceClass: db.x2iedn.large,
          allocatedStorageGB: 20, multiAZ: true}
        """.formatted(space.id()));

    // a version changed by hand, which a revision does not set back: the diff says it stays so
    fixture.cloud.changeByHand("db-instance", "cli-priced", java.util.Map.of("version", "16.4"));
    Run diff = zop("jobs", "diff", job.id().value(), "-f", file.toString(), "-o", "table");
    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.out()).contains("  ! db-instance cli-priced has 16.4 where the config has 16.3; this revision"
        + " leaves it so: reconcile the job to put it back (drift_kept)");
    assertThat(diff.out()).contains("monthly: $109.72 -> at least $4.60 (difference unknown",
        "unknown price: postgres db.x2iedn.large (multi-AZ) (price unknown: no price listed for db.x2iedn.large)");
    assertThat(diff.out()).doesNotContain("-$105.12");
    Run json = zop("jobs", "diff", job.id().value(), "-f", file.toString());
    assertThat(json.json().get("monthlyDelta").isNull()).as(json.out()).isTrue();
    assertThat(json.json().at("/after/complete").asBoolean()).isFalse();

    Run plan = zop("jobs", "plan", "-f", file.toString(), "-o", "table");
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("monthly: at least $4.60", "postgres db.x2iedn.large (multi-AZ): unknown",
        "storage: $4.60 a month [" + "the simulated cloud's price list");
  }

  @Test
  void tablesReadAsPeopleReadThemAndScriptsGetNamesAndJsonPaths() {
    dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(),
        dev.zop.provisioner.spec.KubernetesSpec.named("cli-views").version("1.30")
            .nodeGroup("default", "m5.large", 1, 2).build(),
        new dev.zop.provisioner.SubmitOptions(null, "views", java.util.Map.of("team", "web"))).id(),
        java.time.Duration.ofSeconds(60));
    String id = job.id().value();

    Run list = zop("jobs", "list", "--space", space.id().value(), "-o", "table");
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out().lines().findFirst()).hasValueSatisfying(header -> assertThat(header)
        .matches("ID +NAME +KIND +SPACE +STATUS +AGE"));
    // the space by its name, an age kubectl's way
    assertThat(list.out()).containsPattern(id + " +views +kubernetes +cli-space +succeeded +[0-9]+[smhd]");
    Run wide = zop("jobs", "list", "--space", space.id().value(), "-o", "wide");
    assertThat(wide.out().lines().findFirst()).hasValueSatisfying(header -> assertThat(header)
        .contains("PHASE", "STEP", "CREATED BY", "TAGS"));
    assertThat(wide.out()).contains("team=web");

    Run got = zop("jobs", "get", id, "-o", "table");
    assertThat(got.out()).contains("Job:     " + id + " (views)", "Space:   cli-space (" + space.id() + ")",
        "Status:  succeeded", "Steps:", "create-cluster", "Outputs:", "Tags:    team=web")
        .containsPattern("Took: +[0-9]+s");

    Run events = zop("jobs", "events", id, "-o", "table");
    assertThat(events.out().lines().findFirst()).hasValueSatisfying(header -> assertThat(header)
        .matches("TIME +TYPE +STEP +STATUS +MESSAGE"));
    assertThat(events.out()).containsPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z +step_started +create-");

    Run names = zop("jobs", "list", "--space", space.id().value(), "-o", "name");
    assertThat(names.out().lines()).contains("job/" + id).allMatch(line -> line.startsWith("job/job_"));
    Run ids = zop("jobs", "list", "--space", space.id().value(), "-o", "jsonpath={.data[*].id}");
    assertThat(ids.out().strip().split(" ")).contains(id);
    Run status = zop("jobs", "get", id, "-o", "jsonpath={.status}");
    assertThat(status.out().strip()).isEqualTo("succeeded");
    Run badPath = zop("jobs", "get", id, "-o", "jsonpath={.status[");
    assertThat(badPath.exit()).isEqualTo(Zop.USAGE);
    assertThat(badPath.err()).contains("jsonpath");

    // YAML keeps a version a string: unquoted, 1.30 reads back as the number 1.3
    Run yaml = zop("jobs", "get", id, "-o", "yaml");
    assertThat(yaml.out()).contains("version: \"1.30\"");

    Run spaces = zop("spaces", "list", "-o", "table");
    assertThat(spaces.out().lines().findFirst()).hasValueSatisfying(header -> assertThat(header)
        .matches("ID +NAME +PROVIDER +REGION +STATUS +AGE"));

    Run failed = failingJob();
    assertThat(failed.out()).contains("Last failure:", "Status:  failed");
  }

  /** {@code zop jobs get -o table} of a job the cloud refused. */
  private static Run failingJob() {
    fixture.cloud.deny("registry:CreateRepository");
    try {
      dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(),
          dev.zop.provisioner.spec.RegistrySpec.named("team/cli-refused")).id(), java.time.Duration.ofSeconds(60));
      assertThat(job.status()).isEqualTo(dev.zop.provisioner.JobStatus.FAILED);
      return zop("jobs", "get", job.id().value(), "-o", "table");
    } finally {
      fixture.cloud.allow("registry:CreateRepository");
    }
  }

  @Test
  void completionOffersTheValuesFlagsTake() throws Exception {
    Run script = zopWith(List.of("generate-completion"));
    assertThat(script.exit()).isZero();
    Path file = Files.createTempFile("zop-completion", ".sh");
    Files.writeString(file, script.out());
    // bash itself runs the script's completion function, as it would on a Tab
    assertThat(complete(file, "zop jobs list --order ")).isEqualTo("newest oldest");
    assertThat(complete(file, "zop jobs list --status f")).isEqualTo("failed");
    assertThat(complete(file, "zop jobs get -o w")).isEqualTo("wide");
    // a job id: asked of the service through the same zop, with the same URL and token
    dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(),
        dev.zop.provisioner.spec.RegistrySpec.named("team/cli-completed")).id(), java.time.Duration.ofSeconds(60));
    String zop = Path.of("..", "scripts", "zop").toAbsolutePath().normalize().toString();
    assertThat(complete(file, zop + " jobs get " + job.id().value().substring(0, 6)).split(" "))
        .contains(job.id().value());
  }

  /** What bash offers for {@code line}, through the completion script in {@code script}. */
  private static String complete(Path script, String line) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", "source \"$1\" 2>/dev/null; read -r -a COMP_WORDS <<< \"$2\";"
        + " [[ \"$2\" == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE=\"$2\";"
        + " COMP_POINT=${#COMP_LINE}; _complete_zop 2>/dev/null; echo \"${COMPREPLY[*]}\"", "complete",
        script.toString(), line).redirectErrorStream(true);
    builder.environment().put("ZOP_URL", fixture.baseUrl());
    builder.environment().put("ZOP_TOKEN", fixture.adminToken);
    Process bash = builder.start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(bash.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void driftIsCheckedAndReconciledAndANetworkImportedFromTheCommandLine() throws Exception {
    dev.zop.provisioner.Job job = client.jobs().await(client.jobs().submit(space.id(), dev.zop.provisioner.spec
        .RegistrySpec.named("team/cli-drift")).id(), java.time.Duration.ofSeconds(60));
    Run clean = zop("jobs", "drift", job.id().value());
    assertThat(clean.exit()).as(clean.err()).isZero();
    assertThat(clean.json().get("status").asText()).isEqualTo("in_sync");

    fixture.cloud.changeByHand("registry", "team/cli-drift", java.util.Map.of("immutableTags", "true"));
    Run drifted = zop("jobs", "drift", job.id().value(), "-o", "table");
    assertThat(drifted.exit()).isEqualTo(Zop.DRIFTED);
    assertThat(drifted.out()).contains(job.id() + ": drifted",
        "  ~ registry team/cli-drift immutableTags: expected false, found true");
    Run last = zop("jobs", "drift", job.id().value(), "--last");
    assertThat(last.exit()).isEqualTo(Zop.DRIFTED);
    // 3 stays the service unreachable, so a script tells an outage from drift
    Run unreachable = zopAt("http://127.0.0.1:9", fixture.adminToken, "jobs", "drift", job.id().value());
    assertThat(unreachable.exit()).isEqualTo(Zop.UNREACHABLE);
    assertThat(last.json().at("/drifts/0/actual").asText()).isEqualTo("true");
    Run planned = zop("jobs", "reconcile", job.id().value(), "--plan", "-o", "table");
    assertThat(planned.exit()).as(planned.err()).isZero();
    assertThat(planned.out()).contains("  ~ immutableTags: true -> false (in place): registry team/cli-drift");
    Run reconciled = zop("jobs", "reconcile", job.id().value(), "--watch");
    assertThat(reconciled.exit()).as(reconciled.err()).isZero();
    assertThat(fixture.cloud.find("registry", "team/cli-drift").attributes()).containsEntry("immutableTags", "false");

    fixture.cloud.existingNetwork("vpc-cli", "10.7.0.0/16", java.util.Map.of("vpc-cli-a", "10.7.1.0/24"));
    Path file = Files.createTempFile("network", ".yaml");
    Files.writeString(file, """
        spaceID: %s
        kind: network
        config: {name: vpc-cli, cidr: 10.7.0.0/16, subnets: [{name: a, cidr: 10.7.1.0/24}]}
        """.formatted(space.id().value()));
    // a range the network does not have: refused, and told the config it has, to ask again with
    Path narrower = Files.createTempFile("network", ".yaml");
    Files.writeString(narrower, Files.readString(file).replace("cidr: 10.7.0.0/16", "cidr: 10.7.0.0/17"));
    Run refused = zop("jobs", "import", "-f", narrower.toString(), "--id", "vpc-cli", "--plan");
    assertThat(refused.exit()).isEqualTo(Zop.REFUSED);
    assertThat(refused.err()).contains("config.cidr: ", "the resource has, as a job file's kind and config:",
        "{\"kind\":\"network\",\"config\":{", "\"cidr\":\"10.7.0.0/16\"");
    Run plan = zop("jobs", "import", "-f", file.toString(), "--id", "vpc-cli", "--plan");
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.json().at("/adopted/1").asText()).isEqualTo("subnet vpc-cli-a");
    Run imported = zop("jobs", "import", "-f", file.toString(), "--id", "vpc-cli", "--watch");
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(fixture.cloud.find("vpc", "vpc-cli").tags()).containsKey("zop:job");
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

  private static Path jobFile(String yaml) throws Exception {
    Path file = Files.createTempFile("job", ".yaml");
    Files.writeString(file, yaml.replace("SPACE", space.id().value()));
    return file;
  }

  @Test
  void jobFileMistakesAreNamedByLineFieldAndWhatWasExpected() throws Exception {
    // a misspelt field: its line, its path, and the fields there are
    Path misspelt = jobFile("""
        spaceID: SPACE
        kind: kubernetes
        config:
          name: c1
          version: "1.30"
          nodegroups:
            - {name: default, instanceType: m5.large, min: 1, max: 3}
        """);
    Run unknown = zop("jobs", "plan", "-f", misspelt.toString());
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains(misspelt + ":6:", "config.nodegroups: unknown field", "nodeGroups")
        .doesNotContain("KubernetesSpec", "byte offset", "at com.");

    // a word where a number goes
    Run word = zop("jobs", "plan", "-f", jobFile("""
        spaceID: SPACE
        kind: kubernetes
        config:
          name: c1
          version: "1.30"
          nodeGroups:
            - {name: default, instanceType: m5.large, min: two, max: 3}
        """).toString());
    assertThat(word.exit()).isEqualTo(2);
    assertThat(word.err()).contains(":7:", "config.nodeGroups[0].min: expected a number, got 'two'")
        .doesNotContain("java.lang.Integer");

    // a kind that does not exist: the kinds that do
    Run kind = zop("jobs", "plan", "-f", jobFile("spaceID: SPACE\nkind: database\nconfig: {name: x}\n").toString());
    assertThat(kind.exit()).isEqualTo(2);
    assertThat(kind.err()).contains(":2:", "unknown kind 'database'; one of: kubernetes, vm_pool, datastore");

    // YAML that is not YAML
    Run broken = zop("jobs", "plan", "-f", jobFile("spaceID: SPACE\nkind: [kubernetes\nconfig: {}\n").toString());
    assertThat(broken.exit()).isEqualTo(2);
    assertThat(broken.err()).contains("not YAML or JSON").doesNotContain("at com.");

    // missing fields, all named at once
    Run missing = zop("jobs", "plan", "-f", jobFile("name: nothing else\n").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("spaceID, kind, config are required");
  }

  @Test
  void anUnquotedVersionKeepsItsDigitsAndSpaceIdIsSpaceID() throws Exception {
    // 1.30 written as a number, and spaceId as jobs get prints it
    Run plan = zop("jobs", "plan", "-f", jobFile("""
        spaceId: SPACE
        kind: kubernetes
        config:
          name: c1
          version: 1.30
          nodeGroups:
            - {name: default, instanceType: m5.large, min: 1, max: 3}
        """).toString());
    assertThat(plan.exit()).as(plan.err()).isZero();
    Run refused = zop("jobs", "submit", "-f", jobFile("""
        spaceID: SPACE
        kind: kubernetes
        config:
          name: c1
          version: 1.3
          nodeGroups:
            - {name: default, instanceType: m5.large, min: 1, max: 3}
        """).toString());
    // 1.3 is what was written, and the service says what it thinks of it
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("config.version", "supported versions");
  }

  @Test
  void exitCodesSayWhatKindOfTroubleItWas() throws Exception {
    Path file = jobFile("""
        spaceID: SPACE
        kind: kubernetes
        config:
          name: c1
          version: "1.30"
          nodeGroups:
            - {name: default, instanceType: m5.large, min: 1, max: 3}
        """);
    // nothing listens on a port the test just closed
    int closed;
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    List<String> args = new ArrayList<>(List.of("jobs", "plan", "-f", file.toString(),
        "--url=http://127.0.0.1:" + closed, "--token=" + fixture.adminToken));
    PrintStream err = System.err;
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = Zop.execute(args.toArray(String[]::new));
    } finally {
      System.setErr(err);
    }
    assertThat(exit).isEqualTo(3);
    assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("cannot reach", "fix: start it (zop serve)")
        .doesNotContain("at okhttp3");

    assertThat(zop("jobs", "plan", "--no-such-option", "-f", file.toString()).exit()).isEqualTo(2);

    ByteArrayOutputStream help = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(help, true, StandardCharsets.UTF_8));
    try {
      assertThat(Zop.execute("--help")).isZero();
    } finally {
      System.setOut(out);
    }
    assertThat(help.toString(StandardCharsets.UTF_8)).contains("Exit codes:", "3", "cannot be reached",
        "4", "ended failed");
    assertThat(zopWithoutClient("--version").out().strip()).isEqualTo("zop " + dev.zop.provisioner.client
        .ProvisionerClient.VERSION).matches("zop \\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void answersPrintAsTablesJsonOrYamlAndEveryNounHasItsCommands() throws Exception {
    Path file = jobFile("""
        spaceID: SPACE
        kind: network
        name: cli network
        config: {name: cli-net, cidr: 10.8.0.0/16}
        """);
    Run submitted = zop("jobs", "submit", "-f", file.toString(), "--watch");
    assertThat(submitted.exit()).as(submitted.err()).isZero();
    String id = submitted.out().lines().findFirst().orElseThrow().substring("job ".length());

    // a table: a header and a row a person reads; yaml: the same fields as JSON
    Run table = zop("jobs", "list", "--space", space.id().value(), "-o", "table");
    assertThat(table.out().lines().findFirst().orElseThrow()).contains("ID", "KIND", "STATUS");
    assertThat(table.out()).contains(id, "network", "succeeded");
    Run yaml = zop("jobs", "get", id, "-o", "yaml");
    assertThat(yaml.out()).contains("id: " + id, "kind: network", "status: succeeded");
    assertThat(zop("jobs", "get", id, "-o", "xml").exit()).isEqualTo(2);
    // quiet: the ids alone, one per line, for scripts
    Run quiet = zop("jobs", "list", "--space", space.id().value(), "-q");
    assertThat(quiet.out().lines().toList()).contains(id).allMatch(line -> line.matches("job_[a-z0-9]+"));
    Path spaceless = jobFile("""
        kind: network
        config: {name: cli-quiet, cidr: 10.9.0.0/16}
        """);
    Run quietWatch = zop("jobs", "submit", "-f", spaceless.toString(), "--space", space.id().value(), "--watch",
        "-q");
    assertThat(quietWatch.exit()).as(quietWatch.err()).isZero();
    assertThat(quietWatch.out().strip()).matches("job_[a-z0-9]+");

    Run events = zop("jobs", "events", id);
    assertThat(events.exit()).isZero();
    assertThat(events.json().get(0).get("type").asText()).isEqualTo("submitted");
    long first = events.json().get(0).get("seq").asLong();
    JsonNode later = zop("jobs", "events", id, "--after", String.valueOf(first)).json();
    assertThat(later.size()).isEqualTo(events.json().size() - 1);
    assertThat(later.get(0).get("seq").asLong()).isGreaterThan(first);

    Run patched = zop("jobs", "patch", id, "--name", "renamed", "--tag", "team=network");
    assertThat(patched.exit()).as(patched.err()).isZero();
    assertThat(patched.json().get("name").asText()).isEqualTo("renamed");
    assertThat(patched.json().get("tags").get("team").asText()).isEqualTo("network");
    assertThat(zop("jobs", "patch", id).err()).contains("give --name, --tag or both");

    Run networks = zop("spaces", "discovery", space.id().value(), "--what", "networks");
    assertThat(networks.exit()).as(networks.err()).isZero();
    assertThat(networks.out()).contains("cli-net");

    Run inactive = zop("spaces", "status", space.id().value(), "inactive");
    assertThat(inactive.json().get("status").asText()).isEqualTo("inactive");
    Run active = zop("spaces", "status", space.id().value(), "active");
    assertThat(active.json().get("status").asText()).isEqualTo("active");
    assertThat(zop("spaces", "status", space.id().value(), "paused").exit()).isEqualTo(2);

    // a remediation waiting for approval, cancelled with its reason
    fixture.cloud.workload("i-cli", "running");
    client.remediations().putRecommendation(new dev.zop.provisioner.remediation.Recommendation("rec-cli", "sim",
        space.cloudAccountId(), "sim-east-1", "vm", "i-cli", "stop"));
    Run started = zop("remediations", "start", "--recommendation", "rec-cli", "--subject", "i-cli");
    assertThat(started.exit()).as(started.err()).isZero();
    String remediation = started.json().get("id").asText();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> client.remediations()
        .get(dev.zop.provisioner.JobId.of(remediation)).status() == dev.zop.provisioner.JobStatus.AWAITING_USER);
    Run cancelled = zop("remediations", "cancel", remediation, "--reason", "done by hand");
    assertThat(cancelled.exit()).as(cancelled.err()).isZero();
    assertThat(client.remediations().await(dev.zop.provisioner.JobId.of(remediation), java.time.Duration
        .ofSeconds(30)).status()).isEqualTo(dev.zop.provisioner.JobStatus.CANCELLED);

    // completion for bash and zsh, from picocli
    ByteArrayOutputStream script = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(script, true, StandardCharsets.UTF_8));
    try {
      assertThat(Zop.execute("generate-completion")).isZero();
    } finally {
      System.setOut(out);
    }
    assertThat(script.toString(StandardCharsets.UTF_8)).contains("complete -F", "discovery", "events");
  }

  @Test
  void serveSaysInOneLineWhyItCannotStart() throws Exception {
    Path data = Files.createTempDirectory("zop-serve");
    try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Run inUse = zopWithoutClient("serve", "--port", String.valueOf(taken.getLocalPort()), "--data-dir",
          data.toString());
      assertThat(inUse.exit()).isEqualTo(2);
      assertThat(inUse.err()).contains("cannot listen on 127.0.0.1:" + taken.getLocalPort(), "fix:")
          .doesNotContain("\tat ");
    }
    Run badStore = zopWithoutClient("serve", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none", "--data-dir",
        data.toString());
    assertThat(badStore.exit()).isEqualTo(2);
    assertThat(badStore.err()).contains("cannot open the store", "--jdbc-url").doesNotContain("\tat ");
  }

  @Test
  void tokensAreMadeAndRevokedWhileADemoServiceHoldsItsH2Store() throws Exception {
    Path data = Files.createTempDirectory("zop-held");
    // a real zop serve --demo in its own process holds the H2 store and shares it with the zop tokens below
    Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Zop.class.getName(), "serve", "--demo", "--port", "0", "--data-dir",
        data.toString()).redirectErrorStream(true).start();
    try {
      var lines = new java.io.BufferedReader(new java.io.InputStreamReader(serve.getInputStream(),
          StandardCharsets.UTF_8));
      java.util.concurrent.CompletableFuture<List<String>> started = java.util.concurrent.CompletableFuture
          .supplyAsync(() -> {
            List<String> seen = new ArrayList<>();
            lines.lines().takeWhile(line -> seen.add(line) && !line.startsWith("demo: zop tokens create"))
                .forEach(line -> { });
            return seen;
          });
      List<String> banner = started.get(60, java.util.concurrent.TimeUnit.SECONDS);
      String base = banner.stream().filter(l -> l.startsWith("zop provisioner listening on ")).findFirst()
          .orElseThrow().substring("zop provisioner listening on ".length());
      String demoSpace = banner.stream().filter(l -> l.contains("nothing real is created")).findFirst()
          .map(l -> l.replaceAll(".*space (spc_\\S+).*", "$1")).orElseThrow(() -> new AssertionError(banner));

      Run made = zopWithoutClient("tokens", "create", "--org", "demo", "--actor", "a@example.com", "--role",
          "admin", "--data-dir", data.toString());
      assertThat(made.exit()).as(made.err()).isZero();
      String token = made.out().strip();
      String tokenId = made.err().replaceAll("(?s).*token (tok_\\S+) .*", "$1");
      assertThat(token).startsWith("zop_");
      RawHttp.Reply spaces = RawHttp.json(base, "GET", "/spaces", token, null);
      assertThat(spaces.status()).isEqualTo(200);
      assertThat(spaces.body()).contains(demoSpace, "\"provider\":\"sim\"");
      // the demo's cloud can be broken on purpose, and its discovery has a network for the wizard to offer
      assertThat(banner).anySatisfy(line -> assertThat(line).contains("Simulation page", "/simulation/faults"));
      RawHttp.Reply injected = RawHttp.json(base, "POST", "/simulation/faults", token,
          "{\"kind\":\"quota_exceeded\",\"target\":\"kubernetes-cluster\"}");
      assertThat(injected.status()).as(injected.body()).isEqualTo(200);
      assertThat(injected.body()).contains("\"kind\":\"quota_exceeded\"", "\"target\":\"kubernetes-cluster\"");
      assertThat(RawHttp.json(base, "DELETE", "/simulation/faults", token, null).status()).isEqualTo(204);
      assertThat(RawHttp.json(base, "GET", "/simulation/faults", token, null).body()).contains("\"faults\":[]");
      assertThat(RawHttp.json(base, "GET", "/space-discovery/" + demoSpace + "/networks", token, null).body())
          .contains("vpc-demo");

      Run revoked = zopWithoutClient("tokens", "revoke", "--id", tokenId, "--data-dir", data.toString());
      assertThat(revoked.exit()).as(revoked.err()).isZero();
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(RawHttp.json(base, "GET", "/spaces", token, null).status()).isEqualTo(401));
    } finally {
      serve.destroy();
      assertThat(serve.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * {@code zop prices import} reads each vendor's own price file (the excerpts the providers' tests carry) into the
   * imported table of each provider that uses it, and refuses a file in no vendor's format, writing nothing.
   */
  @Test
  void pricesAreImportedFromEachVendorsOwnFiles(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path aws = copied("dev/zop/provisioner/aws/prices/AmazonEC2-excerpt.json", dir);
    Path azure = copied("dev/zop/provisioner/azure/prices/retail-prices-page.json", dir);
    Path gcp = copied("dev/zop/provisioner/gcp/prices/compute-skus-page.json", dir);
    Path tables = dir.resolve("tables");

    Run imported = zopWithoutClient("prices", "import", aws.toString(), azure.toString(), gcp.toString(),
        "--dir", tables.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("aws: 2 prices of 2026-12-01", "azure: 2 prices of 2026-11-01",
        "gcp: 9 prices of 2026-11-20");
    assertThat(RawHttp.JSON.readTree(tables.resolve("aws.json").toFile()).at("/regions/us-east-1/hourly/ec2:m5.large")
        .decimalValue()).isEqualByComparingTo("0.096");

    Path notPrices = Files.writeString(dir.resolve("not-prices.json"), "{\"products\": []}");
    Run refused = zopWithoutClient("prices", "import", notPrices.toString(), "--dir", dir.resolve("none").toString());
    assertThat(refused.exit()).isNotZero();
    assertThat(refused.err()).contains("not a price file this reads");
    assertThat(dir.resolve("none")).doesNotExist();
  }

  private static Path copied(String resource, Path dir) throws java.io.IOException {
    Path file = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
    try (java.io.InputStream in = ZopCommandTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      Files.copy(in, file);
    }
    return file;
  }

  static Run zopWithoutClient(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      int exit = Zop.execute(args);
      return new Run(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void everyCommandAndOptionSaysWhatItIs() {
    List<String> undescribed = new ArrayList<>();
    java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>();
    todo.add(new picocli.CommandLine(new Zop()));
    picocli.CommandLine root = todo.peek();
    // the full tree, serve and tokens included, as zop --help shows it on the server's class path
    new dev.zop.provisioner.server.cli.ServerCommands().commands().forEach(root::addSubcommand);
    while (!todo.isEmpty()) {
      picocli.CommandLine command = todo.poll();
      var spec = command.getCommandSpec();
      if (spec.usageMessage().description().length == 0) {
        undescribed.add(spec.qualifiedName());
      }
      spec.options().stream().filter(o -> o.description().length == 0)
          .forEach(o -> undescribed.add(spec.qualifiedName() + " " + o.longestName()));
      spec.positionalParameters().stream().filter(p -> p.description().length == 0)
          .forEach(p -> undescribed.add(spec.qualifiedName() + " " + p.paramLabel()));
      todo.addAll(command.getSubcommands().values());
    }
    assertThat(undescribed).isEmpty();
  }

  @Test
  void theReadmesJobFilesPlanAsWritten() throws Exception {
    Path examples = Path.of("..", "examples", "jobs");
    for (String kind : List.of("kubernetes", "vm_pool", "datastore", "network", "registry", "component")) {
      String text = Files.readString(examples.resolve(kind + ".yaml"))
          .replace("spc_your_space", space.id().value()).replace("spc_your_cluster_space", space.id().value());
      Path file = Files.createTempFile(kind, ".yaml");
      Files.writeString(file, text);
      Run plan = zop("jobs", "plan", "-f", file.toString());
      assertThat(plan.exit()).as(kind + ": " + plan.err()).isZero();
      assertThat(plan.json().get("kind").asText()).isEqualTo(kind);
    }
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

    assertThat(zop("spaces", "list").json().findValuesAsText("id")).contains(space.id().value());
  }
}

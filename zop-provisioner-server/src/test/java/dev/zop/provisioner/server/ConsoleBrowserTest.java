package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The web console in a real headless Chromium against the service on the simulated cloud (a test double): what a
 * person does in it, end to end, through the same REST API and tokens as every other caller.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {
  private static final Duration JOB_TIME = Duration.ofSeconds(60);

  private ServerFixture fixture;
  private BrowserSession browser;
  private Provisioner admin;
  private CloudAccount account;
  private Space space;

  @BeforeAll
  void start() {
    // as zop serve --demo serves it (the component installer, the simulated cloud's faults), with datastores backed
    // by the local PostgreSQL and a network discovery finds
    fixture = ServerFixture.demo();
    fixture.cloud.backDatastores(DatastoreEngine.POSTGRES, TestDatabaseServers.postgres());
    fixture.cloud.existingNetwork("vpc-console", "10.9.0.0/16",
        java.util.Map.of("subnet-console-a", "10.9.1.0/24", "subnet-console-b", "10.9.2.0/24"))
        .existingDnsZone("console.example.com");
    browser = new BrowserSession();
    admin = fixture.client(fixture.adminToken);
    account = admin.accounts().create(CloudAccountRequest.of("sim", "console"));
    space = admin.spaces().create(SpaceRequest.of("sim", "console-jobs", account.id()).region("sim-east-1"));
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @BeforeEach
  void wideWindow() {
    browser.driver.manage().window().setSize(new Dimension(1280, 1000));
  }

  private void signIn(String token) {
    browser.driver.get(fixture.baseUrl() + "/ui");
    // the tab keeps the last test's token until it signs out
    browser.until(d -> browser.present("#token") || browser.present("#sign-out"));
    if (browser.present("#sign-out")) {
      browser.click("#sign-out");
    }
    // keyboard only: the token and Enter
    browser.find("#token").sendKeys(token, Keys.ENTER);
    browser.find("#actor");
  }

  /** Goes to a page of the console and waits until that page, not the one before, is drawn. */
  private void open(String hash) {
    browser.driver.get(fixture.baseUrl() + "/ui" + hash);
    browser.until(d -> hash.equals(browser.script("return document.getElementById('view').dataset.route")));
  }

  /** Read in one script, so a redraw between finding the badge and reading it cannot make the read fail. */
  private String jobStatus() {
    return (String) browser.script(
        "const badge = document.querySelector('#job-status [data-status]'); return badge && badge.dataset.status;");
  }

  private void awaitJobStatus(String status) {
    try {
      browser.until(d -> status.equals(jobStatus()));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError("the job's page never showed " + status + "; it shows:\n"
          + browser.script("return document.body.innerText"), e);
    }
  }

  /** Picks an option of a select by its value, as a person does with the list open. */
  private void choose(String css, String value) {
    new org.openqa.selenium.support.ui.Select(browser.find(css)).selectByValue(value);
  }

  /** Injects a fault through the console's Simulation page, as a person trying the demo does. */
  private void injectFault(String kind, String target) {
    open("#/simulation");
    if (!browser.present("#fault-kind")) {
      throw new AssertionError("the simulation page is not drawn: " + browser.script("return document.body.innerText"));
    }
    choose("#fault-kind", kind);
    browser.type("#fault-target", target);
    browser.click("#inject");
    browser.until(d -> browser.present("#faults tr[data-fault='" + kind + ":" + target + "']"));
  }

  private void liftFaults() {
    open("#/simulation");
    browser.click("#clear-faults");
    browser.until(d -> browser.present("p#faults"));
    assertThat(fixture.cloud.faults()).isEmpty();
  }

  /** A cluster job that failed for want of a permission: a {@code user_action} failure. */
  private Job deniedCluster(Provisioner as, Space in, String name) {
    fixture.cloud.deny("kubernetes:CreateNodegroup");
    try {
      return as.jobs().await(as.jobs().submit(in.id(), KubernetesSpec.named(name).version("1.30")
          .nodeGroup("default", "m5.large", 1, 2).build()).id(), JOB_TIME);
    } finally {
      fixture.cloud.allow("kubernetes:CreateNodegroup");
    }
  }

  /** A workflow stopping a running VM, waiting at its approval step. */
  private RemediationJob awaitingApproval(Provisioner as, CloudAccount of, String name) {
    as.remediations().putRecommendation(new Recommendation("rec-" + name, "sim", of.id(), "sim-east-1", "vm",
        "i-" + name, "stop"));
    fixture.cloud.workload("i-" + name, "running");
    RemediationJob started = as.remediations().start("rec-" + name, SubjectType.RESOURCE, "i-" + name);
    org.awaitility.Awaitility.await().atMost(JOB_TIME)
        .until(() -> as.remediations().get(started.id()).status() == JobStatus.AWAITING_USER);
    return started;
  }

  private Job submitCluster(String name) {
    return admin.jobs().submit(space.id(), KubernetesSpec.named(name).version("1.30")
        .nodeGroup("default", "m5.large", 2, 6).build());
  }

  @Test
  void aSpaceIsRegisteredAJobPlannedSubmittedAndWatchedLiveToSucceeded() {
    // a cluster in the account, for the space form to offer
    assertThat(admin.jobs().await(submitCluster("console-picked").id(), JOB_TIME).status())
        .isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    browser.click("nav a[href='#/spaces']");
    browser.type("#space-name", "console-east");
    browser.click("#create-space-submit");
    // the provider's required setting is refused in the API's words, beside the field
    assertThat(browser.untilText("[data-error-for='config.region']", "required"))
        .isEqualTo("config.region is required for sim spaces");
    // the banner says where to look; the message itself is beside the field, not repeated with its raw code
    assertThat(browser.text("#notice")).contains("One field needs your attention").doesNotContain("validation_failed");
    browser.type("#space-config [data-field='config.region']", "sim-east-2");
    browser.find("#space-config [data-field='config.region']").sendKeys(Keys.TAB);
    browser.until(d -> browser.present("#space-cluster option[value='console-picked']"));
    choose("#space-cluster", "console-picked");
    browser.click("#create-space-submit");
    assertThat(browser.text("tr[data-space='console-east']")).contains("sim", "sim-east-2", "active");
    Space created = admin.spaces().list().stream().filter(s -> s.name().equals("console-east")).findFirst()
        .orElseThrow();
    assertThat(created.config()).containsEntry("region", "sim-east-2").containsEntry("clusterName", "console-picked");
    browser.screenshot("spaces");

    // the wizard: sizes and versions from the provider's lists, the network and subnets from discovery
    browser.click("tr[data-space='console-east'] a[href^='#/new']");
    assertThat(browser.attribute("#job-kind", "value")).isEqualTo("kubernetes");
    browser.find("#f-config-nodeGroups-0-instanceType");
    assertThat(browser.attribute("#f-config-version", "value")).isEqualTo("1.30");
    assertThat(browser.text("label[for='f-config-version']")).contains("default");
    assertThat(browser.text("#f-config-nodeGroups-0-instanceType option[value='m5.xlarge']"))
        .contains("4 vCPU", "16 GiB", "$140.16 a month");
    browser.type("#f-config-nodeGroups-0-max", "1");
    browser.click("#review-plan");
    // each refusal beside its field, the one folded under Advanced opened to show it
    assertThat(browser.untilText("[data-error-for='config.name']", "required")).isEqualTo("name is required");
    assertThat(browser.text("[data-error-for='config.nodeGroups[0].max']")).isEqualTo("must be at least min (2)");
    assertThat(browser.text("#notice")).contains("2 fields need your attention");
    choose("#f-config-version", "1.31");
    choose("#f-config-nodeGroups-0-instanceType", "m5.large");
    browser.type("#f-config-nodeGroups-0-max", "4");
    choose("#f-config-vpcID", "vpc-console");
    browser.until(d -> browser.all("#subnet-choices input[name=subnet]:checked").size() == 2);
    assertThat(browser.attributes("#subnet-choices input[name=subnet]", "value"))
        .containsExactlyInAnyOrder("subnet-console-a", "subnet-console-b");
    // the keyboard alone from here: Enter in a field asks for the plan, and focus moves to it
    browser.type("#f-config-name", "console-prod");
    // a message goes once its field is changed
    assertThat(browser.present("[data-error-for='config.name']")).isFalse();
    assertThat(browser.present("[data-error-for='config.nodeGroups[0].max']")).isFalse();
    browser.screenshot("wizard");
    browser.find("#f-config-name").sendKeys(Keys.ENTER);
    browser.find("#plan-steps");
    browser.until(d -> "plan-title".equals(browser.script("return document.activeElement.id")));
    assertThat(browser.attributes("#plan-steps li", "data-step"))
        .containsExactly("create-role", "create-cluster", "await-cluster", "create-nodegroup-default",
            "await-nodegroup-default");
    assertThat(browser.text("#plan-steps li[data-step='create-cluster']")).contains("kubernetes:CreateCluster");
    assertThat(browser.text("#plan-summary")).isEqualTo("A Kubernetes 1.31 cluster named console-prod, with node group"
        + " default: 2–4 × m5.large.");
    // at the starting size (two nodes) and at the largest (four), cents always
    assertThat(browser.text("#plan-total")).isEqualTo("$213.16");
    assertThat(browser.text("#plan-total-max")).isEqualTo("$353.32");
    assertThat(browser.text("#plan-costs")).contains("cluster control plane", "node group default (m5.large)",
        "$0.10 / hour", "$0.096 / hour", "1,460 hours", "$73.00");
    browser.screenshot("plan");

    // the simulated cloud holds the cluster in CREATING until the page has shown the job waiting for it, so the
    // page is seen to move from running to succeeded without being reloaded
    fixture.cloud.stuckCreating("kubernetes-cluster");
    try {
      // Tab from the plan's heading reaches the submit button
      for (int i = 0; i < 40 && !"submit-job".equals(browser.script("return document.activeElement.id")); i++) {
        new org.openqa.selenium.interactions.Actions(browser.driver).sendKeys(Keys.TAB).perform();
      }
      assertThat(browser.script("return document.activeElement.id")).isEqualTo("submit-job");
      new org.openqa.selenium.interactions.Actions(browser.driver).sendKeys(Keys.ENTER).perform();
      awaitJobStatus("running");
      browser.script("document.getElementById('job').dataset.marker = 'same page'");
      browser.find("#steps li[data-step='await-cluster'][data-status='waiting']");
    } finally {
      fixture.cloud.unstick("kubernetes-cluster");
    }
    awaitJobStatus("succeeded");
    assertThat(browser.script("return document.getElementById('job').dataset.marker")).isEqualTo("same page");
    assertThat(browser.attributes("#steps li[data-step]", "data-status").stream().distinct().toList())
        .containsExactly("succeeded");
    assertThat(browser.attributes("#events li", "data-event"))
        .contains("submitted", "step_started", "step_succeeded", "status");
    assertThat(browser.text("#events li[data-event='status'][data-status='succeeded']"))
        .contains("status succeeded");
    assertThat(browser.text("#outputs")).contains("clusterName");
    assertThat(browser.text("#job-space")).isEqualTo("console-east");
    Job submitted = admin.jobs().get(dev.zop.provisioner.JobId.of(browser.attribute("#job", "data-job-id")));
    KubernetesSpec asked = (KubernetesSpec) submitted.spec();
    assertThat(asked.version()).isEqualTo("1.31");
    assertThat(asked.vpcId()).isEqualTo("vpc-console");
    assertThat(asked.subnetIds()).containsExactlyInAnyOrder("subnet-console-a", "subnet-console-b");
    browser.screenshot("job");

    // nothing left this origin: the console makes no third-party request
    @SuppressWarnings("unchecked")
    List<String> resources = (List<String>) browser.script(
        "return performance.getEntriesByType('resource').map(e => e.name)");
    assertThat(resources).isNotEmpty().allSatisfy(url -> assertThat(url).startsWith(fixture.baseUrl() + "/"));
  }

  @Test
  void aUserActionFailureShowsItsHintAndItsConsoleLinkAndTheRetryAfterTheFixSucceeds() {
    signIn(fixture.adminToken);
    // the demo's own way to break the cloud: the Simulation page, which says it is one
    injectFault("access_denied", "kubernetes:CreateNodegroup");
    assertThat(browser.text("#simulation-banner")).contains("A simulated cloud", "nothing real is created");
    browser.screenshot("simulation");
    Job failed = admin.jobs().await(submitCluster("console-denied").id(), JOB_TIME);
    liftFaults();
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    open("#/jobs/" + failed.id().value());
    assertThat(browser.attribute("#failure", "data-category")).isEqualTo("user_action");
    assertThat(browser.text("#failure")).contains("Needs your action", failed.lastFailure().message());
    assertThat(browser.text("#failure .fix-hint")).contains(failed.lastFailure().fixHint());
    assertThat(browser.attribute("#console-link", "href")).isEqualTo(failed.lastFailure().consoleUrl());
    assertThat(browser.attribute("#console-link", "rel")).contains("noopener", "noreferrer");
    assertThat(browser.attribute("#steps li[data-step='create-nodegroup-default']", "data-status"))
        .isEqualTo("failed");
    browser.screenshot("failure-user-action");

    browser.click("#retry");
    awaitJobStatus("succeeded");
    assertThat(browser.present("#failure")).isFalse();
    assertThat(admin.jobs().get(failed.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aTransientFailureOffersRetryWhichResumesTheJob() {
    signIn(fixture.adminToken);
    injectFault("throttled", "kubernetes:CreateNodegroup"); // more calls than the engine's policy tries
    Job failed = admin.jobs().await(submitCluster("console-throttled").id(), JOB_TIME);
    liftFaults();
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    open("#/jobs/" + failed.id().value());
    assertThat(browser.attribute("#failure", "data-category")).isEqualTo("transient");
    assertThat(browser.text("#failure")).contains(failed.lastFailure().message());
    assertThat(browser.text("#retry")).isEqualTo("Retry");
    browser.click("#retry");
    awaitJobStatus("succeeded");
    assertThat(browser.attributes("#events li", "data-event")).contains("retried");
    assertThat(fixture.cloud.stepRuns(failed.id().value(), "create-cluster")).isEqualTo(1);
  }

  @Test
  void aQuotaAndAnUnsupportedApiAreProvokedFromTheSimulationPageAndShownByWhoMustAct() {
    signIn(fixture.adminToken);
    injectFault("quota_exceeded", "kubernetes-cluster");
    Job overQuota = admin.jobs().await(submitCluster("console-quota").id(), JOB_TIME);
    liftFaults();
    assertThat(overQuota.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    open("#/jobs/" + overQuota.id().value());
    assertThat(browser.attribute("#failure", "data-category")).isEqualTo("user_action");
    assertThat(browser.text("#failure")).contains("Needs your action", overQuota.lastFailure().message());
    browser.screenshot("failure-quota");
    browser.click("#retry");
    awaitJobStatus("succeeded");

    injectFault("unsupported", "kubernetes:CreateNodegroup");
    Job broken = admin.jobs().await(submitCluster("console-unsupported").id(), JOB_TIME);
    liftFaults();
    assertThat(broken.lastFailure().category()).isEqualTo(FailureCategory.SYSTEM);
    open("#/jobs/" + broken.id().value());
    assertThat(browser.attribute("#failure", "data-category")).isEqualTo("system");
    assertThat(browser.text("#failure")).contains("Recorded for follow-up", "is not supported here");
    // trying again would fail the same way: nothing offers to
    assertThat(browser.present("#retry")).isFalse();
    browser.screenshot("failure-system");
  }

  @Test
  void faultsAreTheAdminsAndRefusedWhenMalformed() throws Exception {
    String viewer = fixture.token("acme", "vera@acme.com", Policies.VIEWER);
    HttpResponse<String> refused = http("POST", "/simulation/faults", viewer,
        "{\"kind\": \"access_denied\", \"target\": \"kubernetes:CreateCluster\"}");
    assertThat(refused.statusCode()).isEqualTo(403);
    HttpResponse<String> wrong = http("POST", "/simulation/faults", fixture.adminToken,
        "{\"kind\": \"meteor\", \"target\": \"a b\"}");
    assertThat(wrong.statusCode()).isEqualTo(400);
    assertThat(wrong.body()).contains("\"field\":\"kind\"", "\"field\":\"target\"");
    assertThat(fixture.cloud.faults()).isEmpty();
  }

  private HttpResponse<String> http(String method, String path, String token, String body) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fixture.baseUrl() + path))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRemediationIsStartedApprovedWithAReasonAndItsAuditRead() {
    admin.remediations().putRecommendation(new Recommendation("rec-console", "sim", account.id(), "sim-east-1", "vm",
        "i-console", "stop"));
    fixture.cloud.workload("i-console", "running");
    signIn(fixture.adminToken);
    browser.click("nav a[href='#/remediations']");
    // picked from the recorded recommendations; its resource becomes the subject
    choose("#rec-id", "rec-console");
    assertThat(browser.attribute("#subject-id", "value")).isEqualTo("i-console");
    browser.click("#start-remediation button[type='submit']");
    browser.type("#decision-reason", "Confirmed off-hours window");
    browser.screenshot("remediation-approval");
    browser.click("#approve");
    browser.until(d -> "succeeded".equals(
        browser.attribute("#remediation-status [data-status]", "data-status")));
    assertThat(browser.text("#audit tr[data-audit='approved']")).contains("alice@acme.com", "Confirmed off-hours window");
    assertThat(fixture.cloud.workloadState("i-console")).isEqualTo("stopped");
    RemediationJob job = admin.remediations().list(10, null).items().stream()
        .filter(r -> r.recommendationId().equals("rec-console")).findFirst().orElseThrow();
    assertThat(admin.remediations().audit(job.id())).anySatisfy(a -> {
      assertThat(a.eventType()).isEqualTo("approved");
      assertThat(a.reason()).isEqualTo("Confirmed off-hours window");
    });
  }

  @Test
  void aRemediationThatFailedTransientlyIsRemediatedAgain() {
    admin.remediations().putRecommendation(new Recommendation("rec-throttled", "sim", account.id(), "sim-east-1",
        "vm", "i-throttled", "stop"));
    // every attempt the engine's retry policy allows, for this workflow only
    fixture.cloud.workload("i-throttled", "running").throttleNext("compute:StopInstances", 4);
    RemediationJob first = admin.remediations().start("rec-throttled", SubjectType.RESOURCE, "i-throttled");
    org.awaitility.Awaitility.await().atMost(JOB_TIME)
        .until(() -> admin.remediations().get(first.id()).status() == JobStatus.AWAITING_USER);
    admin.remediations().approve(first.id(), dev.zop.provisioner.remediation.StepRef.name("approval"), null);
    RemediationJob failed = admin.remediations().await(first.id(), JOB_TIME);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);

    signIn(fixture.adminToken);
    open("#/remediations/" + first.id().value());
    assertThat(browser.attribute("#failure", "data-category")).isEqualTo("transient");
    assertThat(browser.text("#failure")).contains(failed.lastFailure().message());
    browser.click("#remediate-again");
    browser.until(d -> d.getCurrentUrl().contains("#/remediations/job_")
        && !d.getCurrentUrl().endsWith(first.id().value()));
    String url = browser.driver.getCurrentUrl();
    dev.zop.provisioner.JobId again = dev.zop.provisioner.JobId.of(url.substring(url.lastIndexOf('/') + 1));
    browser.click("#approve");
    // the workflow's own end first, read through the API: a page that lags shows as such, not as a stuck workflow
    RemediationJob ran = admin.remediations().await(again, JOB_TIME);
    assertThat(ran.status()).as(String.valueOf(ran.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    browser.until(d -> "succeeded".equals(browser.attribute("#remediation-status [data-status]", "data-status")));
    assertThat(fixture.cloud.workloadState("i-throttled")).isEqualTo("stopped");
  }

  @Test
  void aJobIsChangedFromItsOwnConfigAfterTheChangeIsShownFieldByField() {
    Job job = admin.jobs().await(submitCluster("console-change").id(), JOB_TIME);
    signIn(fixture.adminToken);
    open("#/jobs/" + job.id().value());
    browser.click("#change-job");
    // the form holds what the job has now
    assertThat(browser.attribute("#f-config-name", "value")).isEqualTo("console-change");
    assertThat(browser.attribute("#f-config-version", "value")).isEqualTo("1.30");
    assertThat(browser.attribute("#f-config-nodeGroups-0-max", "value")).isEqualTo("6");
    choose("#f-config-version", "1.31");
    browser.type("#f-config-nodeGroups-0-min", "3");
    browser.click("#review-change");
    assertThat(browser.text("#revision-changes")).contains("1.30", "1.31");
    assertThat(browser.attributes("#revision-changes tr[data-field]", "data-effect")).containsOnly("in_place");
    // two nodes to three: one more m5.large a month
    assertThat(browser.text("#cost-before")).isEqualTo("$213.16");
    assertThat(browser.text("#cost-after")).isEqualTo("$283.24");
    assertThat(browser.text("#cost-delta")).isEqualTo("+$70.08");
    browser.screenshot("change-plan");
    browser.click("#apply-change");
    browser.until(d -> d.getCurrentUrl().endsWith("#/jobs/" + job.id().value()));
    Job changed = admin.jobs().await(job.id(), JOB_TIME);
    assertThat(changed.status()).isEqualTo(JobStatus.SUCCEEDED);
    KubernetesSpec now = (KubernetesSpec) changed.spec();
    assertThat(now.version()).isEqualTo("1.31");
    assertThat(now.nodeGroups().get(0).min()).isEqualTo(3);
  }

  @Test
  void anUntouchedChangeFormOfAJobThatNamesNoSubnetsSendsItsConfigUnchanged() {
    // a network, and the provider left to choose its subnets
    Job job = admin.jobs().await(admin.jobs().submit(space.id(), KubernetesSpec.named("console-no-subnets")
        .version("1.30").nodeGroup("default", "m5.large", 1, 2).vpcId("vpc-console").build()).id(), JOB_TIME);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    open("#/jobs/" + job.id().value() + "/change");
    browser.until(d -> browser.present("#subnet-choices input[name=subnet]"));
    assertThat(browser.all("#subnet-choices input[name=subnet]:checked")).isEmpty();
    browser.click("#review-change");
    // the form sent the job's own config back, subnets and all: the service says there is nothing to revise
    assertThat(browser.untilText("#notice", "as it is")).contains("the revised config is the job's config as it is");
  }

  @Test
  void theNetworkFormPeersWithADiscoveredNetworkAndNamesTheZonesAlreadyThere() {
    signIn(fixture.adminToken);
    open("#/new?space=" + space.id().value() + "&kind=network");
    browser.until(d -> "network".equals(browser.attribute("#job-config", "data-kind")));
    browser.click("#job-config details.advanced summary");
    assertThat(browser.text("#f-config-dnsZone-help")).contains("console.example.com");
    browser.type("#f-config-name", "console-net");
    choose("#f-config-peerVpcID", "vpc-console");
    choose("#f-config-natGateways", "single");
    browser.type("#f-config-subnets-0-zone", "sim-east-1a");
    browser.click("#f-config-subnets-0-public");
    browser.click("#review-plan");
    assertThat(browser.text("#plan-summary")).isEqualTo("A network console-net (10.20.0.0/16) with 1 subnet(s).");
    assertThat(browser.attributes("#plan-steps li", "data-step")).anySatisfy(step -> assertThat(step).contains("peer"));
  }

  @Test
  void teardownAsksFirstAndThenTearsTheJobDown() {
    Job job = admin.jobs().await(submitCluster("console-teardown").id(), JOB_TIME);
    signIn(fixture.adminToken);
    open("#/jobs/" + job.id().value());
    browser.click("#teardown");
    browser.click("dialog[open] button:not([data-confirm])");
    assertThat(browser.present("dialog[open]")).isFalse();
    assertThat(admin.jobs().get(job.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    browser.click("#teardown");
    assertThat(browser.text("dialog[open]")).contains("cannot be undone", "Type console-teardown to confirm");
    // the keyboard starts on the name to type, never on the destructive button, which waits for the whole name
    assertThat(browser.script("return document.activeElement.id")).isEqualTo("confirm-typed");
    assertThat(browser.find("dialog[open] button[data-confirm]").isEnabled()).isFalse();
    browser.find("#confirm-typed").sendKeys("console-teardow");
    assertThat(browser.find("dialog[open] button[data-confirm]").isEnabled()).isFalse();
    browser.find("#confirm-typed").sendKeys("n");
    assertThat(browser.find("dialog[open] button[data-confirm]").isEnabled()).isTrue();
    browser.click("dialog[open] button[data-confirm]");
    awaitJobStatus("deleted");
    // focus goes back to the page, not to <body>
    assertThat(browser.script("return document.activeElement === document.body")).isEqualTo(false);
    assertThat(browser.all("#steps h3").stream().map(WebElement::getText).toList()).contains("Teardown");
  }

  @Test
  void aSpaceHoldingJobsShowsItsGuardAndARefusalIsShownInTheApisOwnWords() {
    Space busy = admin.spaces().create(SpaceRequest.of("sim", "console-busy", account.id()).region("sim-east-1"));
    Job cluster = admin.jobs().await(admin.jobs().submit(busy.id(), KubernetesSpec.named("console-busy-job")
        .version("1.30").nodeGroup("default", "m5.large", 1, 2).build()).id(), JOB_TIME);
    assertThat(cluster.status()).isEqualTo(JobStatus.SUCCEEDED);
    // a job in the space the cluster registered: the cluster's teardown is refused while it is there
    Space registered = admin.spaces().get(dev.zop.provisioner.SpaceId.of(cluster.outputs().get("spaceId")));
    admin.jobs().await(admin.jobs().submit(registered.id(), KubernetesSpec.named("console-inner").version("1.30")
        .nodeGroup("default", "m5.large", 1, 2).build()).id(), JOB_TIME);
    String refusal;
    try {
      admin.jobs().delete(cluster.id());
      throw new AssertionError("a cluster whose space holds a job was torn down");
    } catch (ConflictException e) {
      assertThat(e.code()).isEqualTo("space_has_jobs");
      refusal = e.getMessage();
    }

    signIn(fixture.adminToken);
    open("#/spaces");
    assertThat(browser.attribute("tr[data-space='console-busy'] button[data-action='delete-space']", "disabled"))
        .isEqualTo("true");
    assertThat(browser.text("tr[data-space='console-busy']")).contains("holds jobs: tear them down first");

    open("#/jobs/" + cluster.id().value());
    browser.click("#teardown");
    browser.find("#confirm-typed").sendKeys(cluster.name());
    browser.click("dialog[open] button[data-confirm]");
    assertThat(browser.untilText("#notice", "space_has_jobs")).contains(refusal);
    assertThat(admin.jobs().get(cluster.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aViewerIsOfferedNothingItMayNotDo() {
    Job failed = deniedCluster(admin, space, "console-viewed");
    RemediationJob parked = awaitingApproval(admin, account, "viewed");

    signIn(fixture.token("acme", "victor@acme.com", Policies.VIEWER));
    open("#/spaces");
    browser.find("#spaces");
    assertThat(browser.present("#create-space")).isFalse();
    assertThat(browser.all("#spaces button")).isEmpty();
    assertThat(browser.all("#spaces a[href^='#/new']")).isEmpty();

    open("#/jobs/" + failed.id().value());
    assertThat(browser.text("#failure")).contains(failed.lastFailure().fixHint());
    assertThat(browser.present("#retry")).isFalse();
    assertThat(browser.present("#teardown")).isFalse();

    open("#/new?space=" + space.id().value());
    browser.type("#f-config-name", "viewer-plan");
    browser.click("#review-plan");
    browser.find("#plan-steps");
    assertThat(browser.present("#submit-job")).isFalse();
    assertThat(browser.text("#plan")).contains("may plan but not submit");

    open("#/remediations/" + parked.id().value());
    assertThat(browser.text("#approval")).contains("An approver decides this step");
    assertThat(browser.present("#approve")).isFalse();
    assertThat(browser.present("#cancel")).isFalse();
    open("#/remediations");
    browser.find("#remediations");
    assertThat(browser.present("#start-remediation")).isFalse();
  }

  @Test
  void aDatastoresDatabasesAndConnectionsAreManagedWithoutEverShowingASecret() {
    // unique names: the PostgreSQL server outlives a run that died before cleaning up
    String unique = Long.toString(System.nanoTime(), 36);
    Job datastore = admin.jobs().await(admin.jobs().submit(space.id(), DatastoreSpec.postgres().name("console-db")
        .version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(20).build()).id(), JOB_TIME);
    assertThat(datastore.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    open("#/jobs/" + datastore.id().value());
    browser.type("#db-name", "console_" + unique);
    browser.type("#db-owner", "console_owner_" + unique);
    browser.click("#create-database button[type='submit']");
    assertThat(browser.text("tr[data-database='console_" + unique + "']")).contains("console_owner_" + unique, "ready");
    browser.click("tr[data-database='console_" + unique + "'] button[data-action='new-connection']");
    browser.until(d -> browser.present("tr[data-database='console_" + unique + "'] [data-connection]"));
    browser.click("#new-server-connection");
    browser.until(d -> browser.present("#server-connections [data-connection]"));
    browser.screenshot("databases");

    Provisioner acme = fixture.engine.as(new Principal("acme", "alice@acme.com", Set.of(Policies.ADMIN)));
    var database = acme.jobs().databases(datastore.id()).list().stream()
        .filter(d -> d.name().equals("console_" + unique)).findFirst().orElseThrow();
    var serverWide = acme.jobs().connections(datastore.id()).list();
    var ofDatabase = acme.jobs().databases(datastore.id()).connections(database.id()).list();
    assertThat(serverWide).hasSize(1);
    assertThat(ofDatabase).hasSize(1);
    String page = browser.driver.getPageSource();
    // every secret by its reference; the database user's generated password nowhere
    assertThat(page).contains(database.secretRef().value(), ofDatabase.get(0).secretRef().value(),
        serverWide.get(0).secretRef().value());
    String password = acme.secrets().reveal(ofDatabase.get(0).secretRef());
    assertThat(password).hasSizeGreaterThanOrEqualTo(16);
    assertThat(page).doesNotContain(password);

    browser.click("tr[data-database='console_" + unique + "'] button[data-action='drop-database']");
    browser.find("#confirm-typed").sendKeys("console_" + unique);
    browser.click("dialog[open] button[data-confirm]");
    browser.until(d -> !browser.present("tr[data-database='console_" + unique + "']"));
    assertThat(admin.jobs().databases(datastore.id()).list()).isEmpty();
    assertThat(admin.jobs().await(admin.jobs().delete(datastore.id()).id(), JOB_TIME).status())
        .isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aSectionThatCannotBeReadLeavesTheRestOfTheJobsPage() {
    // the simulated cloud backs PostgreSQL here, not MySQL: a MySQL datastore records no server to reach
    Job datastore = admin.jobs().await(admin.jobs().submit(space.id(), DatastoreSpec.mysql().name("console-my")
        .version("8.0").instanceClass("db.t3.medium").allocatedStorageGb(20).build()).id(), JOB_TIME);
    assertThat(datastore.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    open("#/jobs/" + datastore.id().value());
    awaitJobStatus("succeeded");
    browser.until(d -> browser.present("#databases-unavailable"));
    assertThat(browser.text("#databases-unavailable")).contains("could not be read", "no_server");
    assertThat(browser.present("#events li")).isTrue();
    assertThat(browser.text("#job")).contains("Took");
  }

  @Test
  void aJobRevisedLaterShowsItsCreationsTimeApartFromTheChanges() {
    Job registry = admin.jobs().await(admin.jobs().submit(space.id(), RegistrySpec.named("console/timed")).id(),
        JOB_TIME);
    Job revised = admin.jobs().await(admin.jobs().revise(registry.id(), RegistrySpec.builder().name("console/timed")
        .immutableTags(true)).id(), JOB_TIME);
    assertThat(revised.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    open("#/jobs/" + registry.id().value());
    awaitJobStatus("succeeded");
    String page = browser.text("#job");
    assertThat(page).contains("Creation took", "Last change took").doesNotContain("\nTook");
  }

  @Test
  void theKeyboardStartsInTheTokenFieldAndCarriesOnInThePageAfterSigningIn() {
    browser.driver.get(fixture.baseUrl() + "/ui");
    browser.until(d -> browser.present("#token") || browser.present("#sign-out"));
    if (browser.present("#sign-out")) {
      browser.click("#sign-out");
      browser.until(d -> browser.present("#token"));
    }
    browser.until(d -> "token".equals(browser.script("return document.activeElement.id")));
    // typed where the focus is, with no tab presses: the token, then Enter
    new org.openqa.selenium.interactions.Actions(browser.driver).sendKeys(fixture.adminToken + Keys.ENTER).perform();
    browser.find("#actor");
    // the form is gone: the focus is on the page drawn in its place, not on <body>
    browser.until(d -> "view".equals(browser.script("return document.activeElement.id")));
  }

  @Test
  void theWizardStartsInTheSpaceRegisteredByHandAndRemembersTheOneChosen() {
    // a cluster registers a space of its own when it is made: newer than the space it was made in
    assertThat(admin.jobs().await(submitCluster("console-wizard-default").id(), JOB_TIME).status())
        .isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    browser.script("localStorage.removeItem('zop.wizard.space')");
    open("#/new");
    assertThat(browser.attribute("#job-space", "value")).isEqualTo(space.id().value());
    // every option names its provider and region without an empty slot
    assertThat(browser.all("#job-space option").stream().map(WebElement::getText).toList())
        .allSatisfy(label -> assertThat(label).doesNotContain(", )").doesNotEndWith("()"));
    String other = browser.all("#job-space option").stream().map(o -> o.getAttribute("value"))
        .filter(id -> !id.equals(space.id().value())).findFirst().orElseThrow();
    choose("#job-space", other);
    open("#/jobs");
    open("#/new");
    assertThat(browser.attribute("#job-space", "value")).isEqualTo(other);
    browser.script("localStorage.removeItem('zop.wizard.space')");
  }

  @Test
  void driftIsCheckedFromTheJobsPageAndPutBackAfterItsPlanIsShown() {
    Job registry = admin.jobs().await(admin.jobs().submit(space.id(), RegistrySpec.named("console/drifted")).id(),
        JOB_TIME);
    assertThat(registry.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    open("#/jobs/" + registry.id().value());
    assertThat(browser.text("#drift-status")).contains("Not checked yet");
    browser.click("#check-drift");
    browser.until(d -> "in_sync".equals(browser.attribute("#drift-status", "data-status")));

    fixture.cloud.changeByHand("registry", "console/drifted", java.util.Map.of("immutableTags", "true"));
    browser.click("#check-drift");
    browser.until(d -> "drifted".equals(browser.attribute("#drift-status", "data-status")));
    assertThat(browser.text("#drifts li[data-field='immutableTags']"))
        .contains("the config says false, the cloud has true");
    browser.click("#plan-reconcile");
    assertThat(browser.text("#reconcile-changes tr[data-field='immutableTags']")).contains("true", "false", "in place");
    browser.click("#apply-reconcile");
    browser.until(d -> "reconciling".equals(browser.attribute("#drift-status", "data-status")));
    org.awaitility.Awaitility.await().atMost(JOB_TIME).until(() -> "false".equals(
        fixture.cloud.find("registry", "console/drifted").attributes().get("immutableTags")));
    assertThat(admin.jobs().await(registry.id(), JOB_TIME).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aNetworkThatExistsIsImportedFromTheWizardAfterItsPlanIsShown() {
    fixture.cloud.existingNetwork("vpc-imported", "10.6.0.0/16", java.util.Map.of("vpc-imported-a", "10.6.1.0/24"));
    signIn(fixture.adminToken);
    open("#/new?space=" + space.id().value() + "&kind=network");
    browser.find("#f-config-name");
    browser.click("#import-existing");
    browser.type("#external-id", "vpc-imported");
    browser.type("#f-config-name", "vpc-imported");
    browser.type("#f-config-cidr", "10.6.0.0/16");
    browser.type("#f-config-subnets-0-name", "a");
    browser.type("#f-config-subnets-0-cidr", "10.6.1.0/24");
    assertThat(browser.text("#review-plan")).isEqualTo("Review import");
    browser.click("#review-plan");
    assertThat(browser.text("#import-adopted")).contains("vpc-imported", "subnet vpc-imported-a");
    browser.click("#submit-import");
    awaitJobStatus("succeeded");
    assertThat(fixture.cloud.find("vpc", "vpc-imported").tags()).containsKey("zop:job");
  }

  @Test
  void aTokenRevokedWhileSignedInSendsThePageBackToTheSignIn() {
    AccessStore.IssuedToken issued = fixture.access.createToken("acme", "rita@acme.com", Set.of(Policies.ADMIN), null);
    signIn(issued.token());
    open("#/jobs");
    fixture.access.revoke(issued.id());
    // moving on in the page, the next answer is a 401 (once the service looks at the token again): the page says
    // why and offers the sign-in again, without a reload
    String[] sections = {"#/spaces", "#/jobs"};
    int[] next = {0};
    org.awaitility.Awaitility.await().atMost(JOB_TIME).until(() -> {
      if (browser.present("#token")) {
        return true;
      }
      browser.script("location.hash = arguments[0]", sections[next[0]++ % 2]);
      return false;
    });
    assertThat(browser.present("#sign-out")).isFalse();
    assertThat(browser.text("#notice")).contains("revoked");
  }

  @Test
  void jobsAreFilteredByStatusAndPaged() {
    Space paging = admin.spaces().create(SpaceRequest.of("sim", "console-paging", account.id()).region("sim-east-1"));
    for (int i = 0; i < 20; i++) {
      admin.jobs().submit(paging.id(), KubernetesSpec.named("console-page-" + i).version("1.30")
          .nodeGroup("default", "m5.large", 1, 2).build());
    }
    // all twenty done before the denial below, which would fail them too
    org.awaitility.Awaitility.await().atMost(JOB_TIME).until(() -> admin.jobs().list(
        dev.zop.provisioner.JobQuery.inSpace(paging.id()).withStatus(JobStatus.SUCCEEDED).limit(100)).items().size() == 20);
    fixture.cloud.deny("kubernetes:CreateNodegroup");
    try {
      admin.jobs().await(admin.jobs().submit(paging.id(), KubernetesSpec.named("console-page-failed").version("1.30")
          .nodeGroup("default", "m5.large", 1, 2).build()).id(), JOB_TIME);
    } finally {
      fixture.cloud.allow("kubernetes:CreateNodegroup");
    }
    signIn(fixture.adminToken);
    open("#/jobs?space=" + paging.id().value());
    browser.find("#jobs");
    assertThat(browser.all("#jobs tbody tr")).hasSize(20);
    // finding narrows the page as it is typed
    browser.type("#filter-text", "console-page-1");
    browser.until(d -> browser.all("#jobs tbody tr:not([hidden])").size() == 11); // 1, 10..19
    assertThat(browser.text("#filter-count")).startsWith("11 of this page's jobs");
    browser.find("#filter-text").clear();
    browser.find("#filter-text").sendKeys(" ");
    browser.until(d -> browser.all("#jobs tbody tr:not([hidden])").size() == 20);
    browser.click("#next-page");
    browser.until(d -> browser.all("#jobs tbody tr").size() == 1);
    assertThat(browser.present("#next-page")).isFalse();

    // a filter applies as it is chosen: no button to press
    choose("#filter-status", "failed");
    browser.until(d -> d.getCurrentUrl().contains("status=failed"));
    browser.until(d -> browser.all("#jobs tbody tr").size() == 1
        && browser.present("#jobs tr[data-job='console-page-failed']"));
    assertThat(browser.attribute("#jobs tr[data-job='console-page-failed'] [data-status]", "data-status"))
        .isEqualTo("failed");
  }

  @Test
  void aCatalogComponentIsInstalledIntoASpace() {
    signIn(fixture.adminToken);
    open("#/catalog");
    assertThat(browser.text("section[data-component='ingress-nginx']")).contains("ingress");
    // retired upstream: said on the catalog, with the maintained one it offers instead
    assertThat(browser.text("section[data-component='ingress-nginx'] .warning[data-status='retired']"))
        .contains("Retired upstream").contains("March 2026").contains("kong");
    assertThat(browser.attribute("section[data-component='ingress-nginx'] .warning a", "href"))
        .endsWith("#component-kong");
    assertThat(browser.present("section[data-component='kong'] p.warning")).isFalse();
    // one install form: a component's Install button chooses it there
    assertThat(browser.all("form#install")).hasSize(1);
    browser.click("section[data-component='ingress-nginx'] button[data-install]");
    assertThat(browser.attribute("#install-component", "value")).isEqualTo("ingress-nginx");
    browser.type("#install-values", "controller.service.type=LoadBalancer");
    browser.click("#install-submit");
    // the plan's warning comes first; installing takes a second, deliberate click
    assertThat(browser.text("#install-warnings li[data-code='component_retired']"))
        .contains("ingress-nginx 4.15.1 is retired upstream");
    assertThat(browser.text("#install-submit")).isEqualTo("Install anyway");
    browser.screenshot("catalog-retired-warning");
    browser.click("#install-submit");
    String id = browser.attribute("#job", "data-job-id");
    assertThat(browser.text("#events li[data-event='warning']")).contains("retired upstream");
    Job job = admin.jobs().get(dev.zop.provisioner.JobId.of(id));
    assertThat(job.kind()).isEqualTo(dev.zop.provisioner.JobKind.COMPONENT);
    assertThat(((dev.zop.provisioner.spec.ComponentSpec) job.spec()).values())
        .containsEntry("controller.service.type", "LoadBalancer");
  }

  @Test
  void onANarrowWindowNothingSpillsSideways() {
    signIn(fixture.adminToken);
    browser.driver.manage().window().setSize(new Dimension(400, 900));
    for (String hash : List.of("#/spaces", "#/jobs", "#/new", "#/remediations")) {
      open(hash);
      browser.find("main h1");
      browser.until(d -> !browser.present("main p.muted") || !browser.text("main").startsWith("Loading"));
      Number overflow = (Number) browser.script(
          "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
      assertThat(overflow.intValue()).as("horizontal overflow on %s", hash).isLessThanOrEqualTo(0);
    }
    browser.screenshot("narrow-remediations");
  }

  @Test
  void theConsoleIsServedWithAPolicyThatAllowsOnlyItsOwnOrigin() throws Exception {
    HttpResponse<String> page = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(fixture.baseUrl() + "/ui")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(p ->
        assertThat(p).contains("default-src 'none'", "script-src 'self'", "connect-src 'self'"));
    assertThat(page.body()).contains("/ui/app.js").doesNotContain("http://", "https://");
    HttpResponse<String> outside = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(fixture.baseUrl() + "/ui/..%2Fpom.xml")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(outside.statusCode()).isEqualTo(404);
  }

  @Test
  void accountsShowTheirCredentialReferencesAndAdminsMakeAndRevokeTokens() throws Exception {
    signIn(fixture.adminToken);
    open("#/accounts");
    assertThat(browser.text("tr[data-account='console']")).contains("sim");
    choose("#account-provider", "sim");
    browser.type("#account-name", "console-second");
    browser.type("#account-credentials", "secret://vault/console-second");
    browser.click("#create-account button[type='submit']");
    assertThat(browser.untilText("tr[data-account='console-second']", "secret://vault/console-second"))
        .contains("sim");
    browser.screenshot("accounts");

    open("#/tokens");
    browser.type("#token-actor", "bob@acme.com");
    choose("#token-role", "viewer");
    browser.click("#create-token button[type='submit']");
    String made = browser.text("#new-token");
    assertThat(made).isNotBlank();
    HttpResponse<String> me = http("GET", "/me", made, null);
    assertThat(me.statusCode()).isEqualTo(200);
    assertThat(me.body()).contains("bob@acme.com");
    browser.screenshot("tokens");
    // shown once: the list names the token, never the token itself
    open("#/");
    open("#/tokens");
    assertThat(browser.driver.getPageSource()).doesNotContain(made);
    List<String> ids = browser.attributes("#tokens tr[data-state='active']", "data-token");
    String bob = ids.stream().filter(t -> browser.text("tr[data-token='" + t + "']").contains("bob@acme.com"))
        .findFirst().orElseThrow();
    browser.click("tr[data-token='" + bob + "'] button[data-action='revoke']");
    browser.click("dialog[open] button[data-confirm]");
    browser.until(d -> "revoked".equals(browser.attribute("tr[data-token='" + bob + "']", "data-state")));
    HttpResponse<String> after = http("GET", "/me", made, null);
    assertThat(after.statusCode()).isEqualTo(401);

    // tokens are the admins' alone: another role gets neither the page's link nor the list
    String viewer = fixture.token("acme", "vic@acme.com", Policies.VIEWER);
    assertThat(http("GET", "/tokens", viewer, null).statusCode()).isEqualTo(403);
    signIn(viewer);
    open("#/tokens");
    assertThat(browser.text("main")).contains("Tokens are managed by the organisation's admins");
    assertThat(browser.find("nav a[href='#/jobs']").isDisplayed()).isTrue();
    assertThat(browser.script("return document.querySelector(\"nav a[href='#/tokens']\").hidden")).isEqualTo(true);
    assertThat(browser.present("#create-token")).isFalse();
  }

  @Test
  void theHomePageCountsWhatNeedsActionWhatRunsAndWhatEachSpaceCosts() {
    // an organisation of its own, so the other tests' jobs are not counted
    String token = fixture.token("home", "hana@home.example", Policies.ADMIN);
    Provisioner home = fixture.client(token);
    CloudAccount homeAccount = home.accounts().create(CloudAccountRequest.of("sim", "home"));
    Space homeSpace = home.spaces().create(SpaceRequest.of("sim", "home-space", homeAccount.id()).region("sim-east-1"));
    Job pool = home.jobs().await(home.jobs().submit(homeSpace.id(), dev.zop.provisioner.spec.VmPoolSpec
        .named("home-pool").instanceType("m5.large").size(1, 3).build()).id(), JOB_TIME);
    assertThat(pool.status()).isEqualTo(JobStatus.SUCCEEDED);
    Job denied = deniedCluster(home, homeSpace, "home-denied");
    assertThat(denied.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    // a failure no permission fixes (the API answers that it does not support the call) waits on a person too
    fixture.cloud.unsupported("registry:CreateRepository");
    Job broken;
    try {
      broken = home.jobs().await(home.jobs().submit(homeSpace.id(), RegistrySpec.named("home/broken")).id(), JOB_TIME);
    } finally {
      fixture.cloud.support("registry:CreateRepository");
    }
    assertThat(broken.lastFailure().category()).isEqualTo(FailureCategory.SYSTEM);
    awaitingApproval(home, homeAccount, "home");
    fixture.cloud.stuckCreating("kubernetes-cluster");
    try {
      Job running = home.jobs().submit(homeSpace.id(), KubernetesSpec.named("home-running").version("1.30")
          .nodeGroup("default", "m5.large", 1, 2).build());
      org.awaitility.Awaitility.await().atMost(JOB_TIME)
          .until(() -> home.jobs().get(running.id()).status() == JobStatus.RUNNING);
      signIn(token);
      open("#/");
      assertThat(browser.attribute("#count-action", "data-count")).isEqualTo("3");
      assertThat(browser.text("#needs-action tr[data-job='home/broken']")).contains("system", "Retry it");
      assertThat(browser.attribute("#count-running", "data-count")).isEqualTo("1");
      // the pool at its starting size: one m5.large all month
      assertThat(browser.attribute("#count-cost", "data-amount")).isEqualTo("70.08");
      assertThat(browser.text("#count-cost")).contains("$70.08");
      assertThat(browser.text("#needs-action tr[data-job='home-denied']")).contains(denied.lastFailure().fixHint());
      assertThat(browser.text("#needs-action tr[data-action='approve']")).contains("Waiting for approval");
      assertThat(browser.text("#running tr[data-job='home-running']")).contains("so far");
      assertThat(browser.text("#space-costs tr[data-space='home-space']")).contains("$70.08");
      assertThat(home.spaces().cost(homeSpace.id()).monthlyTotal()).isEqualByComparingTo("70.08");
      browser.screenshot("home");
    } finally {
      fixture.cloud.unstick("kubernetes-cluster");
    }
  }

  /** A guardrail holding clusters of more than five nodes in a space of its own, made through the API. */
  private Space guardedSpace(String name) {
    Space guarded = admin.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
    admin.guardrails().create(dev.zop.provisioner.GuardrailRequest.of(name + "-cap",
        dev.zop.provisioner.GuardrailLevel.APPROVAL, new dev.zop.provisioner.GuardrailRule.MaxCount(5))
        .withScope(new dev.zop.provisioner.GuardrailScope(List.of(guarded.id()), List.of(), List.of())));
    return guarded;
  }

  @Test
  void aGuardrailIsTriedAndSavedAndTheJobItHoldsIsApprovedFromTheGuardrailsPage() {
    Space guarded = admin.spaces().create(SpaceRequest.of("sim", "console-guarded", account.id())
        .region("sim-east-1"));
    Job big = admin.jobs().await(admin.jobs().submit(guarded.id(), KubernetesSpec.named("console-big")
        .version("1.30").nodeGroup("default", "m5.large", 1, 9).build()).id(), JOB_TIME);
    assertThat(big.status()).isEqualTo(JobStatus.SUCCEEDED);
    signIn(fixture.adminToken);
    browser.click("nav a[href='#/guardrails']");
    // written as its REST body, tried first: the job already there breaks it; nothing is saved yet
    browser.find("#guardrail-body").clear();
    browser.type("#guardrail-body", "{\"name\": \"console-cap\", \"level\": \"approval\", "
        + "\"rule\": {\"type\": \"max_count\", \"max\": 5}, \"scope\": {\"spaces\": [\"" + guarded.id() + "\"]}}");
    browser.click("#try-guardrail");
    browser.untilText("#trial-jobs-summary", "1 of 1 break it.");
    assertThat(browser.text("#trial-jobs tr[data-job='" + big.id() + "']")).contains("more than the 5 allowed");
    assertThat(admin.guardrails().list()).extracting(dev.zop.provisioner.Guardrail::name)
        .doesNotContain("console-cap");
    browser.click("#save-guardrail");
    browser.find("#guardrails tr[data-guardrail='console-cap']");

    // a developer's wide cluster waits; the admin approves it from the inbox with a reason
    Provisioner developer = fixture.client(fixture.token("acme", "dev@acme.com", Policies.OPERATOR));
    Job held = developer.jobs().submit(guarded.id(), KubernetesSpec.named("console-wide").version("1.30")
        .nodeGroup("default", "m5.large", 1, 8).build());
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    open("#/jobs"); // away and back: the page is drawn again, with the job that now waits
    open("#/guardrails");
    browser.type("#reason-" + held.id(), "Black Friday capacity");
    browser.screenshot("guardrail-approval");
    browser.click("#approvals button[data-approve='" + held.id() + "']");
    browser.until(d -> !browser.present("#approvals tr[data-job='" + held.id() + "']"));
    assertThat(admin.jobs().await(held.id(), JOB_TIME).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(admin.guardrails().decisions(held.id())).last().satisfies(d -> {
      assertThat(d.outcome()).isEqualTo(dev.zop.provisioner.GuardrailDecision.Outcome.APPROVED);
      assertThat(d.actor()).isEqualTo("alice@acme.com");
      assertThat(d.verdicts().get(0).message()).isEqualTo("approved by alice@acme.com: Black Friday capacity");
    });
  }

  @Test
  void everyPageHasNoSeriousOrCriticalAccessibilityViolation() {
    Job done = admin.jobs().await(submitCluster("console-axe").id(), JOB_TIME);
    Job failed = deniedCluster(admin, space, "console-axe-failed");
    RemediationJob parked = awaitingApproval(admin, account, "axe");
    // a job held for approval, for the guardrails page's inbox
    Job held = admin.jobs().submit(guardedSpace("console-axe-guarded").id(), KubernetesSpec.named("console-axe-held")
        .version("1.30").nodeGroup("default", "m5.large", 1, 8).build());
    assertThat(held.status()).isEqualTo(JobStatus.AWAITING_APPROVAL);
    // one that passes every plan of the space the wizard plans in, so the plan shows its verdict
    dev.zop.provisioner.Guardrail shown = admin.guardrails().create(dev.zop.provisioner.GuardrailRequest.of(
        "console-axe-shown", dev.zop.provisioner.GuardrailLevel.ADVISORY,
        new dev.zop.provisioner.GuardrailRule.Cel("plan.maxCount >= 0", null))
        .withScope(new dev.zop.provisioner.GuardrailScope(List.of(space.id()), List.of(), List.of())));

    browser.driver.get(fixture.baseUrl() + "/ui");
    browser.until(d -> browser.present("#token") || browser.present("#sign-out"));
    if (browser.present("#sign-out")) {
      browser.click("#sign-out");
    }
    browser.find("#token");
    java.util.Map<String, List<String>> found = new java.util.LinkedHashMap<>();
    found.put("sign-in", browser.seriousAccessibilityViolations());
    browser.screenshot("sign-in");
    signIn(fixture.adminToken);
    // each page, and the name its screenshot is saved under
    java.util.Map<String, String> pages = new java.util.LinkedHashMap<>();
    pages.put("overview", "#/");
    pages.put("spaces", "#/spaces");
    pages.put("wizard", "#/new?space=" + space.id().value());
    pages.put("jobs", "#/jobs");
    pages.put("job-succeeded", "#/jobs/" + done.id().value());
    pages.put("job-failed", "#/jobs/" + failed.id().value());
    pages.put("job-change", "#/jobs/" + done.id().value() + "/change");
    pages.put("remediations", "#/remediations");
    pages.put("remediation-waiting", "#/remediations/" + parked.id().value());
    pages.put("catalog", "#/catalog");
    pages.put("guardrails", "#/guardrails");
    pages.put("accounts", "#/accounts");
    pages.put("tokens", "#/tokens");
    pages.put("simulation", "#/simulation");
    for (java.util.Map.Entry<String, String> page : pages.entrySet()) {
      open(page.getValue());
      browser.until(d -> !browser.present("main > p.muted") || !browser.text("main").startsWith("Loading"));
      found.put(page.getValue(), browser.seriousAccessibilityViolations());
      browser.screenshot("page-" + page.getKey());
    }
    // the plan, and the wizard with its Advanced fields open
    open("#/new?space=" + space.id().value());
    browser.script("document.querySelectorAll('details').forEach(d => d.open = true)");
    found.put("wizard, advanced open", browser.seriousAccessibilityViolations());
    browser.type("#f-config-name", "console-axe-plan");
    browser.click("#review-plan");
    browser.find("#plan-steps");
    assertThat(browser.text("#plan-verdicts li[data-guardrail='console-axe-shown']")).contains("passed");
    found.put("plan", browser.seriousAccessibilityViolations());
    admin.guardrails().delete(shown.id());
    open("#/guardrails");
    browser.click("#try-guardrail");
    browser.find("#trial-jobs-summary");
    found.put("a guardrail tried", browser.seriousAccessibilityViolations());
    open("#/jobs/" + done.id().value() + "/change");
    browser.type("#f-config-nodeGroups-0-max", "7");
    browser.click("#review-change");
    browser.find("#revision-changes");
    found.put("the change's plan", browser.seriousAccessibilityViolations());
    found.values().removeIf(List::isEmpty);
    assertThat(found).as("serious or critical violations by page").isEmpty();
  }
}

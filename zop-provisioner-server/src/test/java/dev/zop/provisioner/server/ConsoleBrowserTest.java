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
import dev.zop.provisioner.spec.KubernetesSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
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
    fixture = new ServerFixture();
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
    if (browser.present("#sign-out")) {
      browser.click("#sign-out");
    }
    // keyboard only: the token and Enter
    browser.find("#token").sendKeys(token, Keys.ENTER);
    browser.find("#actor");
  }

  private void open(String hash) {
    browser.driver.get(fixture.baseUrl() + "/ui" + hash);
  }

  private String jobStatus() {
    List<WebElement> badge = browser.all("#job-status [data-status]");
    return badge.isEmpty() ? null : badge.get(0).getAttribute("data-status");
  }

  private void awaitJobStatus(String status) {
    try {
      browser.until(d -> status.equals(jobStatus()));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError("the job's page never showed " + status + "; it shows:\n"
          + browser.script("return document.body.innerText"), e);
    }
  }

  private Job submitCluster(String name) {
    return admin.jobs().submit(space.id(), KubernetesSpec.named(name).version("1.30")
        .nodeGroup("default", "m5.large", 2, 6).build());
  }

  @Test
  void aSpaceIsRegisteredAJobPlannedSubmittedAndWatchedLiveToSucceeded() {
    signIn(fixture.adminToken);
    browser.click("nav a[href='#/spaces']");
    browser.type("#space-name", "console-east");
    browser.click("#create-space-submit");
    // the provider's required setting is refused in the API's words, beside the field
    assertThat(browser.untilText("[data-error-for='config.region']", "required"))
        .isEqualTo("config.region is required for sim spaces");
    assertThat(browser.find("#notice").getText()).contains("config.region is required for sim spaces",
        "validation_failed");
    browser.type("#space-config [data-field='config.region']", "sim-east-2");
    browser.click("#create-space-submit");
    WebElement row = browser.find("tr[data-space='console-east']");
    assertThat(row.getText()).contains("sim", "sim-east-2", "active");
    Space created = admin.spaces().list().stream().filter(s -> s.name().equals("console-east")).findFirst()
        .orElseThrow();
    assertThat(created.config()).containsEntry("region", "sim-east-2");
    browser.screenshot("spaces");

    // the wizard: the form comes from the API's own schema, with the documents' example filled in
    browser.click("tr[data-space='console-east'] a[href^='#/new']");
    assertThat(browser.find("#job-kind").getAttribute("value")).isEqualTo("kubernetes");
    browser.type("#f-config-name", "console-prod");
    browser.find("#f-config-version").clear();
    browser.type("#f-config-nodeGroups-0-max", "1");
    browser.click("#review-plan");
    assertThat(browser.untilText("[data-error-for='config.version']", "required")).isEqualTo("version is required");
    assertThat(browser.find("[data-error-for='config.nodeGroups[0].max']").getText()).isEqualTo("must be at least min (2)");
    browser.type("#f-config-version", "1.30");
    browser.type("#f-config-nodeGroups-0-max", "4");
    browser.click("#review-plan");
    browser.find("#plan-steps");
    assertThat(browser.all("#plan-steps li").stream().map(li -> li.getAttribute("data-step")).toList())
        .containsExactly("create-role", "create-cluster", "await-cluster", "create-nodegroup-default",
            "await-nodegroup-default");
    assertThat(browser.find("#plan-steps li[data-step='create-cluster']").getText()).contains("kubernetes:CreateCluster");
    assertThat(browser.find("#plan-total").getText()).isEqualTo("$213.16");
    assertThat(browser.find("#plan-costs").getText()).contains("cluster control plane", "node group default (m5.large)");
    browser.screenshot("plan");

    // the cluster takes a while in the simulated cloud, so the page is seen to move without being reloaded
    fixture.cloud.creatingTime("kubernetes-cluster", Duration.ofSeconds(2));
    try {
      browser.click("#submit-job");
      awaitJobStatus("running");
      browser.script("document.getElementById('job').dataset.marker = 'same page'");
      browser.until(d -> browser.present("#steps li[data-step='await-cluster'][data-status='waiting']")
          || browser.present("#steps li[data-step='await-cluster'][data-status='succeeded']"));
      awaitJobStatus("succeeded");
    } finally {
      fixture.cloud.creatingTime("kubernetes-cluster", Duration.ZERO);
    }
    assertThat(browser.script("return document.getElementById('job').dataset.marker")).isEqualTo("same page");
    assertThat(browser.all("#steps li[data-step]").stream().map(li -> li.getAttribute("data-status")).distinct().toList())
        .containsExactly("succeeded");
    assertThat(browser.all("#events li").stream().map(li -> li.getAttribute("data-event")).toList())
        .contains("submitted", "step_started", "step_succeeded", "status");
    assertThat(browser.find("#events li[data-event='status'][data-status='succeeded']").getText())
        .contains("status succeeded");
    assertThat(browser.find("#outputs").getText()).contains("clusterName");
    browser.screenshot("job");

    // nothing left this origin: the console makes no third-party request
    @SuppressWarnings("unchecked")
    List<String> resources = (List<String>) browser.script(
        "return performance.getEntriesByType('resource').map(e => e.name)");
    assertThat(resources).isNotEmpty().allSatisfy(url -> assertThat(url).startsWith(fixture.baseUrl() + "/"));
  }

  @Test
  void aUserActionFailureShowsItsHintAndItsConsoleLinkAndTheRetryAfterTheFixSucceeds() {
    fixture.cloud.deny("kubernetes:CreateNodegroup");
    Job failed;
    try {
      failed = admin.jobs().await(submitCluster("console-denied").id(), JOB_TIME);
    } finally {
      fixture.cloud.allow("kubernetes:CreateNodegroup");
    }
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    signIn(fixture.adminToken);
    open("#/jobs/" + failed.id().value());
    WebElement failure = browser.find("#failure");
    assertThat(failure.getAttribute("data-category")).isEqualTo("user_action");
    assertThat(failure.getText()).contains("Needs your action", failed.lastFailure().message());
    assertThat(browser.find("#failure .fix-hint").getText()).contains(failed.lastFailure().fixHint());
    assertThat(browser.find("#console-link").getAttribute("href")).isEqualTo(failed.lastFailure().consoleUrl());
    assertThat(browser.find("#console-link").getAttribute("rel")).contains("noopener", "noreferrer");
    assertThat(browser.find("#steps li[data-step='create-nodegroup-default']").getAttribute("data-status"))
        .isEqualTo("failed");
    browser.screenshot("failure-user-action");

    browser.click("#retry");
    awaitJobStatus("succeeded");
    assertThat(browser.present("#failure")).isFalse();
    assertThat(admin.jobs().get(failed.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aTransientFailureOffersRetryWhichResumesTheJob() {
    fixture.cloud.throttleNext("kubernetes:CreateNodegroup", 4); // every attempt the engine's policy allows
    Job failed = admin.jobs().await(submitCluster("console-throttled").id(), JOB_TIME);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    signIn(fixture.adminToken);
    open("#/jobs/" + failed.id().value());
    assertThat(browser.find("#failure").getAttribute("data-category")).isEqualTo("transient");
    assertThat(browser.find("#failure").getText()).contains(failed.lastFailure().message());
    assertThat(browser.find("#retry").getText()).isEqualTo("Retry");
    browser.click("#retry");
    awaitJobStatus("succeeded");
    assertThat(browser.all("#events li").stream().map(li -> li.getAttribute("data-event")).toList()).contains("retried");
    assertThat(fixture.cloud.stepRuns(failed.id().value(), "create-cluster")).isEqualTo(1);
  }

  @Test
  void aRemediationIsStartedApprovedWithAReasonAndItsAuditRead() {
    admin.remediations().putRecommendation(new Recommendation("rec-console", "sim", account.id(), "sim-east-1", "vm",
        "i-console", "stop"));
    fixture.cloud.workload("i-console", "running");
    signIn(fixture.adminToken);
    browser.click("nav a[href='#/remediations']");
    browser.type("#rec-id", "rec-console");
    browser.type("#subject-id", "i-console");
    browser.click("#start-remediation button[type='submit']");
    browser.type("#decision-reason", "Confirmed off-hours window");
    browser.screenshot("remediation-approval");
    browser.click("#approve");
    browser.until(d -> "succeeded".equals(
        browser.find("#remediation-status [data-status]").getAttribute("data-status")));
    WebElement approved = browser.find("#audit tr[data-audit='approved']");
    assertThat(approved.getText()).contains("alice@acme.com", "Confirmed off-hours window");
    assertThat(fixture.cloud.workloadState("i-console")).isEqualTo("stopped");
    RemediationJob job = admin.remediations().list(10, null).items().stream()
        .filter(r -> r.recommendationId().equals("rec-console")).findFirst().orElseThrow();
    assertThat(admin.remediations().audit(job.id())).anySatisfy(a -> {
      assertThat(a.eventType()).isEqualTo("approved");
      assertThat(a.reason()).isEqualTo("Confirmed off-hours window");
    });
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
    assertThat(browser.find("dialog[open]").getText()).contains("cannot be undone");
    browser.click("dialog[open] button[data-confirm]");
    awaitJobStatus("deleted");
    assertThat(browser.all("#steps h3").stream().map(WebElement::getText).toList()).contains("Teardown");
  }

  @Test
  void aRefusalIsShownInTheApisOwnWords() {
    Space busy = admin.spaces().create(SpaceRequest.of("sim", "console-busy", account.id()).region("sim-east-1"));
    admin.jobs().await(admin.jobs().submit(busy.id(), KubernetesSpec.named("console-busy-job").version("1.30")
        .nodeGroup("default", "m5.large", 1, 2).build()).id(), JOB_TIME);
    String refusal;
    try {
      admin.spaces().delete(busy.id());
      throw new AssertionError("a space holding a job was deleted");
    } catch (ConflictException e) {
      assertThat(e.code()).isEqualTo("space_has_jobs");
      refusal = e.getMessage();
    }
    signIn(fixture.adminToken);
    open("#/spaces");
    browser.click("tr[data-space='console-busy'] button[data-action='delete-space']");
    browser.click("dialog[open] button[data-confirm]");
    assertThat(browser.untilText("#notice", "space_has_jobs")).contains(refusal);
    assertThat(admin.spaces().get(busy.id())).isNotNull();
  }

  @Test
  void aViewerIsOfferedNothingItMayNotDo() {
    Job failed;
    fixture.cloud.deny("kubernetes:CreateNodegroup");
    try {
      failed = admin.jobs().await(submitCluster("console-viewed").id(), JOB_TIME);
    } finally {
      fixture.cloud.allow("kubernetes:CreateNodegroup");
    }
    admin.remediations().putRecommendation(new Recommendation("rec-viewed", "sim", account.id(), "sim-east-1", "vm",
        "i-viewed", "stop"));
    fixture.cloud.workload("i-viewed", "running");
    RemediationJob parked = admin.remediations().start("rec-viewed", SubjectType.RESOURCE, "i-viewed");
    org.awaitility.Awaitility.await().atMost(JOB_TIME)
        .until(() -> admin.remediations().get(parked.id()).status() == JobStatus.AWAITING_USER);

    signIn(fixture.token("acme", "victor@acme.com", Policies.VIEWER));
    open("#/spaces");
    browser.find("#spaces");
    assertThat(browser.present("#create-space")).isFalse();
    assertThat(browser.all("#spaces button")).isEmpty();
    assertThat(browser.all("#spaces a[href^='#/new']")).isEmpty();

    open("#/jobs/" + failed.id().value());
    assertThat(browser.find("#failure").getText()).contains(failed.lastFailure().fixHint());
    assertThat(browser.present("#retry")).isFalse();
    assertThat(browser.present("#teardown")).isFalse();

    open("#/new?space=" + space.id().value());
    browser.click("#review-plan");
    browser.find("#plan-steps");
    assertThat(browser.present("#submit-job")).isFalse();
    assertThat(browser.find("#plan").getText()).contains("may plan but not submit");

    open("#/remediations/" + parked.id().value());
    assertThat(browser.find("#approval").getText()).contains("An approver decides this step");
    assertThat(browser.present("#approve")).isFalse();
    assertThat(browser.present("#cancel")).isFalse();
    open("#/remediations");
    browser.find("#remediations");
    assertThat(browser.present("#start-remediation")).isFalse();
  }

  @Test
  void onANarrowWindowNothingSpillsSideways() {
    signIn(fixture.adminToken);
    browser.driver.manage().window().setSize(new Dimension(400, 900));
    for (String hash : List.of("#/spaces", "#/jobs", "#/new", "#/remediations")) {
      open(hash);
      browser.find("main h1");
      browser.until(d -> !browser.present("main p.muted") || !browser.find("main").getText().startsWith("Loading"));
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
}

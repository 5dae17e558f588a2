package dev.zop.provisioner.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spi.CloudProvider;
import java.time.Duration;
import java.util.Set;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration in a bare context: what it makes, what it leaves alone, what it wires in. */
class ZopAutoConfigurationTest {
  @TempDir
  Path data;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZopProvisionerAutoConfiguration.class))
        .withPropertyValues("zop.data-directory=" + data, "zop.worker-threads=2");
  }

  @Test
  void anEngineOnItsOwnH2StoreWhenTheApplicationHasNoDataSource() {
    runner().run(context -> {
      assertThat(context).hasSingleBean(EmbeddedProvisioner.class).hasSingleBean(ZopHealthIndicator.class);
      EmbeddedProvisioner engine = context.getBean(EmbeddedProvisioner.class);
      assertThat(engine.dataSource().getConnection().getMetaData().getURL()).contains(data.toString());
      var health = context.getBean(ZopHealthIndicator.class).health(true);
      assertThat(health.getStatus()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsEntry("store", "H2");
    });
  }

  @Test
  void theApplicationsOwnProvisionerAndTheSwitchAreRespected() {
    runner().withBean(Provisioner.class, () -> EmbeddedProvisioner.builder().dataDirectory(data.resolve("own"))
        .runWorkers(false).build()).run(context -> {
          assertThat(context).hasSingleBean(Provisioner.class);
          assertThat(context.getBeanNamesForType(Provisioner.class)).doesNotContain("zopProvisioner");
        });
    runner().withPropertyValues("zop.enabled=false").run(context ->
        assertThat(context).doesNotHaveBean(Provisioner.class).doesNotHaveBean(ZopHealthIndicator.class));
  }

  @Test
  void theApplicationsMeterRegistryGetsTheEnginesMeters() {
    runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(registry.find("zop.jobs").tag("status", "running").gauge()).isNotNull();
      assertThat(registry.find("zop.claims").counter()).isNotNull();
    });
  }

  @Test
  void providerBeansAndCustomizersReachTheBuilder() {
    Principal bot = new Principal("acme", "orders-service", Set.of(Principal.ADMIN));
    runner().withBean(CloudProvider.class, () -> new SimProvider(SimCloud.create(), "sim-bean"))
        .withBean(ZopProvisionerBuilderCustomizer.class, () -> builder -> builder.principal(bot))
        .run(context -> {
          EmbeddedProvisioner engine = context.getBean(EmbeddedProvisioner.class);
          assertThat(engine.principal()).isEqualTo(bot);
          CloudAccount account = engine.accounts().create(CloudAccountRequest.of("sim-bean", "from-a-bean"));
          Space space = engine.spaces().create(SpaceRequest.of("sim-bean", "from-a-bean", account.id())
              .region("sim-east-1"));
          Job job = engine.jobs().submit(space.id(), RegistrySpec.named("team/bean"), SubmitOptions.none());
          assertThat(engine.jobs().await(job.id(), Duration.ofSeconds(60)).status()).isEqualTo(JobStatus.SUCCEEDED);
        });
  }

  @Test
  void theSimulatedCloudIsChosenByAProperty() {
    runner().withPropertyValues("zop.simulated-cloud=true").run(context ->
        assertThat(context).hasSingleBean(SimProvider.class).hasBean("zopSimulatedCloud"));
    runner().run(context -> assertThat(context).doesNotHaveBean(SimProvider.class));
    // asked for without provider-sim: the context refuses to start, naming what is missing
    runner().withPropertyValues("zop.simulated-cloud=true").withClassLoader(new FilteredClassLoader(SimProvider.class))
        .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
            .hasMessageContaining("dev.zop:provider-sim"));
  }

  @Test
  void everyPropertyIsDescribedInTheMetadata() throws Exception {
    JsonNode metadata;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("the configuration processor wrote the metadata").isNotNull();
      metadata = new ObjectMapper().readTree(in);
    }
    List<String> names = new ArrayList<>();
    metadata.get("properties").forEach(p -> {
      names.add(p.get("name").asText());
      assertThat(p.path("description").asText()).as(p.get("name").asText()).isNotBlank();
    });
    assertThat(names).contains("zop.enabled", "zop.use-application-data-source", "zop.jdbc-url", "zop.schema",
        "zop.data-directory", "zop.worker-threads", "zop.lease-duration", "zop.poll-interval", "zop.run-workers", "zop.simulated-cloud",
        "zop.drift-schedule-interval");
  }

  @Test
  void guardrailsFromPropertiesAndBeansAreMadeAtStartAndBroughtUpToDateAfter() {
    String[] declared = {"zop.guardrails.node-cap.level=deny", "zop.guardrails.node-cap.rule.type=max_count",
        "zop.guardrails.node-cap.rule.max=3", "zop.guardrails.owners.level=advisory",
        "zop.guardrails.owners.rule.type=required_tags", "zop.guardrails.owners.rule.tags.owner=team-[a-z]+",
        "zop.guardrails.owners.scope.kinds=kubernetes,datastore"};
    dev.zop.provisioner.GuardrailRequest budget = dev.zop.provisioner.GuardrailRequest.of("budget",
        dev.zop.provisioner.GuardrailLevel.APPROVAL,
        new dev.zop.provisioner.GuardrailRule.SpaceBudget(new java.math.BigDecimal("5000")));
    runner().withPropertyValues(declared).withBean(dev.zop.provisioner.GuardrailRequest.class, () -> budget)
        .run(context -> {
          assertThat(context).hasNotFailed();
          var made = context.getBean(EmbeddedProvisioner.class).guardrails().list();
          assertThat(made).extracting(g -> g.name() + " v" + g.version() + " " + g.level().wireName())
              .containsExactly("budget v1 approval", "node-cap v1 deny", "owners v1 advisory");
          assertThat(made.get(2).rule()).isEqualTo(new dev.zop.provisioner.GuardrailRule.RequiredTags(
              java.util.Map.of("owner", "team-[a-z]+")));
          assertThat(made.get(2).scope().kinds()).containsExactly(dev.zop.provisioner.JobKind.KUBERNETES,
              dev.zop.provisioner.JobKind.DATASTORE);
        });
    // the same declarations again change nothing; a changed one makes its next version
    runner().withPropertyValues(declared).withPropertyValues("zop.guardrails.node-cap.rule.max=4").run(context -> {
      var now = context.getBean(EmbeddedProvisioner.class).guardrails().list();
      assertThat(now).extracting(g -> g.name() + " v" + g.version())
          .containsExactly("budget v1", "node-cap v2", "owners v1");
      assertThat(now.get(1).rule()).isEqualTo(new dev.zop.provisioner.GuardrailRule.MaxCount(4));
    });
    // one the engine refuses stops the start, naming the property
    runner().withPropertyValues("zop.guardrails.bad.level=deny", "zop.guardrails.bad.rule.type=cel",
        "zop.guardrails.bad.rule.expression=plan.nope").run(context -> assertThat(context).hasFailed()
            .getFailure().rootCause().hasMessageContaining("rule.expression"));
    runner().withPropertyValues("zop.guardrails.bad.level=deny", "zop.guardrails.bad.rule.type=cel",
        "zop.guardrails.bad.rule.expression=plan.nope").run(context -> assertThat(context.getStartupFailure())
            .hasStackTraceContaining("zop.guardrails.bad: "));
  }
}

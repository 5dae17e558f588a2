package dev.zop.provisioner.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spi.CloudProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A real Spring Boot application on an empty PostgreSQL database: its DataSource and its own Flyway migration
 * ({@code V1__orders}) next to the engine's, each in its own history table; an {@link ApplicationRunner} of its own
 * that injects the {@link Provisioner} (and so asks for the engine before Boot's Flyway would otherwise run); a
 * provider given as a bean; a job run through the engine bean.
 */
class SpringApplicationOnPostgresTest {
  /** A provider id no ServiceLoader registers: a job of it runs only if the bean reached the engine. */
  static final String BEAN_PROVIDER = "sim-bean";

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Application {
    @Bean
    CloudProvider simulatedCloudAsABean() {
      return new SimProvider(SimCloud.create(), BEAN_PROVIDER);
    }

    /** Registered before any auto-configured bean, so it is made first and pulls the engine with it. */
    @Bean
    ApplicationRunner orders(Provisioner zop, DataSource dataSource) {
      return args -> {
        try (Connection c = dataSource.getConnection()) {
          c.createStatement().executeUpdate(
              "INSERT INTO orders (id, item) SELECT COALESCE(MAX(id), 0) + 1, 'runner' FROM orders");
        }
        zop.accounts().list(); // the engine answers once the application has started
      };
    }
  }

  @TempDir
  Path data;

  @Test
  void theApplicationsFlywayAndTheEngineShareOneDatabase() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      for (int start = 0; start < 2; start++) { // a second start finds both histories and migrates nothing
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(Application.class)
            .web(WebApplicationType.NONE)
            .properties("spring.datasource.url=" + db.url(), "spring.datasource.username=" + db.user(),
                "spring.datasource.password=" + db.password(), "zop.data-directory=" + data,
                "zop.poll-interval=50ms")
            .run()) {
          Provisioner zop = app.getBean(Provisioner.class);
          CloudAccount account = zop.accounts().create(CloudAccountRequest.of(BEAN_PROVIDER, "spring-" + start));
          Space space = zop.spaces().create(SpaceRequest.of(BEAN_PROVIDER, "spring-" + start, account.id())
              .region("sim-east-1"));
          Job job = zop.jobs().submit(space.id(), RegistrySpec.named("team/app-" + start), SubmitOptions.none());
          assertThat(zop.jobs().await(job.id(), Duration.ofSeconds(60)).status()).isEqualTo(JobStatus.SUCCEEDED);

          try (Connection c = app.getBean(DataSource.class).getConnection()) {
            assertThat(column(c, "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank"))
                .containsExactly("1");
            assertThat(column(c, "SELECT count(*) FROM orders")).containsExactly(Integer.toString(start + 1));
            assertThat(column(c, "SELECT count(*) FROM zop_engine_history WHERE success")).isNotEmpty()
                .allSatisfy(n -> assertThat(Integer.parseInt(n)).isGreaterThan(1));
            assertThat(column(c, "SELECT count(*) FROM provisioning_jobs")).containsExactly(
                Integer.toString(start + 1));
          }
        }
      }
    }
  }

  private static List<String> column(Connection c, String sql) throws Exception {
    List<String> values = new ArrayList<>();
    try (ResultSet rs = c.createStatement().executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }
}

package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application started as its users start it, twice, on a PostgreSQL database that is empty the first time:
 * Boot's managed Flyway migrates the application's schema first, the engine migrates its own beside it, and the
 * runner that injects the engine takes an order each start.
 */
class OrdersApplicationTest {
  /** The same settings as the project's own PostgreSQL tests. */
  private static final String ADMIN_URL = env("ZOP_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  private static final String USER = env("ZOP_TEST_PG_USER", "postgres");
  private static final String PASSWORD = env("ZOP_TEST_PG_PASSWORD", "");

  private final String database = "orders_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  private final String url = ADMIN_URL.replaceFirst("/[^/?]*(\\?.*)?$", "/" + database);

  @BeforeEach
  void emptyDatabase() throws Exception {
    try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
  }

  @AfterEach
  void dropDatabase() throws Exception {
    try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  @Test
  void startsTwiceOnItsOwnDatabaseWithBootsManagedFlyway() throws Exception {
    // Boot's dependency management chose Flyway, not the starter's build
    Properties pom = new Properties();
    try (InputStream in = Flyway.class.getResourceAsStream("/META-INF/maven/org.flywaydb/flyway-core/pom.properties")) {
      pom.load(in);
    }
    String flyway = pom.getProperty("version");
    assertThat(flyway).as("Flyway on this class path").isNotNull().doesNotStartWith("13.");
    System.out.println("Flyway " + flyway + " (Boot's managed version)");
    for (int start = 1; start <= 2; start++) {
      try (ConfigurableApplicationContext app = SpringApplication.run(OrdersApplication.class,
          "--spring.datasource.url=" + url, "--spring.datasource.username=" + USER,
          "--spring.datasource.password=" + PASSWORD, "--zop.data-directory=target/zop-data")) {
        try (Connection c = DriverManager.getConnection(url, USER, PASSWORD)) {
          assertThat(count(c, "SELECT count(*) FROM flyway_schema_history WHERE success")).isEqualTo(1);
          assertThat(count(c, "SELECT count(*) FROM zop_engine_history WHERE success")).isGreaterThan(1);
          assertThat(count(c, "SELECT count(*) FROM orders WHERE registry_job IS NOT NULL")).isEqualTo(start);
          assertThat(count(c, "SELECT count(*) FROM provisioning_jobs WHERE status = 'succeeded'"))
              .isEqualTo(start);
        }
      }
    }
  }

  private static long count(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}

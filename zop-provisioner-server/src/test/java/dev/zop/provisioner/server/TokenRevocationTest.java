package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Policies;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Checked tokens are remembered for a moment ({@link AccessStore#TOKEN_RECHECK}) so that requests do not each cost
 * a round trip; a revoked token must still stop working within one second on every instance of the service.
 */
class TokenRevocationTest {

  @Test
  void aTokenRevokedThroughAnotherInstanceStopsWorkingWithinOneSecond() {
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        HikariDataSource first = pool(db);
        HikariDataSource second = pool(db)) {
      AccessStore serving = AccessStore.open(first);
      AccessStore other = AccessStore.open(second);
      AccessStore.IssuedToken token = other.createToken("acme", "a@example.com", Set.of(Policies.ADMIN), null);
      assertThat(serving.authenticate(token.token())).isNotNull();
      assertThat(serving.authenticate(token.token())).as("remembered").isNotNull();

      other.revoke(token.id());
      long revokedAt = System.nanoTime();
      Awaitility.await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
          .until(() -> serving.authenticate(token.token()) == null);
      assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThanOrEqualTo(Duration.ofSeconds(1));
      assertThat(serving.authenticate(token.token())).as("and stays refused").isNull();
    }
  }

  @Test
  void aTokenRevokedThroughTheSameInstanceStopsWorkingAtOnce() {
    try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource pool = pool(db)) {
      AccessStore store = AccessStore.open(pool);
      AccessStore.IssuedToken token = store.createToken("acme", "a@example.com", Set.of(Policies.VIEWER), null);
      assertThat(store.authenticate(token.token())).isNotNull();
      store.revoke(token.id());
      assertThat(store.authenticate(token.token())).isNull();
    }
  }

  @Test
  void anExpiredTokenIsRefusedEvenWhileRemembered() {
    try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource pool = pool(db)) {
      AccessStore store = AccessStore.open(pool);
      AccessStore.IssuedToken token = store.createToken("acme", "a@example.com", Set.of(Policies.VIEWER),
          Duration.ofMillis(300));
      assertThat(store.authenticate(token.token())).isNotNull();
      Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20))
          .until(() -> store.authenticate(token.token()) == null);
      assertThat(token.expiresAt()).isBeforeOrEqualTo(java.time.Instant.now());
    }
  }

  private static HikariDataSource pool(PostgresTestDatabase db) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(2);
    return new HikariDataSource(config);
  }
}

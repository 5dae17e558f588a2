package dev.zop.provisioner.core.internal.spaces;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A space is read with its account in one query, and only for the organisation that owns it. */
class SpaceRepositoryTest {
  private final SpaceRepository spaces = new SpaceRepository();
  private final AccountRepository accounts = new AccountRepository();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  private Database db;
  private CloudAccount account;
  private Space space;

  @BeforeEach
  void store() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:spaces-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    db = Database.open(h2);
    account = new CloudAccount(CloudAccountId.random(), "sim", "main", "env:SIM_KEY", Map.of("tier", "gold"), now);
    space = new Space(SpaceId.random(), "prod", "sim", "cloud", account.id(), SpaceStatus.ACTIVE,
        Map.of("region", "sim-east-1"), now, now);
    db.tx(c -> {
      accounts.insert(c, "acme", account);
      spaces.insert(c, "acme", space, null);
      return null;
    });
  }

  @Test
  void theOwnersSpaceComesWithItsAccount() {
    SpaceRepository.WithAccount found = db.read(c -> spaces.findWithAccount(c, "acme", space.id()));
    assertThat(found.space()).isEqualTo(db.read(c -> spaces.find(c, "acme", space.id())));
    assertThat(found.account()).isEqualTo(db.read(c -> accounts.find(c, "acme", account.id())));
    assertThat(found.account().properties()).containsEntry("tier", "gold");
  }

  @Test
  void anotherOrganisationFindsNothing() {
    SpaceRepository.WithAccount otherOrganisation = db.read(c -> spaces.findWithAccount(c, "globex", space.id()));
    SpaceRepository.WithAccount noSuchSpace = db.read(c -> spaces.findWithAccount(c, "acme", SpaceId.random()));
    assertThat(otherOrganisation).isNull();
    assertThat(noSuchSpace).isNull();
  }
}

package dev.zop.provisioner.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.migration.Context;
import org.junit.jupiter.api.Test;

/**
 * What {@code V13__Wide_job_columns_compressed_with_lz4} does where the server has no lz4, which this machine's
 * PostgreSQL (built with it) cannot show: the testkit's {@code WideColumnsCompressionMigrationTest} runs it for real.
 * A PostgreSQL built without lz4 answers the {@code ALTER} with SQL state {@code 0A000}.
 */
class WideColumnsCompressionTest {
  private final List<String> calls = new ArrayList<>();

  @Test
  void aServerWithoutLz4KeepsItsDefaultAndTheMigrationGoesOn() throws Exception {
    new V13__Wide_job_columns_compressed_with_lz4().migrate(context("PostgreSQL", 15,
        new SQLException("compression method lz4 not supported", "0A000")));

    assertThat(calls).containsExactly("setSavepoint",
        "execute ALTER TABLE provisioning_jobs ALTER COLUMN steps SET COMPRESSION lz4, ALTER COLUMN held_events SET"
            + " COMPRESSION lz4, ALTER COLUMN outputs SET COMPRESSION lz4, ALTER COLUMN spec SET COMPRESSION lz4",
        "rollback");
  }

  @Test
  void anyOtherFailureFailsTheMigration() {
    assertThatThrownBy(() -> new V13__Wide_job_columns_compressed_with_lz4().migrate(context("PostgreSQL", 15,
        new SQLException("permission denied for table provisioning_jobs", "42501"))))
        .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
  }

  @Test
  void aServerWithLz4HasBothTablesAltered() throws Exception {
    new V13__Wide_job_columns_compressed_with_lz4().migrate(context("PostgreSQL", 14, null));

    assertThat(calls).hasSize(4).startsWith("setSavepoint").endsWith("releaseSavepoint");
    assertThat(calls.get(2)).isEqualTo("execute ALTER TABLE job_events ALTER COLUMN events SET COMPRESSION lz4");
  }

  @Test
  void olderPostgresAndOtherDatabasesAreLeftAsTheyAre() throws Exception {
    new V13__Wide_job_columns_compressed_with_lz4().migrate(context("PostgreSQL", 13, null));
    new V13__Wide_job_columns_compressed_with_lz4().migrate(context("H2", 2, null));

    assertThat(calls).isEmpty();
  }

  /** A connection to a server of {@code product} and major version that fails every statement with {@code fails}. */
  private Context context(String product, int major, SQLException fails) {
    DatabaseMetaData metaData = proxy(DatabaseMetaData.class, (method, args) -> switch (method) {
      case "getDatabaseProductName" -> product;
      case "getDatabaseMajorVersion" -> major;
      default -> throw new UnsupportedOperationException(method);
    });
    Statement statement = proxy(Statement.class, (method, args) -> {
      switch (method) {
        case "execute" -> {
          calls.add("execute " + args[0]);
          if (fails != null) {
            throw fails;
          }
          return false;
        }
        case "close" -> {
          return null;
        }
        default -> throw new UnsupportedOperationException(method);
      }
    });
    Savepoint savepoint = proxy(Savepoint.class, (method, args) -> {
      throw new UnsupportedOperationException(method);
    });
    Connection connection = proxy(Connection.class, (method, args) -> switch (method) {
      case "getMetaData" -> metaData;
      case "createStatement" -> statement;
      case "setSavepoint" -> {
        calls.add(method);
        yield savepoint;
      }
      case "rollback", "releaseSavepoint" -> {
        assertThat(args[0]).isSameAs(savepoint);
        calls.add(method);
        yield null;
      }
      default -> throw new UnsupportedOperationException(method);
    });
    return new Context() {
      @Override
      public Configuration getConfiguration() {
        throw new UnsupportedOperationException();
      }

      @Override
      public Connection getConnection() {
        return connection;
      }
    };
  }

  private interface Answer {
    Object answer(String method, Object[] args) throws Exception;
  }

  private static <T> T proxy(Class<T> type, Answer answer) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> answer.answer(method.getName(), args)));
  }
}

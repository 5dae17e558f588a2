package dev.zop.provisioner.server;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ValidationException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * The service's tokens, custom roles and audit log, kept in the engine's database under their own migration
 * history. A token is 32 random bytes; only its SHA-256 is stored (a token has too much entropy to be guessed, so a
 * slow hash would add nothing), and it is shown once, when it is made.
 *
 * <p>A token found valid is trusted for {@link #TOKEN_RECHECK} without asking the store again, so a request does
 * not cost a round trip for its token; a revocation, or a role redefined, through this store takes effect at
 * once, and one made through another instance's store within that time. Unknown tokens are never remembered.
 */
public final class AccessStore {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,63}");
  private static final String TOKEN_PREFIX = "zop_";

  /** How long a token found valid is trusted before the store is asked again. */
  public static final Duration TOKEN_RECHECK = Duration.ofMillis(500);

  private final DataSource dataSource;
  private final Cache<String, Checked> checked = Caffeine.newBuilder()
      .expireAfterWrite(TOKEN_RECHECK).maximumSize(10_000).build();

  /** A valid token's caller, and when the token itself expires (null: never). */
  private record Checked(Caller caller, Instant expires) {}

  private AccessStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Opens the store in {@code dataSource}, creating or upgrading its tables. */
  public static AccessStore open(DataSource dataSource) {
    Flyway.configure(AccessStore.class.getClassLoader())
        .dataSource(dataSource)
        .locations("classpath:db/server")
        .table("zop_server_history")
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate();
    return new AccessStore(dataSource);
  }

  /** A token as it is made: {@link #token()} is the only time the secret is available. */
  @NullMarked
  public record IssuedToken(String id, String token, Principal principal, @Nullable Instant expiresAt) {
    public IssuedToken {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(principal, "principal");
    }

    @Override
    public String toString() {
      return "IssuedToken[" + id + " for " + principal.actor() + "@" + principal.orgId() + ", token hidden]";
    }
  }

  /** Who a request comes from, and every policy its roles hold. */
  public record Caller(Principal principal, Set<String> policies) {
    public boolean may(String policy) {
      return policies.contains(policy);
    }
  }

  /**
   * A token as an admin sees it: who it names and what it holds, never the token itself (only its digest is kept).
   *
   * @param expiresAt null when it does not expire
   * @param revokedAt null while it is not revoked
   */
  @NullMarked
  public record TokenRecord(String id, String actor, List<String> roles, Instant createdAt,
      @Nullable Instant expiresAt, @Nullable Instant revokedAt) {
    public TokenRecord {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(actor, "actor");
      roles = List.copyOf(roles);
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /**
   * {@code POST /tokens}: a token for {@code actor} holding {@code roles}.
   *
   * @param expiresInDays null for a token that does not expire
   */
  public record TokenRequest(String actor, List<String> roles, Integer expiresInDays) {}

  /** One audit-log entry. */
  @NullMarked
  public record AuditRecord(long id, String orgId, String actor, String scope, String action, String method,
      String path, @Nullable String resourceId, int status, String requestId, Instant createdAt) {
    public AuditRecord {
      Objects.requireNonNull(orgId, "orgId");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /**
   * Makes a token for {@code actor} in {@code orgId} holding {@code roles}; each role must be a system role or a
   * custom role of that organisation. {@code ttl} null means it does not expire.
   */
  public IssuedToken createToken(String orgId, String actor, Set<String> roles, Duration ttl) {
    List<FieldError> errors = new ArrayList<>();
    if (orgId == null || !NAME.matcher(orgId).matches()) {
      errors.add(FieldError.of("org", "invalid", "org must match " + NAME.pattern()));
    }
    if (actor == null || actor.isBlank() || actor.length() > 200) {
      errors.add(FieldError.of("actor", "invalid", "actor must be 1..200 characters"));
    }
    if (roles == null || roles.isEmpty()) {
      errors.add(FieldError.required("roles"));
    }
    ValidationException.throwIfAny(errors);
    for (String role : roles) {
      if (!Policies.isSystemRole(role) && customRole(orgId, role) == null) {
        throw ValidationException.of("roles", "unknown_role",
            "role " + role + " is neither a system role (admin, operator, viewer) nor a custom role of " + orgId);
      }
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    String id = "tok_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    Instant now = Instant.now();
    Instant expires = ttl == null ? null : now.plus(ttl);
    update("INSERT INTO api_tokens (id, org_id, actor, roles, token_hash, created_at, expires_at) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?)", ps -> {
          ps.setString(1, id);
          ps.setString(2, orgId);
          ps.setString(3, actor);
          ps.setString(4, String.join(",", new TreeSet<>(roles)));
          ps.setString(5, hash(token));
          ps.setObject(6, time(now));
          ps.setObject(7, expires == null ? null : time(expires));
        });
    return new IssuedToken(id, token, new Principal(orgId, actor, roles), expires);
  }

  /** Defines or redefines a custom role of {@code orgId} with exactly {@code policies}. */
  public void defineRole(String orgId, String name, Set<String> policies) {
    if (name == null || !NAME.matcher(name).matches() || Policies.isSystemRole(name)) {
      throw ValidationException.of("name", "invalid", "a custom role name matches " + NAME.pattern()
          + " and is not admin, operator or viewer");
    }
    for (String policy : policies) {
      if (!Policies.isGrantable(policy)) {
        throw ValidationException.of("policies", "unknown_policy", "unknown policy " + policy);
      }
    }
    String joined = String.join(",", new TreeSet<>(policies));
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement delete = c.prepareStatement("DELETE FROM custom_roles WHERE org_id = ? AND name = ?");
          PreparedStatement insert = c.prepareStatement(
              "INSERT INTO custom_roles (org_id, name, policies, created_at) VALUES (?, ?, ?, ?)")) {
        delete.setString(1, orgId);
        delete.setString(2, name);
        delete.executeUpdate();
        insert.setString(1, orgId);
        insert.setString(2, name);
        insert.setString(3, joined);
        insert.setObject(4, time(Instant.now()));
        insert.executeUpdate();
        c.commit();
        checked.invalidateAll(); // tokens holding the role get its new policies at their next request
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write custom role " + name, e);
    }
  }

  /** Throws when the store does not answer; the readiness probe. */
  public void ping() {
    try (Connection c = dataSource.getConnection()) {
      if (!c.isValid(2)) {
        throw new IllegalStateException("the store does not answer",
            new java.sql.SQLTransientConnectionException("no answer within 2 s"));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the store does not answer", e);
    }
  }

  /** The caller a bearer token names, or null when it is unknown, revoked or expired. */
  public Caller authenticate(String token) {
    if (token == null || !token.startsWith(TOKEN_PREFIX) || token.length() > 200) {
      return null;
    }
    String digest = hash(token);
    Checked known = checked.getIfPresent(digest);
    if (known != null) {
      return known.expires() != null && known.expires().isBefore(Instant.now()) ? null : known.caller();
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT org_id, actor, roles, expires_at FROM api_tokens "
            + "WHERE token_hash = ? AND revoked_at IS NULL")) {
      ps.setString(1, digest);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        OffsetDateTime expiresAt = rs.getObject(4, OffsetDateTime.class);
        Instant expires = expiresAt == null ? null : expiresAt.toInstant();
        if (expires != null && expires.isBefore(Instant.now())) {
          return null;
        }
        String orgId = rs.getString(1);
        Set<String> roles = new LinkedHashSet<>(Arrays.asList(rs.getString(3).split(",")));
        Set<String> policies = new LinkedHashSet<>();
        for (String role : roles) {
          Set<String> granted = Policies.isSystemRole(role) ? Policies.ofSystemRole(role)
              : customRole(c, orgId, role);
          if (granted != null) { // a custom role deleted since the token was made grants nothing
            policies.addAll(granted);
          }
        }
        // the engine checks policies itself (Policies.allows): a custom role reaches it as the grants it holds
        Set<String> engineRoles = new LinkedHashSet<>(roles);
        engineRoles.removeIf(role -> !Policies.isSystemRole(role) && !Policies.isGrantable(role));
        engineRoles.addAll(policies);
        Caller caller = new Caller(new Principal(orgId, rs.getString(2), engineRoles), Set.copyOf(policies));
        checked.put(digest, new Checked(caller, expires));
        return caller;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read tokens", e);
    }
  }

  /** The organisation's tokens, newest first, revoked ones included. */
  public List<TokenRecord> tokens(String orgId) {
    List<TokenRecord> out = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT id, actor, roles, created_at, expires_at, revoked_at "
            + "FROM api_tokens WHERE org_id = ? ORDER BY created_at DESC, id DESC")) {
      ps.setString(1, orgId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new TokenRecord(rs.getString(1), rs.getString(2), List.of(rs.getString(3).split(",")),
              instant(rs, 4), instant(rs, 5), instant(rs, 6)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read tokens", e);
    }
    return out;
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime at = rs.getObject(column, OffsetDateTime.class);
    return at == null ? null : at.toInstant();
  }

  /** Revokes one of the organisation's tokens; false when it has no token of that id or it was already revoked. */
  public boolean revoke(String orgId, String tokenId) {
    int changed;
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
        "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND org_id = ? AND revoked_at IS NULL")) {
      ps.setObject(1, time(Instant.now()));
      ps.setString(2, tokenId);
      ps.setString(3, orgId);
      changed = ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write to the service's tables", e);
    }
    checked.invalidateAll();
    return changed > 0;
  }

  public void revoke(String tokenId) {
    update("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", ps -> {
      ps.setObject(1, time(Instant.now()));
      ps.setString(2, tokenId);
    });
    checked.invalidateAll(); // only digests are kept, and a revocation is rare: forget them all
  }

  public void audit(String orgId, String actor, String action, String method, String path, String resourceId, int status,
      String requestId) {
    update("INSERT INTO audit_log (org_id, actor, scope, action, method, path, resource_id, status, request_id, "
        + "created_at) VALUES (?, ?, 'provisioning', ?, ?, ?, ?, ?, ?, ?)", ps -> {
          ps.setString(1, orgId);
          ps.setString(2, actor);
          ps.setString(3, action);
          ps.setString(4, method);
          ps.setString(5, path.length() > 1000 ? path.substring(0, 1000) : path);
          // a refused request may name an id longer than any real one; its entry is still written
          ps.setString(6, resourceId != null && resourceId.length() > 200 ? resourceId.substring(0, 200) : resourceId);
          ps.setInt(7, status);
          ps.setString(8, requestId);
          ps.setObject(9, time(Instant.now()));
        });
  }

  /** The organisation's newest audit entries first. */
  public List<AuditRecord> auditLog(String orgId, int limit) {
    List<AuditRecord> out = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT id, org_id, actor, scope, action, method, path, "
            + "resource_id, status, request_id, created_at FROM audit_log WHERE org_id = ? ORDER BY id DESC")) {
      ps.setString(1, orgId);
      ps.setMaxRows(limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new AuditRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
              rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getInt(9), rs.getString(10),
              rs.getObject(11, OffsetDateTime.class).toInstant()));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the audit log", e);
    }
    return out;
  }

  private Set<String> customRole(String orgId, String name) {
    try (Connection c = dataSource.getConnection()) {
      return customRole(c, orgId, name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read roles", e);
    }
  }

  private static Set<String> customRole(Connection c, String orgId, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT policies FROM custom_roles WHERE org_id = ? AND name = ?")) {
      ps.setString(1, orgId);
      ps.setString(2, name);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        String policies = rs.getString(1);
        return policies.isEmpty() ? Set.of() : Set.of(policies.split(","));
      }
    }
  }

  private interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  private void update(String sql, Binder binder) {
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write to the service's tables", e);
    }
  }

  private static OffsetDateTime time(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  static String hash(String token) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

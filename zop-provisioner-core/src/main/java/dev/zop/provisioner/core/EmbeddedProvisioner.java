package dev.zop.provisioner.core;

import dev.zop.provisioner.Catalog;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.CloudAccounts;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Jobs;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.Namespaces;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Secrets;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.Spaces;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.SpaceDiscovery;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.Remediations;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.ClusterComponents;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The engine, embedded in this JVM. {@code EmbeddedProvisioner.builder().build()} gives an H2 file store in the
 * user's data directory, every provider {@link java.util.ServiceLoader} finds, and a worker pool sized for the
 * machine. Point several instances at one PostgreSQL database and they share the work.
 */
public final class EmbeddedProvisioner implements Provisioner {
  private final EngineAssembly assembly;
  private final Principal principal;
  /** Only the instance the builder returned owns the engine; views made with {@link #as} do not. */
  private final boolean owner;

  EmbeddedProvisioner(EngineAssembly assembly, Principal principal, boolean owner) {
    this.assembly = assembly;
    this.principal = principal;
    this.owner = owner;
  }

  public static EmbeddedProvisionerBuilder builder() {
    return new EmbeddedProvisionerBuilder();
  }

  @Override
  public Spaces spaces() {
    return new SpaceView();
  }

  @Override
  public CloudAccounts accounts() {
    return new AccountView();
  }

  @Override
  public Jobs jobs() {
    return new EmbeddedJobs(assembly, principal);
  }

  @Override
  public dev.zop.provisioner.Guardrails guardrails() {
    return new EmbeddedGuardrails(assembly, principal);
  }

  @Override
  public Secrets secrets() {
    return ref -> {
      // a revealed secret is a credential: as much as creating a connection, which hands one out
      require(Operation.SECRETS_REVEAL);
      return assembly.secrets.reveal(principal, ref);
    };
  }

  @Override
  public Remediations remediations() {
    return new RemediationView();
  }

  @Override
  public Catalog catalog() {
    return () -> {
      require(Operation.CATALOG_LIST);
      ClusterComponents components = assembly.providers.components();
      if (components == null) {
        throw new ConflictException("no_component_installer",
            "no component installer is installed (add provider-helm to the classpath)");
      }
      return components.catalog();
    };
  }

  @Override
  public Provisioner as(Principal other) {
    return new EmbeddedProvisioner(assembly, Objects.requireNonNull(other, "principal"), false);
  }

  @Override
  public Principal principal() {
    return principal;
  }

  /**
   * Stops claiming work, lets running steps finish, gives unfinished jobs back and closes the store. On a view
   * made with {@link #as} it does nothing: the engine belongs to the instance the builder returned.
   */
  @Override
  public void close() {
    if (owner) {
      assembly.close();
    }
  }

  /**
   * Runs one pass of the spaces' drift schedules now, as the engine's own timer does every
   * {@link EmbeddedProvisionerBuilder#driftScheduleInterval}: each succeeded job in a space with
   * {@code config.driftCheckMinutes} whose check is due is claimed and checked. For a host that runs no workers and
   * schedules the checks itself. Returns how many jobs were checked.
   */
  public int runDriftSchedule() {
    return assembly.drift.scheduledPass();
  }

  /**
   * The engine's store, for a host that keeps its own tables beside the engine's (the REST service keeps its
   * tokens and audit log there). The engine's tables are its own: read them through this interface, not SQL.
   */
  public DataSource dataSource() {
    return assembly.store;
  }

  /**
   * Stops this engine the way a crashed process stops: running steps are abandoned mid-way, no lease is
   * released and nothing more is written. Another engine takes the jobs over when the leases expire. Not API:
   * crash tests reach it through the testkit ({@code EngineCrashes}); a host shuts down with {@link #close()}.
   */
  void halt() {
    assembly.halt();
  }

  /**
   * The check the REST service makes too ({@link Policies#require}): views made with {@link #as} act only within
   * the principal's policies; the default principal is the local administrator.
   */
  private void require(Operation operation) {
    Policies.require(principal, operation);
  }

  private final class SpaceView implements Spaces {
    @Override
    public Space create(SpaceRequest request) {
      require(Operation.SPACES_CREATE);
      return assembly.spaces.create(principal, request);
    }

    @Override
    public Space get(SpaceId id) {
      require(Operation.SPACES_GET);
      return assembly.spaces.get(principal, id);
    }

    @Override
    public List<Space> list() {
      require(Operation.SPACES_LIST);
      return assembly.spaces.list(principal);
    }

    @Override
    public Space setStatus(SpaceId id, SpaceStatus status) {
      require(Operation.SPACES_SET_STATUS);
      return assembly.spaces.setStatus(principal, id, status);
    }

    @Override
    public Kubeconfig kubeconfig(SpaceId id) {
      require(Operation.SPACES_KUBECONFIG);
      return assembly.spaces.kubeconfig(principal, id);
    }

    @Override
    public Namespaces namespaces(SpaceId id) {
      Namespaces namespaces = assembly.spaces.namespaces(principal, id);
      return new Namespaces() {
        @Override
        public List<Namespace> list() {
          require(Operation.NAMESPACES_LIST);
          return namespaces.list();
        }

        @Override
        public Namespace create(String name) {
          require(Operation.NAMESPACES_CREATE);
          return namespaces.create(name);
        }
      };
    }

    @Override
    public SpaceDiscovery discovery(SpaceId id) {
      require(Operation.SPACES_DISCOVER);
      return assembly.spaces.discovery(principal, id);
    }

    @Override
    public dev.zop.provisioner.discovery.Offerings offerings(SpaceId id) {
      require(Operation.SPACES_DISCOVER);
      return assembly.spaces.offerings(principal, id);
    }

    @Override
    public dev.zop.provisioner.SpaceCost cost(SpaceId id) {
      require(Operation.SPACES_GET);
      return assembly.spaceCosts.of(principal, id);
    }

    @Override
    public List<dev.zop.provisioner.SpaceCost> costs() {
      require(Operation.SPACES_LIST);
      return assembly.spaceCosts.of(principal, list());
    }

    @Override
    public void delete(SpaceId id) {
      require(Operation.SPACES_DELETE);
      assembly.spaces.delete(principal, id);
    }
  }

  private final class AccountView implements CloudAccounts {
    @Override
    public List<dev.zop.provisioner.ProviderInfo> providers() {
      require(Operation.PROVIDERS_LIST);
      return assembly.providers.metadata().stream()
          .map(m -> new dev.zop.provisioner.ProviderInfo(m.id(), m.displayName(),
              m.kinds().stream().map(dev.zop.provisioner.JobKind::wireName).sorted().toList(), m.regions(),
              m.requiredSpaceConfig().stream().sorted().toList()))
          .sorted(java.util.Comparator.comparing(dev.zop.provisioner.ProviderInfo::id))
          .toList();
    }

    @Override
    public CloudAccount create(CloudAccountRequest request) {
      require(Operation.ACCOUNTS_CREATE);
      return assembly.accounts.create(principal, request);
    }

    @Override
    public CloudAccount get(CloudAccountId id) {
      require(Operation.ACCOUNTS_GET);
      return assembly.accounts.get(principal, id);
    }

    @Override
    public List<CloudAccount> list() {
      require(Operation.ACCOUNTS_LIST);
      return assembly.accounts.list(principal);
    }

    @Override
    public List<DiscoveredCluster> clusters(CloudAccountId id, String region) {
      require(Operation.ACCOUNTS_LIST_CLUSTERS);
      return assembly.accounts.clusters(principal, id, region);
    }

    @Override
    public ClusterAccessGrant registerClusterAccess(CloudAccountId id, String region, String clusterName) {
      require(Operation.ACCOUNTS_REGISTER_CLUSTER_ACCESS);
      return assembly.accounts.registerClusterAccess(principal, id, region, clusterName);
    }

    @Override
    public void revokeClusterAccess(CloudAccountId id, String region, String clusterName) {
      require(Operation.ACCOUNTS_REVOKE_CLUSTER_ACCESS);
      assembly.accounts.revokeClusterAccess(principal, id, region, clusterName);
    }
  }

  private final class RemediationView implements Remediations {
    @Override
    public RemediationJob start(String recommendationId, SubjectType subjectType, String subjectId) {
      require(Operation.REMEDIATIONS_START);
      return assembly.remediations.start(principal, recommendationId, subjectType, subjectId);
    }

    @Override
    public RemediationJob get(JobId id) {
      require(Operation.REMEDIATIONS_GET);
      return assembly.remediations.get(principal, id);
    }

    @Override
    public Page<RemediationJob> list(int limit, String cursor, dev.zop.provisioner.ListOrder order) {
      require(Operation.REMEDIATIONS_LIST);
      return assembly.remediations.list(principal, limit, cursor, order);
    }

    @Override
    public RemediationJob approve(JobId id, StepRef step, String reason) {
      require(Operation.REMEDIATIONS_APPROVE);
      return assembly.remediations.approve(principal, id, step, reason);
    }

    @Override
    public RemediationJob reject(JobId id, StepRef step, String reason) {
      require(Operation.REMEDIATIONS_REJECT);
      return assembly.remediations.reject(principal, id, step, reason);
    }

    @Override
    public RemediationJob cancel(JobId id, String reason) {
      require(Operation.REMEDIATIONS_CANCEL);
      return assembly.remediations.cancel(principal, id, reason);
    }

    @Override
    public RemediationJob await(JobId id, Duration timeout) {
      require(Operation.REMEDIATIONS_AWAIT);
      return assembly.remediations.await(principal, id, timeout);
    }

    @Override
    public List<AuditEntry> audit(JobId id) {
      require(Operation.REMEDIATIONS_AUDIT);
      return assembly.remediations.audit(principal, id);
    }

    @Override
    public void putRecommendation(Recommendation recommendation) {
      require(Operation.RECOMMENDATIONS_PUT);
      assembly.remediations.putRecommendation(principal, recommendation);
    }

    @Override
    public List<Recommendation> recommendations() {
      require(Operation.RECOMMENDATIONS_LIST);
      return assembly.remediations.recommendations(principal);
    }

    @Override
    public List<WorkflowTemplate> templates() {
      require(Operation.TEMPLATES_LIST);
      return assembly.remediations.templates();
    }
  }
}

package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.core.internal.accounts.ClusterAccessRepository;
import dev.zop.provisioner.core.internal.lifecycle.CompletedJob;
import dev.zop.provisioner.core.internal.lifecycle.JobCompletionListener;
import dev.zop.provisioner.core.internal.lifecycle.TeardownGuard;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spi.SharedOutputs;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Kubernetes cluster a job brought up becomes a space of its own, in the same account and region, and the
 * account may mint kubeconfigs for it; tearing the cluster down removes both.
 */
public final class ClusterSpaces implements JobCompletionListener, TeardownGuard {
  private final Database db;
  private final SpaceRepository spaces;
  private final ClusterAccessRepository clusterAccess;
  private final ProviderRegistry providers;

  public ClusterSpaces(Database db, SpaceRepository spaces, ClusterAccessRepository clusterAccess,
      ProviderRegistry providers) {
    this.db = db;
    this.spaces = spaces;
    this.clusterAccess = clusterAccess;
    this.providers = providers;
  }

  /** A cluster is not torn down from under the jobs in the space it became. */
  @Override
  public ConflictException check(JobId job) {
    return db.read(c -> {
      SpaceId space = spaces.findCreatedBy(c, job.value());
      return space != null && spaces.holdsJobs(c, space) ? new ConflictException("space_has_jobs", "cluster job "
          + job + " became space " + space + ", which still holds jobs; delete (tear down) them first") : null;
    });
  }

  @Override
  public Map<String, String> completed(Connection c, CompletedJob job) throws SQLException {
    if (job.kind() != JobKind.KUBERNETES) {
      return Map.of();
    }
    if (job.status() == JobStatus.DELETED) {
      spaces.deleteCreatedBy(c, job.id().value());
      clusterAccess.deleteRegisteredBy(c, job.id().value());
      return Map.of();
    }
    return Map.of("spaceId", register(c, job).value());
  }

  private SpaceId register(Connection c, CompletedJob job) throws SQLException {
    SpaceId existing = spaces.findCreatedBy(c, job.id().value());
    if (existing != null) {
      return existing;
    }
    String cluster = job.outputs().getOrDefault(SharedOutputs.CLUSTER_NAME.name(), job.specName());
    String name = job.region() == null ? cluster : cluster + "-" + job.region();
    if (spaces.findByName(c, job.orgId(), name) != null) {
      name = name + "-" + job.id().value().substring(job.id().value().length() - 6);
    }
    Map<String, String> config = new LinkedHashMap<>();
    config.put("clusterName", cluster);
    if (job.region() != null) {
      config.put("region", job.region());
    }
    // the cluster lives where its job's space put it (a GCP project, an Azure resource group): so does its space
    Space parent = job.spaceId() == null ? null : spaces.find(c, job.orgId(), job.spaceId());
    if (parent != null) {
      config.putAll(providers.scopeOf(parent));
    }
    Instant now = Timestamps.now();
    Space space = new Space(SpaceId.random(), name, job.provider(), "kubernetes", job.accountId(),
        SpaceStatus.ACTIVE, config, now, now);
    spaces.insert(c, job.orgId(), space, job.id().value());
    // the account that made the cluster may mint kubeconfigs for it, as if registered by hand
    clusterAccess.insertIfAbsent(c, job.orgId(), job.accountId(), job.region() == null ? "" : job.region(),
        cluster, job.createdBy(), job.id().value(), now);
    return space.id();
  }
}

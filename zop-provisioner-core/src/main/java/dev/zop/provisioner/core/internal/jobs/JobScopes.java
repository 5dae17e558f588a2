package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The provider scope a job's steps run in: its space's values for the provider's scope keys (a GCP project, an
 * Azure resource group). A space's config does not change once it is made, so each space is read once.
 */
final class JobScopes {
  private final Database db;
  private final SpaceRepository spaces;
  private final ProviderRegistry providers;
  private final Map<SpaceId, Map<String, String>> bySpace = new ConcurrentHashMap<>();

  JobScopes(Database db, SpaceRepository spaces, ProviderRegistry providers) {
    this.db = db;
    this.spaces = spaces;
    this.providers = providers;
  }

  Map<String, String> of(JobRecord job) {
    if (job.spaceId() == null) {
      return Map.of();
    }
    return bySpace.computeIfAbsent(job.spaceId(), id -> {
      Space space = db.read(c -> spaces.find(c, job.orgId(), id));
      return space == null ? Map.of() : providers.scopeOf(space);
    });
  }
}

package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceCost;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.ProviderSession;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** What spaces cost a month: each succeeded job priced by its driver as its plan was; no cloud is called. */
public final class SpaceCosts {
  private final Database db;
  private final SpaceRepository spaces;
  private final ProviderRegistry providers;
  private final ClusterTargets targets;
  private final JobService jobs;

  public SpaceCosts(Database db, SpaceRepository spaces, ProviderRegistry providers, ClusterTargets targets,
      JobService jobs) {
    this.db = db;
    this.spaces = spaces;
    this.providers = providers;
    this.targets = targets;
    this.jobs = jobs;
  }

  /** The space's cost; refused when its provider is not loaded here, whose prices are not here to read. */
  public SpaceCost of(Principal principal, SpaceId spaceId) {
    SpaceRepository.WithAccount found = db.read(c -> spaces.findWithAccount(c, principal.orgId(), spaceId));
    if (found == null) {
      throw new NotFoundException("space", spaceId.value());
    }
    if (providers.find(found.space().provider()) == null) {
      throw new ConflictException("provider_unavailable", "provider " + found.space().provider()
          + " is not loaded in this engine");
    }
    return priced(principal, found);
  }

  /** Each of {@code among} that holds a succeeded job, but those whose provider is not loaded here. */
  public List<SpaceCost> of(Principal principal, List<Space> among) {
    List<SpaceCost> all = new ArrayList<>();
    for (Space space : among) {
      if (providers.find(space.provider()) == null) {
        continue;
      }
      SpaceRepository.WithAccount found = db.read(c -> spaces.findWithAccount(c, principal.orgId(), space.id()));
      SpaceCost cost = found == null ? null : priced(principal, found);
      if (cost != null && !cost.jobs().isEmpty()) {
        all.add(cost);
      }
    }
    return List.copyOf(all);
  }

  private SpaceCost priced(Principal principal, SpaceRepository.WithAccount found) {
    Space space = found.space();
    ProviderSession session = providers.session(found.account(), space);
    List<SpaceCost.JobCost> lines = new ArrayList<>();
    BigDecimal total = BigDecimal.ZERO;
    boolean complete = true;
    JobQuery query = JobQuery.inSpace(space.id()).withStatus(JobStatus.SUCCEEDED).limit(JobQuery.MAX_LIMIT);
    for (Page<Job> page = jobs.list(principal, query); ; page = jobs.list(principal, query.after(page.nextCursor()))) {
      for (Job job : page.items()) {
        // a component runs in a cluster the space's other jobs already pay for: it has no cloud price of its own
        if (job.spec() == null || job.kind() == JobKind.COMPONENT || !providers.supports(space.provider(), job.kind())) {
          continue;
        }
        List<CostComponent> costs = providers.driver(session, job.kind(),
            () -> targets.of(principal.orgId(), space.id())).price(job.spec(), space.region());
        BigDecimal monthly = costs.stream().filter(CostComponent::priceKnown).map(CostComponent::monthly)
            .reduce(BigDecimal.ZERO, BigDecimal::add);
        boolean known = costs.stream().allMatch(CostComponent::priceKnown);
        lines.add(new SpaceCost.JobCost(job.id(), job.name(), job.kind(), monthly, known));
        total = total.add(monthly);
        complete &= known;
      }
      if (page.nextCursor() == null) {
        break;
      }
    }
    return new SpaceCost(space.id(), total, complete, lines);
  }
}

package dev.zop.provisioner.core.internal.jobs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a job would run, checked before it is planned, submitted, revised or imported: its space and account (a
 * usable space kept briefly for a burst of submits), the provider's defaults for the spec, the networks it names,
 * and the driver that would run it, which validates the spec.
 */
final class JobPlaces {
  private final Database db;
  private final SpaceRepository spaces;
  private final ProviderRegistry providers;
  private final ClusterTargets targets;

  JobPlaces(Database db, SpaceRepository spaces, ProviderRegistry providers, ClusterTargets targets) {
    this.db = db;
    this.spaces = spaces;
    this.providers = providers;
    this.targets = targets;
  }

  /**
   * Spaces a submit found usable (active, with their account), kept for a second so that a burst of submits to a
   * space reads it once rather than before every transaction. Only a space's status ever changes after it is
   * written (and it may be deleted), and a submit writes its job only while its space is still active
   * ({@link JobRepository#inserts} with {@code whileSpaceActive}): a job written with a kept space is the job a
   * fresh read would have written. A space found inactive or missing is not kept.
   */
  private final Cache<PlaceKey, Place> usablePlaces = Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1))
          .maximumSize(10_000).build();

  private record PlaceKey(String orgId, SpaceId spaceId) {}

  /** Forgets the usable space kept for {@code spaceId}: it changed before a job could be written. */
  void forget(String orgId, SpaceId spaceId) {
    usablePlaces.invalidate(new PlaceKey(orgId, spaceId));
  }

  /** Where a job would run, and the driver that would run it. */
  record Target(Space space, CloudAccount account, ResourceDriver<ResourceSpec> driver) {}

  /**
   * A space and its account, read once for a plan or a submit and used by every check of it (null when not found).
   * A read inside the submit's transaction would not hold them still either: nothing locks them.
   */
  record Place(Space space, CloudAccount account) {}

  Place place(Principal principal, SpaceId spaceId) {
    if (spaceId == null) {
      return new Place(null, null);
    }
    SpaceRepository.WithAccount found = db.read(c -> spaces.findWithAccount(c, principal.orgId(), spaceId));
    return found == null ? new Place(null, null) : new Place(found.space(), found.account());
  }

  /** A usable space kept from an earlier submit, or a fresh read (kept when it is usable). */
  Place keptPlace(Principal principal, SpaceId spaceId) {
    if (spaceId == null) {
      return place(principal, spaceId);
    }
    PlaceKey key = new PlaceKey(principal.orgId(), spaceId);
    Place kept = usablePlaces.getIfPresent(key);
    if (kept != null) {
      return kept;
    }
    Place read = place(principal, spaceId);
    if (read.space() != null && read.account() != null && read.space().status() == SpaceStatus.ACTIVE) {
      usablePlaces.put(key, read);
    }
    return read;
  }

  /** Resolves and checks everything a job needs before it can be planned or submitted. */
  Target target(Principal principal, Place place, SpaceId spaceId, ResourceSpec spec, boolean submitting,
      List<FieldError> networkErrors) {
    if (spec == null) {
      throw ValidationException.of("config", "required", "a spec is required");
    }
    Space space = place.space();
    if (space == null) {
      throw ValidationException.of("spaceID", "not_found", "space " + spaceId + " not found");
    }
    if (submitting && space.status() == SpaceStatus.INACTIVE) {
      throw new ConflictException("space_inactive", "space " + spaceId + " is inactive; activate it first");
    }
    CloudAccount account = place.account();
    if (providers.find(space.provider()) == null) {
      throw ValidationException.of("spaceID", "unsupported_provider",
          "provider '" + space.provider() + "' of space " + spaceId + " is not installed");
    }
    if (!providers.supports(space.provider(), spec.kind())) {
      throw ValidationException.of("kind", "unsupported_kind",
          space.provider() + " cannot provision " + spec.kind().wireName());
    }
    ProviderSession session = providers.session(account, space);
    ResourceDriver<ResourceSpec> driver = providers.driver(session, spec.kind(),
        () -> targets.of(principal.orgId(), spaceId));
    List<FieldError> errors = new ArrayList<>();
    spec.validate().forEach(e -> errors.add(e.under("config")));
    if (errors.isEmpty()) {
      driver.validate(spec).forEach(e -> errors.add(e.under("config")));
    }
    errors.addAll(networkErrors);
    ValidationException.throwIfAny(errors);
    return new Target(space, account, driver);
  }

  /**
   * The spec with the provider's defaults filled in, or the spec as it is when it is invalid or its space is not
   * usable ({@link #target} reports both).
   */
  Defaulted<ResourceSpec> withDefaults(Principal principal, Place place, ResourceSpec spec) {
    Space space = place.space();
    if (spec == null || space == null || !spec.validate().isEmpty() || providers.find(space.provider()) == null
        || !providers.supports(space.provider(), spec.kind())) {
      return Defaulted.as(spec);
    }
    ProviderSession session = providers.session(place.account(), space);
    ResourceDriver<ResourceSpec> driver = providers.driver(session, spec.kind(),
        () -> targets.of(principal.orgId(), space.id()));
    return ProviderCalls.classified(session, () -> driver.withDefaults(spec));
  }

  /**
   * The references to existing networks the caller wrote that the provider does not find, or none when the spec
   * names none, the provider cannot discover, or the space is not usable (which {@link #target} reports). What
   * the provider's defaults fill in is not checked here: a default may name a network the job itself makes.
   */
  List<FieldError> networkErrors(Place place, ResourceSpec spec) {
    NetworkReferences references = spec == null ? null : NetworkReferences.of(spec);
    Space space = place.space();
    if (references == null || references.isEmpty() || space == null || providers.find(space.provider()) == null) {
      return List.of();
    }
    ProviderSession session = providers.session(place.account(), space);
    Discovery discovery = session.discovery();
    if (discovery == null) {
      return List.of();
    }
    return ProviderCalls.classified(session, () -> references.check(discovery));
  }

  /** The driver of {@code kind} in {@code space}, through the space's account, as {@link #target} makes it. */
  ResourceDriver<ResourceSpec> driver(Principal principal, Space space, dev.zop.provisioner.JobKind kind) {
    Place place = place(principal, space.id());
    return providers.driver(providers.session(place.account(), space), kind,
        () -> targets.of(principal.orgId(), space.id()));
  }

  /**
   * Where the space's resources go: its region, or, when it names none, where its provider puts them (an Azure
   * resource group's location); empty when neither says.
   */
  String region(Principal principal, Space space) {
    if (space.region() != null && !space.region().isBlank()) {
      return space.region();
    }
    ProviderSession session = providers.session(place(principal, space.id()).account(), space);
    String location = ProviderCalls.classified(session, session::location);
    return location == null ? "" : location;
  }

  /** A revised config as a submit would take it: the provider's defaults filled in, validated, with its driver. */
  record Revised(ResourceSpec spec, List<PlanDefault> filled, ResourceDriver<ResourceSpec> driver,
      String region) {}

  /** Checks a revised config of {@code job} as a submit to its space checks a new one. */
  Revised revised(Principal principal, JobRecord job, ResourceSpec asked) {
    Place place = place(principal, job.spaceId());
    Defaulted<ResourceSpec> defaulted = withDefaults(principal, place, asked); // asks the cloud
    List<FieldError> networkErrors = networkErrors(place, asked);
    Target target = target(principal, place, job.spaceId(), defaulted.spec(), true, networkErrors);
    return new Revised(defaulted.spec(), defaulted.filled(), target.driver, target.space.region());
  }

  /** Where an import into a space would run: the space, its account, the session and the kind's driver. */
  record Importing(Space space, CloudAccount account, ProviderSession session, ResourceDriver<ResourceSpec> driver) {}

  /** Checks {@code spec} as a submit to the space checks it, and opens the space's session for an import. */
  Importing importing(Principal principal, SpaceId spaceId, ResourceSpec spec, boolean submitting) {
    Place place = place(principal, spaceId);
    Target target = target(principal, place, spaceId, spec, submitting, List.of());
    return new Importing(target.space, target.account, providers.session(target.account, target.space),
        target.driver);
  }
}

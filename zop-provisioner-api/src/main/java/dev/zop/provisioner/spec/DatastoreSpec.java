package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A managed datastore: PostgreSQL or MySQL (RDS, Cloud SQL, Azure Database) or Redis (ElastiCache, Memorystore,
 * Azure Cache). The name may be left out; the engine then derives one from the job.
 *
 * @param allocatedStorageGb storage for SQL engines, 20..65536 GB; ignored for Redis
 * @param backupRetentionDays 0..35 days of automated backups (SQL engines) or of daily snapshots (Redis)
 */
public record DatastoreSpec(
    String name,
    DatastoreEngine engine,
    String version,
    String instanceClass,
    @JsonProperty("allocatedStorageGB") Integer allocatedStorageGb,
    @JsonProperty("multiAZ") Boolean multiAz,
    Integer backupRetentionDays,
    @JsonProperty("vpcID") String vpcId,
    @JsonProperty("subnetIDs") List<String> subnetIds) implements ResourceSpec {

  private static final Pattern VERSION = Pattern.compile("\\d+(\\.\\d+){0,2}");

  public DatastoreSpec {
    multiAz = Boolean.TRUE.equals(multiAz);
    subnetIds = subnetIds == null ? List.of() : List.copyOf(subnetIds);
  }

  public static Builder postgres() {
    return new Builder().engine(DatastoreEngine.POSTGRES);
  }

  public static Builder mysql() {
    return new Builder().engine(DatastoreEngine.MYSQL);
  }

  public static Builder redis() {
    return new Builder().engine(DatastoreEngine.REDIS);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().name(name).engine(engine).version(version).instanceClass(instanceClass)
        .allocatedStorageGb(allocatedStorageGb).multiAz(multiAz).backupRetentionDays(backupRetentionDays)
        .vpcId(vpcId).subnetIds(subnetIds);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.DATASTORE;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, false);
    c.required("engine", engine);
    if (c.required("version", version)) {
      c.matches("version", version, VERSION, "a version such as 16.3 or 7.1");
    }
    c.required("instanceClass", instanceClass);
    if (engine != null && engine.isSql()) {
      if (c.required("allocatedStorageGB", allocatedStorageGb)) {
        c.range("allocatedStorageGB", allocatedStorageGb, 20, 65536);
      }
    } else if (engine == DatastoreEngine.REDIS && allocatedStorageGb != null) {
      c.add("allocatedStorageGB", "not_applicable", "Redis sizes by instanceClass, not by storage");
    }
    c.range("backupRetentionDays", backupRetentionDays, 0, 35);
    c.cloudId("vpcID", vpcId);
    c.cloudIds("subnetIDs", subnetIds);
    return c.errors();
  }

  /** Builds a {@link DatastoreSpec}; {@link #build()} validates. */
  public static final class Builder extends PlacedSpecBuilder<Builder, DatastoreSpec> {
    private DatastoreEngine engine;
    private String version;
    private String instanceClass;
    private Integer allocatedStorageGb;
    private Boolean multiAz;
    private Integer backupRetentionDays;

    private Builder() {}

    public Builder engine(DatastoreEngine value) {
      this.engine = value;
      return this;
    }

    public Builder version(String value) {
      this.version = value;
      return this;
    }

    public Builder instanceClass(String value) {
      this.instanceClass = value;
      return this;
    }

    public Builder allocatedStorageGb(Integer value) {
      this.allocatedStorageGb = value;
      return this;
    }

    public Builder multiAz(Boolean value) {
      this.multiAz = value;
      return this;
    }

    public Builder backupRetentionDays(Integer value) {
      this.backupRetentionDays = value;
      return this;
    }

    @Override
    DatastoreSpec spec() {
      return new DatastoreSpec(name, engine, version, instanceClass, allocatedStorageGb, multiAz,
          backupRetentionDays, vpcId, subnetIds);
    }
  }
}

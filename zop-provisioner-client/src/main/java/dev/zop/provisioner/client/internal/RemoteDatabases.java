package dev.zop.provisioner.client.internal;

import dev.zop.provisioner.Connections;
import dev.zop.provisioner.Database;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.Databases;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.wire.Requests.CreateDatabase;
import java.util.List;

/** {@link Databases} over {@code /provisioning-jobs/{jobID}/databases}. */
final class RemoteDatabases implements Databases {

  private final HttpTransport http;
  private final String job;

  RemoteDatabases(HttpTransport http, JobId job) {
    this.http = http;
    this.job = job.value();
  }

  @Override
  public Database create(String name, String owner) {
    return http.send("POST", new CreateDatabase(name, owner), Database.class, RemoteJobs.JOBS, job, "databases");
  }

  @Override
  public List<Database> list() {
    return http.all(Database.class, RemoteJobs.JOBS, job, "databases");
  }

  @Override
  public Database get(DatabaseId id) {
    return http.get(Database.class, RemoteJobs.JOBS, job, "databases", id.value());
  }

  @Override
  public void delete(DatabaseId id) {
    http.send("DELETE", null, Void.class, RemoteJobs.JOBS, job, "databases", id.value());
  }

  @Override
  public Connections connections(DatabaseId id) {
    return new RemoteConnections(http, RemoteJobs.JOBS, job, "databases", id.value(), "connections");
  }
}

package dev.zop.provisioner.client.internal;

import dev.zop.provisioner.Connection;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.Connections;
import java.util.List;
import java.util.stream.Stream;

/** {@link Connections} at a job's or a database's {@code .../connections}. */
final class RemoteConnections implements Connections {

  private final HttpTransport http;
  private final String[] scope;

  RemoteConnections(HttpTransport http, String... scope) {
    this.http = http;
    this.scope = scope;
  }

  @Override
  public Connection create() {
    return http.send("POST", null, Connection.class, scope);
  }

  @Override
  public List<Connection> list() {
    return http.all(Connection.class, scope);
  }

  @Override
  public Connection get(ConnectionId id) {
    return http.get(Connection.class, with(id));
  }

  @Override
  public void delete(ConnectionId id) {
    http.send("DELETE", null, Void.class, with(id));
  }

  private String[] with(ConnectionId id) {
    return Stream.concat(Stream.of(scope), Stream.of(id.value())).toArray(String[]::new);
  }
}

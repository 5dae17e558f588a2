package dev.zop.provisioner;

import java.util.List;

/** Connections at one scope: a datastore job, or one of its databases. */
public interface Connections {

  /** Records a connection with the scope's login; no user is created. */
  Connection create();

  /** Newest first. */
  List<Connection> list();

  Connection get(ConnectionId id);

  /** Forgets the connection; the database user stays. */
  void delete(ConnectionId id);
}

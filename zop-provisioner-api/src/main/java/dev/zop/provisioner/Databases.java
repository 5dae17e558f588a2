package dev.zop.provisioner;

import java.util.List;

/** The databases on one datastore job's server. */
public interface Databases {

  /**
   * Creates the database and its owner with a generated password on the parent server. Names are lower-case
   * identifiers ({@code [a-z_][a-z0-9_]*}); the owner's password goes to the secret store.
   *
   * @throws ValidationException when a name is not a valid identifier or the parent is not a SQL datastore
   * @throws ConflictException   when the name or owner exists already, or the parent job has not succeeded
   */
  Database create(String name, String owner);

  /** Newest first. */
  List<Database> list();

  Database get(DatabaseId id);

  /** Drops the database and its owner; the owner's secret and the database's connections go with them. */
  void delete(DatabaseId id);

  /** Connections scoped to one database. */
  Connections connections(DatabaseId id);
}

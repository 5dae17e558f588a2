package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a database under a datastore job stands. */
public enum DatabaseStatus {
  /** Being created on the server; an engine that dies now undoes it on restart. */
  CREATING,
  READY,
  /** Being dropped; an engine that dies now finishes it on restart. */
  DELETING;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static DatabaseStatus fromWire(String value) {
    return EnumNames.parse(DatabaseStatus.class, value);
  }
}

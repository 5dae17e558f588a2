package dev.zop.provisioner.spi;

import java.util.List;

/**
 * A read of the cloud that changes nothing: a drift check's or an import's. It declares the read-only operations
 * it performs, as a step declares its own; a provider built on the kit refuses any other call it makes, so a
 * mutating call cannot slip into a check.
 *
 * @param <T> what the read finds
 */
public interface CloudRead<T> {

  /** The cloud IAM operations the read performs: describes, gets and lists only. */
  List<String> permissions();

  /** Reads the cloud. Errors may be thrown; the session classifies them. */
  T read() throws Exception;

  /** How many calls the last {@link #read} made to the cloud, or -1 when the read does not count them. */
  default int calls() {
    return -1;
  }
}

package dev.zop.provisioner.kit;

import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Revision;

/** The refusals every provider makes of a revision alike. */
public final class RevisionRules {
  private RevisionRules() {}

  /**
   * Kubernetes moves one minor version at a time and never back, as every managed service allows: anything else is
   * refused on {@code version} ({@code kubernetes_downgrade}, {@code kubernetes_minor_skipped}).
   *
   * @param service who upgrades, for the message ({@code EKS})
   */
  public static Revision oneMinorUp(Revision revision, String service, String current, String revised) {
    int from = minor(current);
    int to = minor(revised);
    if (to < from) {
      revision.refuse("version", "kubernetes_downgrade", service + " cannot go back from " + current + " to "
          + revised);
    } else if (to > from + 1) {
      revision.refuse("version", "kubernetes_minor_skipped", service + " upgrades one minor version at a time: "
          + current + " to 1." + (from + 1) + " first");
    }
    return revision;
  }

  /**
   * A datastore keeps its data: its storage never shrinks ({@code storage_shrink}) and its engine never changes
   * ({@code engine_change}).
   *
   * @param what the datastore, for the message ({@code an RDS instance})
   */
  public static Revision keepsData(Revision revision, String what, DatastoreSpec current, DatastoreSpec revised) {
    if (current.allocatedStorageGb() != null && revised.allocatedStorageGb() != null
        && revised.allocatedStorageGb() < current.allocatedStorageGb()) {
      revision.refuse("allocatedStorageGB", "storage_shrink", "the storage of " + what + " cannot shrink ("
          + current.allocatedStorageGb() + " GB to " + revised.allocatedStorageGb() + " GB) without losing data");
    }
    if (revised.engine() != current.engine()) {
      revision.refuse("engine", "engine_change", "the engine of " + what + " cannot change; create a new datastore"
          + " and move the data");
    }
    return revision;
  }

  private static int minor(String version) {
    return version == null ? 0 : Integer.parseInt(version.replaceAll("^\\d+\\.(\\d+).*$", "$1"));
  }
}

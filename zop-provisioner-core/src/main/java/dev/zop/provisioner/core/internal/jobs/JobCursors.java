package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.ValidationException;

/** The cursors of the API's pages of jobs: where the next page starts, in the order asked for. */
public final class JobCursors {
  private JobCursors() {}

  /**
   * The sequence number a cursor continues from: {@code c<seq>} after it, oldest first; {@code d<seq>} before it,
   * newest first. Without a cursor, the start of the list in that order.
   */
  public static long parse(String cursor, ListOrder order) {
    boolean newest = order == ListOrder.NEWEST_FIRST;
    if (cursor == null) {
      return newest ? Long.MAX_VALUE : 0;
    }
    try {
      if (cursor.startsWith("c") || cursor.startsWith("d")) {
        long seq = Long.parseLong(cursor.substring(1));
        if (seq >= 0) {
          if (cursor.startsWith("d") != newest) {
            throw ValidationException.of("cursor", "invalid_cursor", "the cursor continues a list in the other"
                + " order: pass order=" + (newest ? "oldest" : "newest") + " with it, or start again without it");
          }
          return seq;
        }
      }
    } catch (NumberFormatException e) {
      // falls through to the validation error
    }
    throw ValidationException.of("cursor", "invalid_cursor", "cursor is not one this service returned");
  }

  /** The cursor of the page after the one that ends at {@code seq}. */
  public static String next(long seq, ListOrder order) {
    return (order == ListOrder.NEWEST_FIRST ? "d" : "c") + seq;
  }
}

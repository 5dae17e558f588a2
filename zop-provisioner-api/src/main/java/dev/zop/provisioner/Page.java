package dev.zop.provisioner;

import java.util.List;

/** One page of a listing; {@code nextCursor} is null on the last page. */
public record Page<T>(List<T> items, String nextCursor) {
  public Page {
    items = List.copyOf(items);
  }

  public boolean hasMore() {
    return nextCursor != null;
  }
}

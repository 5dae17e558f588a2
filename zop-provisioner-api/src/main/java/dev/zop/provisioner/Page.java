package dev.zop.provisioner;

import java.util.List;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** One page of a listing; {@code nextCursor} is null on the last page. */
@NullMarked
public record Page<T>(List<T> items, @Nullable String nextCursor) {
  public Page {
    items = List.copyOf(items);
  }

  public boolean hasMore() {
    return nextCursor != null;
  }
}

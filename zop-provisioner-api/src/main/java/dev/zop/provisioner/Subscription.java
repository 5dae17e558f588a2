package dev.zop.provisioner;

/** A running watch; close it to stop receiving events. */
public interface Subscription extends AutoCloseable {
  @Override
  void close();
}

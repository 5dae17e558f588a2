package dev.zop.provisioner;

/** Receives the progress events of a watched job, in order, on one thread. */
@FunctionalInterface
public interface JobEventListener {
  void onEvent(JobEvent event);
}

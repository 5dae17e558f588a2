package dev.zop.provisioner.helm;

/** The repository has no such chart at that version, or no index at all: the catalog entry needs fixing. */
final class ChartNotFoundException extends Exception {
  ChartNotFoundException(String message) {
    super(message);
  }
}

package dev.zop.provisioner.kit;

import dev.zop.provisioner.Drift;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What an observe collects: attributes compared one by one with the config, and resources found missing. */
public final class DriftFindings {
  private final List<Drift> found = new ArrayList<>();

  /** Notes {@code field} of {@code resource} when the cloud's value is not the config's (compared as text). */
  public DriftFindings compare(String resource, String field, Object expected, Object actual) {
    if (!Objects.equals(text(expected), text(actual))) {
      found.add(Drift.of(resource, field, text(expected), text(actual)));
    }
    return this;
  }

  /** Notes that {@code resource} is gone. */
  public DriftFindings missing(String resource) {
    found.add(Drift.missing(resource));
    return this;
  }

  /** Notes an attribute the config says should be there and is not ({@code ingress tcp/5432 from 10.0.0.0/16}). */
  public DriftFindings absent(String resource, String field, String expected) {
    found.add(new Drift(resource, field, expected, null));
    return this;
  }

  public List<Drift> list() {
    return List.copyOf(found);
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }
}

package dev.zop.provisioner.cli;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The tables people read: for each kind of answer its columns under their own headers (and more of them with
 * {@code -o wide}), ages as kubectl shows them, a space by its name; one job as a description with its steps,
 * outputs and last failure. Anything else falls back to {@link ClientOptions#table}.
 */
final class Views {
  private Views() {}

  /** One column: its header, its cell, and whether only {@code -o wide} shows it. */
  private record Column<T>(String header, Function<T, String> cell, boolean wide) {}

  /**
   * {@code shown} as a table, or null when no view is written for it.
   *
   * @param spaceName a space's name from its id (null when it cannot be read)
   */
  static String of(Object shown, boolean wide, Function<SpaceId, String> spaceName, Instant now) {
    List<?> rows = shown instanceof dev.zop.provisioner.Page<?> page ? page.items()
        : shown instanceof List<?> list ? list : null;
    String more = shown instanceof dev.zop.provisioner.Page<?> page && page.nextCursor() != null
        ? "\n(more: --cursor " + page.nextCursor() + ")" : "";
    if (shown instanceof Job job) {
      return describe(job, spaceName, now);
    }
    if (rows == null || rows.isEmpty()) {
      return rows == null ? null : "(none)";
    }
    Object first = rows.get(0);
    if (first instanceof Job) {
      return table(cast(rows), jobColumns(spaceName, now), wide) + more;
    }
    if (first instanceof JobEvent) {
      return table(cast(rows), EVENT_COLUMNS, wide) + more;
    }
    if (first instanceof Space) {
      return table(cast(rows), spaceColumns(now), wide) + more;
    }
    if (first instanceof CloudAccount) {
      return table(cast(rows), accountColumns(now), wide) + more;
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> cast(List<?> rows) {
    return (List<T>) rows;
  }

  private static List<Column<Job>> jobColumns(Function<SpaceId, String> spaceName, Instant now) {
    return List.of(
        new Column<>("ID", j -> j.id().value(), false),
        new Column<>("NAME", Job::name, false),
        new Column<>("KIND", j -> j.kind().wireName(), false),
        new Column<>("SPACE", j -> j.spaceId() == null ? "" : spaceName.apply(j.spaceId()), false),
        new Column<>("STATUS", j -> j.status().wireName(), false),
        new Column<>("AGE", j -> age(j.createdAt(), now), false),
        new Column<>("PHASE", j -> j.phase() == null ? "" : j.phase().wireName(), true),
        new Column<>("STEP", j -> j.currentStep() == null ? "" : j.currentStep().name(), true),
        new Column<>("CREATED BY", Job::createdBy, true),
        new Column<>("TAGS", j -> tags(j.tags()), true));
  }

  private static final List<Column<JobEvent>> EVENT_COLUMNS = List.of(
      new Column<>("TIME", e -> e.at() == null ? "" : e.at().truncatedTo(ChronoUnit.SECONDS).toString(), false),
      new Column<>("TYPE", e -> e.type().wireName(), false),
      new Column<>("STEP", JobEvent::stepName, false),
      new Column<>("STATUS", e -> e.status() == null ? "" : e.status().wireName(), false),
      new Column<>("MESSAGE", JobEvent::message, false),
      new Column<>("SEQ", e -> Long.toString(e.seq()), true));

  private static List<Column<Space>> spaceColumns(Instant now) {
    return List.of(
        new Column<>("ID", s -> s.id().value(), false),
        new Column<>("NAME", Space::name, false),
        new Column<>("PROVIDER", Space::provider, false),
        new Column<>("REGION", Space::region, false),
        new Column<>("STATUS", s -> s.status() == null ? "" : s.status().wireName(), false),
        new Column<>("AGE", s -> age(s.createdAt(), now), false),
        new Column<>("TYPE", Space::spaceType, true),
        new Column<>("ACCOUNT", s -> s.cloudAccountId() == null ? "" : s.cloudAccountId().value(), true),
        new Column<>("CONFIG", s -> tags(s.config()), true));
  }

  private static List<Column<CloudAccount>> accountColumns(Instant now) {
    return List.of(
        new Column<>("ID", a -> a.id().value(), false),
        new Column<>("NAME", CloudAccount::name, false),
        new Column<>("PROVIDER", CloudAccount::provider, false),
        new Column<>("AGE", a -> age(a.createdAt(), now), false),
        new Column<>("CREDENTIALS", a -> a.credentialsRef() == null ? "(default chain)" : a.credentialsRef(), true),
        new Column<>("PROPERTIES", a -> tags(a.properties()), true));
  }

  private static <T> String table(List<T> rows, List<Column<T>> all, boolean wide) {
    List<Column<T>> columns = all.stream().filter(c -> wide || !c.wide()).toList();
    List<List<String>> cells = new ArrayList<>();
    cells.add(columns.stream().map(Column::header).toList());
    for (T row : rows) {
      cells.add(columns.stream().map(c -> {
        String value = c.cell().apply(row);
        return value == null ? "" : value;
      }).toList());
    }
    return aligned(cells);
  }

  /** Rows of cells as columns two spaces apart, the last column unpadded. */
  static String aligned(List<List<String>> cells) {
    int[] widths = new int[cells.get(0).size()];
    cells.forEach(line -> {
      for (int i = 0; i < line.size(); i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (List<String> line : cells) {
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < line.size(); i++) {
        row.append(i + 1 == line.size() ? line.get(i) : String.format("%-" + (widths[i] + 2) + "s", line.get(i)));
      }
      out.append(row.toString().stripTrailing()).append('\n');
    }
    return out.toString().stripTrailing();
  }

  /** One job as {@code zop jobs get} promises: what it is, where, its steps, outputs and last failure. */
  static String describe(Job job, Function<SpaceId, String> spaceName, Instant now) {
    StringBuilder out = new StringBuilder();
    field(out, "Job", job.id().value() + (job.name() == null ? "" : " (" + job.name() + ")"));
    field(out, "Kind", job.kind().wireName() + (job.jobType() == null ? "" : ", " + job.jobType().wireName()));
    if (job.spaceId() != null) {
      String name = spaceName.apply(job.spaceId());
      field(out, "Space", name == null || name.equals(job.spaceId().value()) ? job.spaceId().value()
          : name + " (" + job.spaceId().value() + ")");
    }
    field(out, "Status", job.status().wireName() + (job.phase() == null ? "" : " (" + job.phase().wireName()
        + " phase)"));
    field(out, "Created", age(job.createdAt(), now) + " ago" + (job.createdBy() == null ? "" : " by "
        + job.createdBy()));
    if (job.finishedAt() != null && job.createdAt() != null) {
      field(out, "Took", took(Duration.between(job.createdAt(), job.finishedAt())));
    }
    if (!job.tags().isEmpty()) {
      field(out, "Tags", tags(job.tags()));
    }
    if (!job.steps().isEmpty()) {
      out.append("Steps:\n");
      List<List<String>> cells = new ArrayList<>();
      cells.add(List.of("PHASE", "STEP", "STATUS", "ATTEMPTS", "TOOK"));
      for (JobStep step : job.steps()) {
        cells.add(List.of(step.phase() == null ? "" : step.phase().wireName(), step.name(),
            step.status().wireName(), Integer.toString(step.attempts()),
            step.startedAt() == null || step.finishedAt() == null ? ""
                : took(Duration.between(step.startedAt(), step.finishedAt()))));
      }
      aligned(cells).lines().forEach(line -> out.append("  ").append(line).append('\n'));
    }
    if (!job.outputs().isEmpty()) {
      out.append("Outputs:\n");
      new TreeMap<>(job.outputs()).forEach((k, v) -> out.append("  ").append(k).append(": ").append(v)
          .append('\n'));
    }
    Failure failure = job.lastFailure();
    if (failure != null) {
      out.append("Last failure:\n  ").append(failure.category().wireName()).append(' ').append(failure.code())
          .append(": ").append(failure.message()).append('\n');
      if (failure.fixHint() != null) {
        out.append("  fix: ").append(failure.fixHint()).append('\n');
      }
    }
    return out.toString().stripTrailing();
  }

  private static void field(StringBuilder out, String name, String value) {
    out.append(String.format("%-9s", name + ":")).append(value).append('\n');
  }

  private static String tags(Map<String, String> tags) {
    return String.join(",", new TreeMap<>(tags).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .toList());
  }

  /** An age as kubectl shows one: 45s, 12m, 5h, 3d. */
  static String age(Instant since, Instant now) {
    if (since == null) {
      return "";
    }
    long seconds = Math.max(0, Duration.between(since, now).getSeconds());
    if (seconds < 120) {
      return seconds + "s";
    }
    if (seconds < 2 * 3600) {
      return seconds / 60 + "m";
    }
    if (seconds < 2 * 86400) {
      return seconds / 3600 + "h";
    }
    return seconds / 86400 + "d";
  }

  /** A duration to the second: 4s, 2m10s, 1h5m. */
  static String took(Duration duration) {
    long s = Math.max(0, duration.getSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m" + (s % 60 == 0 ? "" : s % 60 + "s");
    }
    return s / 3600 + "h" + (s % 3600 / 60 == 0 ? "" : s % 3600 / 60 + "m");
  }
}

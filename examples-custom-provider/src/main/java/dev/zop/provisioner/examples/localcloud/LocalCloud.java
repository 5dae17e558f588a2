package dev.zop.provisioner.examples.localcloud;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The "cloud" of the example: a directory whose subdirectories are registries. Each registry holds an owner file
 * (its tags). Every call is logged as {@code local:Action}, as a real cloud's audit log would show it, and fails
 * with a {@link LocalCloudException} carrying an HTTP status, as a real cloud API answers.
 */
public final class LocalCloud {
  static final String OWNER_FILE = ".zop-owner";

  private final Path root;
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private volatile Consumer<String> onChange = operation -> { };

  public LocalCloud(Path root) {
    this.root = root;
  }

  /** Called with the operation's name after each change the cloud made (a create or a delete). */
  public void onChange(Consumer<String> listener) {
    this.onChange = listener;
  }

  /** Every operation called so far, oldest first. */
  public List<String> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** The registries that exist, by name. */
  public List<String> list() {
    calls.add("local:ListRegistries");
    try (Stream<Path> entries = Files.list(root)) {
      return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith(".")).sorted().toList();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw LocalCloudException.of(e);
    }
  }

  /** The owner tag of a registry, "" when it has none, or null when the registry does not exist. */
  public String owner(String name) {
    calls.add("local:GetRegistry");
    Path dir = root.resolve(name);
    if (!Files.isDirectory(dir)) {
      throw new LocalCloudException(404, "no registry " + name);
    }
    try {
      Path owner = dir.resolve(OWNER_FILE);
      return Files.exists(owner) ? Files.readString(owner) : "";
    } catch (IOException e) {
      throw LocalCloudException.of(e);
    }
  }

  /**
   * Creates a registry with its owner tag in one atomic call: the registry is assembled under a temporary name
   * and renamed into place, so it never exists without its tag.
   */
  public void create(String name, String owner) {
    calls.add("local:CreateRegistry");
    try {
      Files.createDirectories(root);
      Path staging = Files.createTempDirectory(root, ".staging-");
      Files.writeString(staging.resolve(OWNER_FILE), owner);
      Files.move(staging, root.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw LocalCloudException.of(e);
    }
    onChange.accept("local:CreateRegistry");
  }

  public void delete(String name) {
    calls.add("local:DeleteRegistry");
    Path dir = root.resolve(name);
    if (!Files.isDirectory(dir)) {
      throw new LocalCloudException(404, "no registry " + name);
    }
    try (Stream<Path> tree = Files.walk(dir)) {
      for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw LocalCloudException.of(e);
    }
    onChange.accept("local:DeleteRegistry");
  }

  /** An error answer of the local cloud, with the HTTP status a cloud API would give it. */
  public static final class LocalCloudException extends RuntimeException {
    private final int status;

    public LocalCloudException(int status, String message) {
      super(message);
      this.status = status;
    }

    static LocalCloudException of(IOException e) {
      int status = e instanceof NoSuchFileException ? 404 : e instanceof AccessDeniedException ? 403
          : e instanceof FileAlreadyExistsException ? 409 : 503;
      return new LocalCloudException(status, e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    public int status() {
      return status;
    }
  }
}

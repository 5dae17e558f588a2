package dev.zop.provisioner.cli;

import java.util.List;

/**
 * Commands another module adds to {@code zop}, found with {@link java.util.ServiceLoader}: the server module adds
 * {@code serve} and {@code tokens}, so the client commands start on a small class path and the service's commands
 * run where the service's classes are.
 */
public interface ZopExtension {
  /** picocli command objects ({@code @Command}-annotated), added as subcommands of {@code zop}. */
  List<Object> commands();
}

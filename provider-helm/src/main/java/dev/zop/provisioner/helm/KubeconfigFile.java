package dev.zop.provisioner.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Helm reads its kubeconfig from a file: an owner-only one in the step's scratch directory, deleted after. */
final class KubeconfigFile {
  private KubeconfigFile() {}

  static Path write(String kubeconfig, Path dir) throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, kubeconfig);
    return file;
  }
}

package dev.zop.provisioner.core.internal.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.SecretRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSecretStoreTest {
  @TempDir Path dir;

  private LocalSecretStore open() {
    return LocalSecretStore.open(dir.resolve("secrets"), dir.resolve("secret.key"), null);
  }

  @Test
  void storesEncryptedOwnerOnlyFilesAndReadsThemBack() throws Exception {
    LocalSecretStore store = open();
    SecretRef ref = store.put("zop/org/job/admin", "correct horse battery staple");

    assertThat(ref.value()).isEqualTo("local:zop/org/job/admin");
    assertThat(store.get(ref)).isEqualTo("correct horse battery staple");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("secret.key"))))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("secrets"))))
        .isEqualTo("rwx------");
    try (Stream<Path> files = Files.list(dir.resolve("secrets"))) {
      Path file = files.findFirst().orElseThrow();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
      assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
          .doesNotContain("correct horse").doesNotContain("zop/org/job/admin");
    }
    // a second engine on the same directory uses the same key
    assertThat(open().get(ref)).isEqualTo("correct horse battery staple");
  }

  @Test
  void rotateDeleteAndMissingSecrets() {
    LocalSecretStore store = open();
    SecretRef ref = store.put("a", "one");
    assertThat(store.rotate(ref, "two")).isEqualTo(ref);
    assertThat(store.get(ref)).isEqualTo("two");
    store.delete(ref);
    store.delete(ref); // deleting what is gone succeeds
    assertThatThrownBy(() -> store.get(ref)).isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(() -> store.rotate(ref, "three")).isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(() -> store.get(SecretRef.of("arn:aws:secretsmanager:x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFileMovedUnderAnotherNameOrReadWithAnotherKeyDoesNotDecrypt() throws Exception {
    LocalSecretStore store = open();
    SecretRef first = store.put("first", "value-1");
    SecretRef second = store.put("second", "value-2");
    Path[] files;
    try (Stream<Path> list = Files.list(dir.resolve("secrets"))) {
      files = list.sorted().toArray(Path[]::new);
    }
    byte[] a = Files.readAllBytes(files[0]);
    Files.write(files[1], a); // swap contents: the name is authenticated, so this must fail
    assertThatThrownBy(() -> {
      store.get(first);
      store.get(second);
    }).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot be decrypted");

    String otherKey = Base64.getEncoder().encodeToString(new byte[32]);
    LocalSecretStore withOtherKey = LocalSecretStore.open(dir.resolve("secrets"), dir.resolve("secret.key"), otherKey);
    assertThatThrownBy(() -> withOtherKey.get(first)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void refusesAKeyOthersCanReadOrOfTheWrongSize() throws Exception {
    open();
    Files.setPosixFilePermissions(dir.resolve("secret.key"), PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(this::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("chmod 600");
    assertThatThrownBy(() -> LocalSecretStore.open(dir.resolve("s2"), dir.resolve("k2"), "c2hvcnQ="))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("32 bytes");
  }
}

package dev.zop.provisioner.core.internal.secrets;

import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.SecretStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.NoSuchElementException;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The embedded default secret store: one AES-256-GCM encrypted file per secret, owner-only, in a directory
 * beside (never inside) the engine's database. The key comes from {@code ZOP_SECRET_KEY} (base64, 32 bytes) or
 * from a key file created on first use with owner-only permissions.
 */
public final class LocalSecretStore implements SecretStore {
  public static final String PREFIX = "local:";
  private static final byte FORMAT = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

  private final Path directory;
  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  private LocalSecretStore(Path directory, byte[] key) {
    this.directory = directory;
    this.key = new SecretKeySpec(key, "AES");
  }

  /** Opens the store in {@code directory}, with the key from {@code keyFromEnv} or else from {@code keyFile}. */
  public static LocalSecretStore open(Path directory, Path keyFile, String keyFromEnv) {
    try {
      createOwnerOnly(directory);
      byte[] key = keyFromEnv != null && !keyFromEnv.isBlank() ? decodeKey(keyFromEnv, "ZOP_SECRET_KEY")
          : loadOrCreateKey(keyFile);
      return new LocalSecretStore(directory, key);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the local secret store in " + directory, e);
    }
  }

  @Override
  public String id() {
    return "local";
  }

  @Override
  public SecretRef put(String name, String value) {
    requireName(name);
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      random.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8)); // a file copied under another name won't decrypt
      byte[] sealed = cipher.doFinal(value.getBytes(StandardCharsets.UTF_8));
      byte[] file = ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(FORMAT).put(nonce).put(sealed).array();
      Path target = fileOf(name);
      Path temp = Files.createTempFile(directory, ".put", ".tmp",
          PosixFilePermissions.asFileAttribute(OWNER_FILE));
      Files.write(temp, file);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return SecretRef.of(PREFIX + name);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("encrypting a secret failed", e);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a secret failed", e);
    }
  }

  @Override
  public String get(SecretRef ref) {
    String name = nameOf(ref);
    try {
      ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(fileOf(name)));
      if (file.get() != FORMAT) {
        throw new IllegalStateException("secret file of unknown format");
      }
      byte[] nonce = new byte[NONCE_BYTES];
      file.get(nonce);
      byte[] sealed = new byte[file.remaining()];
      file.get(sealed);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      return new String(cipher.doFinal(sealed), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new NoSuchElementException("no secret " + ref);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("secret " + ref + " cannot be decrypted with this key", e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading a secret failed", e);
    }
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref); // must exist
    return put(nameOf(ref), newValue);
  }

  @Override
  public void delete(SecretRef ref) {
    try {
      Files.deleteIfExists(fileOf(nameOf(ref)));
    } catch (IOException e) {
      throw new UncheckedIOException("deleting a secret failed", e);
    }
  }

  public boolean owns(SecretRef ref) {
    return ref.value().startsWith(PREFIX);
  }

  private Path fileOf(String name) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return directory.resolve(HexFormat.of().formatHex(digest) + ".secret");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String nameOf(SecretRef ref) {
    if (!ref.value().startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a local secret reference: " + ref);
    }
    return ref.value().substring(PREFIX.length());
  }

  private static void requireName(String name) {
    if (name == null || name.isBlank() || name.length() > 500) {
      throw new IllegalArgumentException("a secret name must be 1..500 characters");
    }
  }

  private static byte[] loadOrCreateKey(Path keyFile) throws IOException {
    if (!Files.exists(keyFile)) {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      createOwnerOnly(keyFile.toAbsolutePath().getParent());
      try {
        Files.writeString(Files.createFile(keyFile, PosixFilePermissions.asFileAttribute(OWNER_FILE)),
            Base64.getEncoder().encodeToString(key));
      } catch (FileAlreadyExistsException raced) {
        // another engine on this machine created it first: use theirs
      }
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(keyFile);
    if (perms.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
      throw new IllegalStateException("secret key file " + keyFile + " is readable by others; chmod 600 it");
    }
    return decodeKey(Files.readString(keyFile).trim(), keyFile.toString());
  }

  private static byte[] decodeKey(String base64, String source) {
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the secret key in " + source + " is not base64");
    }
    if (key.length != 32) {
      throw new IllegalStateException("the secret key in " + source + " must be 32 bytes, not " + key.length);
    }
    return key;
  }

  private static void createOwnerOnly(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
    }
  }
}

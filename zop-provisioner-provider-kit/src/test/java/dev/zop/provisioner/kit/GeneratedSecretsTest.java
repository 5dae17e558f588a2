package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class GeneratedSecretsTest {
  @Test
  void passwordsAreLongAndFreeOfLookAlikes() {
    String password = GeneratedSecrets.password();
    assertThat(password).hasSize(32).doesNotContain("0", "O", "1", "l", "I");
    assertThat(GeneratedSecrets.password()).isNotEqualTo(password);
  }

  @Test
  void theSshPublicKeyVerifiesWhatItsPrivateKeySigns() throws Exception {
    String pem = GeneratedSecrets.sshPrivateKey();
    assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
    String line = GeneratedSecrets.sshPublicKey(pem, "zop@pool");
    assertThat(line).startsWith("ssh-rsa AAAAB3NzaC1yc2E").endsWith(" zop@pool");
    // the same line each time: a resumed step puts the same key on the machines
    assertThat(GeneratedSecrets.sshPublicKey(pem, "zop@pool")).isEqualTo(line);

    // read the wire format back (RFC 4253: string, mpint e, mpint n) and check it against a signature
    ByteBuffer wire = ByteBuffer.wrap(Base64.getDecoder().decode(line.split(" ")[1]));
    assertThat(new String(next(wire))).isEqualTo("ssh-rsa");
    BigInteger e = new BigInteger(next(wire));
    BigInteger n = new BigInteger(next(wire));
    assertThat(wire.hasRemaining()).isFalse();
    assertThat(n.bitLength()).isEqualTo(3072);

    byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    var privateKey = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(privateKey);
    signer.update("hello".getBytes());
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e)));
    verifier.update("hello".getBytes());
    assertThat(verifier.verify(signature)).isTrue();
  }

  @Test
  void somethingElseIsNotTakenForAKey() {
    assertThatThrownBy(() -> GeneratedSecrets.sshPublicKey("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
        null)).isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] next(ByteBuffer wire) {
    byte[] value = new byte[wire.getInt()];
    wire.get(value);
    return value;
  }
}

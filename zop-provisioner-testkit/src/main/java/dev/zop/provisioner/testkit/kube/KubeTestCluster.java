package dev.zop.provisioner.testkit.kube;

import static org.awaitility.Awaitility.await;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Kubernetes control plane on loopback: etcd, kube-apiserver and kube-controller-manager (1.20.2), started
 * once per JVM and stopped when it exits. No scheduler or kubelet, so pods stay Pending; namespaces, secrets,
 * config maps and Helm releases behave as on any cluster.
 *
 * <p>The binaries come from {@code ZOP_KUBE_BIN}, else the cache {@code scripts/kube-binaries.sh} fills
 * ({@code ~/.cache/zop-provisioner/kube-1.20.2}), building them first when a checkout's script is found. When the
 * cluster cannot start, {@link #shared()} throws: tests that need it fail rather than skip.
 */
public final class KubeTestCluster {
  public static final String TOKEN = "zop-test-admin-token";
  private static KubeTestCluster shared;

  private final Path dir;
  private final int apiPort;
  private final List<Process> processes = new ArrayList<>();
  private String caData;

  private KubeTestCluster(Path dir, int apiPort) {
    this.dir = dir;
    this.apiPort = apiPort;
  }

  /** The cluster of this JVM, started on first use. */
  public static synchronized KubeTestCluster shared() {
    if (shared == null) {
      try {
        KubeTestCluster cluster = new KubeTestCluster(Files.createTempDirectory("zop-kube"), freePort());
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "zop-kube-stop"));
        cluster.start(binaries());
        shared = cluster;
      } catch (IOException e) {
        throw new UncheckedIOException("the test Kubernetes cluster did not start", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the test Kubernetes cluster", e);
      }
    }
    return shared;
  }

  /** The API server's URL. */
  public String server() {
    return "https://127.0.0.1:" + apiPort;
  }

  /** The cluster's CA certificate, PEM in base64, as a kubeconfig's {@code certificate-authority-data}. */
  public String caData() {
    return caData;
  }

  /** A cluster-admin kubeconfig for it. */
  public String kubeconfig() {
    return kubeconfig(server());
  }

  /** A kubeconfig with the cluster's credentials aimed at {@code server}, e.g. a port where nothing listens. */
  public String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: zop-test\n  cluster:\n    server: " + server + "\n"
        + "    certificate-authority-data: " + caData + "\n"
        + "users:\n- name: admin\n  user:\n    token: " + TOKEN + "\n"
        + "contexts:\n- name: zop-test\n  context:\n    cluster: zop-test\n    user: admin\n"
        + "current-context: zop-test\n";
  }

  private static Path binaries() throws IOException, InterruptedException {
    String configured = System.getenv("ZOP_KUBE_BIN");
    Path bin = configured != null && !configured.isBlank() ? Path.of(configured)
        : Path.of(System.getProperty("user.home"), ".cache", "zop-provisioner", "kube-1.20.2");
    if (Files.isExecutable(bin.resolve("kube-apiserver"))) {
      return bin;
    }
    Path script = findScript();
    if (script == null) {
      throw new IOException("no kube-apiserver in " + bin + " and no scripts/kube-binaries.sh to build it; "
          + "set ZOP_KUBE_BIN");
    }
    Process build = new ProcessBuilder("bash", script.toString()).redirectErrorStream(false)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (build.waitFor() != 0) {
      throw new IOException(script + " failed (exit " + build.exitValue() + ")");
    }
    return Path.of(out.substring(out.lastIndexOf('\n') + 1));
  }

  private static Path findScript() {
    for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
      Path script = at.resolve("scripts").resolve("kube-binaries.sh");
      if (Files.isRegularFile(script)) {
        return script;
      }
    }
    return null;
  }

  private void start(Path bin) throws IOException, InterruptedException {
    int etcdPort = freePort();
    int peerPort = freePort();
    Path certs = Files.createDirectories(dir.resolve("certs"));
    writeServiceAccountKeys();
    Files.writeString(dir.resolve("tokens.csv"), TOKEN + ",admin,admin,\"system:masters\"\n");
    spawn("etcd", List.of(etcdBinary(), "--name", "zop", "--data-dir", dir.resolve("etcd").toString(),
        "--listen-client-urls", "http://127.0.0.1:" + etcdPort,
        "--advertise-client-urls", "http://127.0.0.1:" + etcdPort,
        "--listen-peer-urls", "http://127.0.0.1:" + peerPort,
        "--initial-advertise-peer-urls", "http://127.0.0.1:" + peerPort,
        "--initial-cluster", "zop=http://127.0.0.1:" + peerPort));
    spawn("kube-apiserver", List.of(bin.resolve("kube-apiserver").toString(),
        "--etcd-servers", "http://127.0.0.1:" + etcdPort,
        "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1",
        "--secure-port", Integer.toString(apiPort), "--insecure-port", "0",
        "--cert-dir", certs.toString(),
        "--token-auth-file", dir.resolve("tokens.csv").toString(),
        "--authorization-mode", "RBAC",
        "--service-account-issuer", "https://kubernetes.default.svc",
        "--service-account-key-file", dir.resolve("sa.pub").toString(),
        "--service-account-signing-key-file", dir.resolve("sa.key").toString(),
        "--service-cluster-ip-range", "10.0.0.0/24",
        "--disable-admission-plugins", "ServiceAccount"));
    awaitReady(certs.resolve("apiserver.crt"));
    Path kubeconfig = dir.resolve("admin.kubeconfig");
    Files.writeString(kubeconfig, kubeconfig());
    spawn("kube-controller-manager", List.of(bin.resolve("kube-controller-manager").toString(),
        "--kubeconfig", kubeconfig.toString(), "--leader-elect=false", "--port=0", "--secure-port=0",
        "--controllers=namespace,garbagecollector,deployment,replicaset,job,serviceaccount",
        "--service-account-private-key-file", dir.resolve("sa.key").toString()));
  }

  private static String etcdBinary() {
    for (String candidate : List.of("/usr/bin/etcd", "/usr/local/bin/etcd")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    return "etcd";
  }

  private void spawn(String name, List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile()).start();
    processes.add(process);
  }

  private void awaitReady(Path certificate) throws IOException {
    String[] lastProblem = {"not started"};
    HttpClient[] http = {null};
    try {
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
        for (Process p : processes) {
          if (!p.isAlive()) {
            throw new IOException("a control-plane process exited: " + p.info().command().orElse("?") + "\n"
                + logs());
          }
        }
        if (http[0] == null && Files.isRegularFile(certificate)) {
          byte[] pem = Files.readAllBytes(certificate);
          caData = Base64.getEncoder().encodeToString(pem);
          http[0] = HttpClient.newBuilder().sslContext(trusting(pem)).connectTimeout(Duration.ofSeconds(2)).build();
        }
        if (http[0] == null) {
          return false;
        }
        try {
          HttpResponse<String> ready = http[0].send(HttpRequest.newBuilder(URI.create(server() + "/readyz"))
              .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
          lastProblem[0] = "readyz " + ready.statusCode();
          return ready.statusCode() == 200;
        } catch (IOException e) {
          lastProblem[0] = e.toString();
          return false;
        }
      });
    } catch (ConditionTimeoutException e) {
      throw new IOException("kube-apiserver was not ready in 90 s (" + lastProblem[0] + ")\n" + logs(), e);
    } catch (RuntimeException e) {
      if (e.getCause() instanceof IOException exited) {
        throw exited;
      }
      throw e;
    }
  }

  private String logs() {
    StringBuilder out = new StringBuilder();
    for (String name : List.of("etcd", "kube-apiserver")) {
      try {
        List<String> lines = Files.readAllLines(dir.resolve(name + ".log"));
        out.append("--- ").append(name).append(" (last lines)\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))).append('\n');
      } catch (IOException ignored) {
        out.append("--- ").append(name).append(": no log\n");
      }
    }
    return out.toString();
  }

  private static SSLContext trusting(byte[] pem) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      try (InputStream in = new java.io.ByteArrayInputStream(pem)) {
        for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
          store.setCertificateEntry("kube-" + i++, cert);
        }
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException("cannot trust the API server's certificate", e);
    }
  }

  private void writeServiceAccountKeys() throws IOException {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      KeyPair pair = generator.generateKeyPair();
      Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
      Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private void stop() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.destroy();
      try {
        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }
}

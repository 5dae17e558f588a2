package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import dev.zop.provisioner.sim.ReplacedSteps;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Server-Sent Events streams that hold no thread while idle, bounded per caller and in total. */
class EventStreamsTest {
  private static final int STREAMS = 1000;
  /** A provider id for the simulated cloud whose network jobs write a firehose of events. */
  private static final String CHATTY = "chatty";

  @Test
  void aThousandOpenStreamsHoldNoThreadAndTheRestOfTheApiIsAnswered() throws Exception {
    try (ServerFixture fixture = new ServerFixture(b -> b.requestsPerSecond(100_000)
        .keepAlive(Duration.ofMillis(500)))) {
      String job = finishedJob(fixture);
      int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
      List<Socket> streams = new ArrayList<>();
      try {
        for (int i = 0; i < STREAMS; i++) {
          Socket socket = open(fixture, fixture.adminToken, job);
          streams.add(socket);
          // each stream answers 200 and replays the job's recorded events
          assertThat(readUntil(socket, "event: ")).as("stream " + i).startsWith("HTTP/1.1 200");
        }
        int threadsWithStreams = ManagementFactory.getThreadMXBean().getThreadCount();
        // a thread per stream would be a thousand more
        assertThat(threadsWithStreams - threadsBefore).as("threads added by %d open streams", STREAMS)
            .isLessThan(100);

        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
          long began = System.nanoTime();
          assertThat(RawHttp.json(fixture.baseUrl(), "GET", "/me", fixture.adminToken, null).status())
              .isEqualTo(200);
          millis.add((System.nanoTime() - began) / 1_000_000);
        }
        millis.sort(null);
        assertThat(millis.get(millis.size() / 2)).as("GET /me while %d streams are open: %s ms", STREAMS, millis)
            .isLessThan(100);

        // every stream is still served: each gets its keep-alive
        for (Socket socket : streams) {
          assertThat(readUntil(socket, ": keep-alive")).isNotEmpty();
        }
      } finally {
        for (Socket socket : streams) {
          socket.close();
        }
      }
    }
  }

  @Test
  void streamsAreBoundedPerCallerAndInTotalWithRetryAfter() throws Exception {
    try (ServerFixture fixture = new ServerFixture(b -> b.maxEventStreams(3, 2).keepAlive(Duration.ofMillis(300)))) {
      String job = finishedJob(fixture);
      String bob = fixture.access.createToken("acme", "bob@acme.com", Set.of(Policies.ADMIN), null).token();
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          held.add(open(fixture, fixture.adminToken, job));
          assertThat(readUntil(held.get(i), "event: ")).startsWith("HTTP/1.1 200");
        }
        try (Socket third = open(fixture, fixture.adminToken, job)) {
          String answer = readUntil(third, "too_many_streams");
          assertThat(answer).startsWith("HTTP/1.1 429").containsIgnoringCase("Retry-After:");
        }
        held.add(open(fixture, bob, job));
        assertThat(readUntil(held.get(2), "event: ")).startsWith("HTTP/1.1 200");
        try (Socket fourth = open(fixture, bob, job)) {
          String answer = readUntil(fourth, "too_many_streams");
          assertThat(answer).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After:");
        }
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
      // closed streams are let go (found at their next keep-alive at the latest), and the slots come back
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> {
            try (Socket again = open(fixture, fixture.adminToken, job)) {
              return readUntil(again, "\r\n").startsWith("HTTP/1.1 200");
            }
          });
    }
  }

  @Test
  void aReaderThatStopsReadingIsDroppedAndWhatItHeldIsLetGo() throws Exception {
    // a job that writes a 9,000-character log line every 10 ms, so that stalled readers overrun the kernel's socket
    // buffers (megabytes on loopback) and then their backlog within seconds
    Step chatter = ProviderStep.of("chatter", List.of(), context -> {
      context.log("x".repeat(9_000));
      return StepResult.waitFor(Duration.ofMillis(10), "chattering");
    });
    try (ServerFixture fixture = ServerFixture.with(
        e -> e.provider(new ReplacedSteps(new SimProvider(SimCloud.create(), CHATTY), JobKind.NETWORK,
            List.of(chatter))),
        b -> b.eventStreamBacklog(64 * 1024, 1024 * 1024))) {
      String busy;
      try (Provisioner client = fixture.client(fixture.adminToken)) {
        CloudAccount account = client.accounts().create(CloudAccountRequest.of(CHATTY, "chatty"));
        Space space = client.spaces().create(SpaceRequest.of(CHATTY, "chatty", account.id()).region("r"));
        busy = client.jobs().submit(space.id(), dev.zop.provisioner.spec.NetworkSpec.named("chatty")
            .cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24")).id().value();
      }
      List<Socket> stalled = new ArrayList<>();
      java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
      try (Socket reading = open(fixture, fixture.adminToken, busy)) {
        assertThat(readUntil(reading, "event: ")).startsWith("HTTP/1.1 200");
        Thread reader = new Thread(() -> {
          byte[] buffer = new byte[65536];
          try {
            for (int n = reading.getInputStream().read(buffer); n >= 0; n = reading.getInputStream().read(buffer)) {
              read.addAndGet(n);
            }
          } catch (IOException closed) {
            // the test is over
          }
        });
        reader.setDaemon(true);
        reader.start();
        for (int i = 0; i < 4; i++) {
          Socket socket = new Socket();
          socket.setReceiveBufferSize(1024); // before connecting, so the window the server sees is small
          socket.connect(new java.net.InetSocketAddress("127.0.0.1", fixture.server.port()));
          socket.getOutputStream().write(("GET /provisioning-jobs/" + busy + "/events/stream HTTP/1.1\r\n"
              + "Host: 127.0.0.1\r\nAuthorization: Bearer " + fixture.adminToken + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
          stalled.add(socket); // and never read from
        }
        // the stalled streams are ended, each once its unsent frames pass the backlog
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
            .until(() -> fixture.server.droppedEventStreams() == stalled.size());
        // what the dropped streams held is let go, and the reader that reads is still served
        assertThat(fixture.server.openEventStreams()).isEqualTo(1);
        assertThat(fixture.server.unsentEventBytes()).isLessThanOrEqualTo(64 * 1024);
        long before = read.get();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> read.get() > before + 100_000);
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
    }
  }

  private static String finishedJob(ServerFixture fixture) {
    try (Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "streams"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "streams", account.id()).region("sim-east-1"));
      Job job = client.jobs().await(client.jobs().submit(space.id(), RegistrySpec.named("team/streams")).id(),
          Duration.ofSeconds(60));
      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      return job.id().value();
    }
  }

  private static Socket open(ServerFixture fixture, String token, String job) throws IOException {
    Socket socket = new Socket("127.0.0.1", fixture.server.port());
    socket.setSoTimeout(20_000);
    socket.getOutputStream().write(("GET /provisioning-jobs/" + job + "/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer " + token + "\r\nAccept: text/event-stream\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    return socket;
  }

  /** What the socket says until {@code marker} has arrived (bounded by the socket's read timeout). */
  private static String readUntil(Socket socket, String marker) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder read = new StringBuilder();
    byte[] buffer = new byte[4096];
    while (read.indexOf(marker) < 0) {
      int n = in.read(buffer);
      if (n < 0) {
        break;
      }
      read.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
    }
    return read.toString();
  }
}

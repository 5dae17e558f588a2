package dev.zop.provisioner.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spi.Notification;
import jakarta.mail.internet.MimeMessage;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Email through a real SMTP server in this JVM (GreenMail) on a free loopback port. */
class EmailNotifierTest {
  private static final int PORT = freePort();

  @RegisterExtension
  static final GreenMailExtension SMTP = new GreenMailExtension(
      new ServerSetup(PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anApprovalRequestReachesTheOrganisationsAdmins() throws Exception {
    try (EmailNotifier email = EmailNotifier.via("127.0.0.1", PORT, "zop@acme.example")
        .group("org-admins", List.of("alice@acme.example", "bob@acme.example")).build()) {
      email.send(new Notification("remediation.approval_required", "acme", "org-admins", JobId.of("job_mail1"),
          Map.of("resourceId", "i-123", "action", "stop")));
      await().atMost(Duration.ofSeconds(30)).until(() -> SMTP.getReceivedMessages().length == 2);
      MimeMessage message = SMTP.getReceivedMessages()[0];
      assertThat(message.getSubject()).isEqualTo("[zop] remediation approval required — job job_mail1");
      assertThat(message.getFrom()[0].toString()).isEqualTo("zop@acme.example");
      assertThat(GreenMailUtil.getBody(message)).contains("job: job_mail1", "resourceId: i-123", "action: stop");
      await().atMost(Duration.ofSeconds(30)).until(() -> !email.deliveries().isEmpty());
      assertThat(email.deliveries().get(0).delivered()).isTrue();
      assertThat(email.deliveries().get(0).attempts()).isEqualTo(1);
    }
  }

  @Test
  void aGroupWithoutAddressesIsRecordedAsNotDelivered() {
    try (EmailNotifier email = EmailNotifier.via("127.0.0.1", PORT, "zop@acme.example")
        .group("org-admins", List.of("alice@acme.example")).build()) {
      email.send(new Notification("remediation.succeeded", "acme", "job-owner", JobId.of("job_mail2"), Map.of()));
      await().atMost(Duration.ofSeconds(30)).until(() -> !email.deliveries().isEmpty());
      assertThat(email.deliveries().get(0).delivered()).isFalse();
      assertThat(email.deliveries().get(0).detail()).contains("job-owner");
      assertThat(SMTP.getReceivedMessages()).isEmpty();
    }
  }
}

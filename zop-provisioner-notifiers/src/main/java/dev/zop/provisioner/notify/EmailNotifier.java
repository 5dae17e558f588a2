package dev.zop.provisioner.notify;

import dev.zop.provisioner.spi.Notification;
import jakarta.mail.Authenticator;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.PasswordAuthentication;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Sends each notification as a plain-text email over SMTP (Jakarta Mail, Angus). A notification names its
 * recipients as a group ({@code org-admins}); this notifier maps each group to addresses. A group it has no
 * addresses for is recorded as not delivered rather than sent nowhere. Connection failures are retried with
 * backoff; an address the server refuses is final.
 */
public final class EmailNotifier extends DeliveringNotifier {
  private final Session session;
  private final InternetAddress from;
  private final Map<String, List<InternetAddress>> groups;

  private EmailNotifier(Builder b) {
    super("email", b);
    Properties props = new Properties();
    props.put("mail.smtp.host", b.host);
    props.put("mail.smtp.port", Integer.toString(b.port));
    props.put("mail.smtp.connectiontimeout", Long.toString(b.timeout.toMillis()));
    props.put("mail.smtp.timeout", Long.toString(b.timeout.toMillis()));
    props.put("mail.smtp.writetimeout", Long.toString(b.timeout.toMillis()));
    if (b.startTls) {
      props.put("mail.smtp.starttls.enable", "true");
      props.put("mail.smtp.starttls.required", "true");
    }
    Authenticator auth = null;
    if (b.username != null) {
      props.put("mail.smtp.auth", "true");
      String user = b.username;
      String password = b.password;
      auth = new Authenticator() {
        @Override
        protected PasswordAuthentication getPasswordAuthentication() {
          return new PasswordAuthentication(user, password);
        }
      };
    }
    this.session = Session.getInstance(props, auth);
    this.from = b.from;
    this.groups = Map.copyOf(b.groups);
  }

  /** Email over the SMTP server at {@code host:port}, from {@code from}. */
  public static Builder via(String host, int port, String from) {
    return new Builder(host, port, from);
  }

  @Override
  String deliver(String deliveryId, Notification n) throws Exception {
    List<InternetAddress> to = groups.get(n.recipients());
    if (to == null || to.isEmpty()) {
      throw new IllegalStateException("no addresses for recipients '" + n.recipients() + "'");
    }
    MimeMessage message = new MimeMessage(session);
    message.setFrom(from);
    message.setRecipients(Message.RecipientType.TO, to.toArray(InternetAddress[]::new));
    message.setSubject(subject(n), "UTF-8");
    message.setText(body(n), "UTF-8");
    message.setHeader("X-Zop-Delivery", deliveryId);
    try {
      Transport.send(message);
    } catch (SendFailedException e) {
      throw e; // the server refused an address: another try would be refused too
    } catch (MessagingException e) {
      throw new RetryableDeliveryException("SMTP " + e.getMessage(), e);
    }
    return "sent to " + to.size() + " address(es)";
  }

  static String subject(Notification n) {
    String what = n.template().replace('.', ' ').replace('_', ' ');
    return "[zop] " + what + (n.jobId() == null ? "" : " — job " + n.jobId().value());
  }

  static String body(Notification n) {
    StringBuilder text = new StringBuilder();
    text.append(n.template()).append(" in organisation ").append(n.orgId()).append('\n');
    if (n.jobId() != null) {
      text.append("job: ").append(n.jobId().value()).append('\n');
    }
    new TreeMap<>(n.data()).forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
    return text.toString();
  }

  /** Settings of an email notifier (timeout per attempt 20 s by default). */
  public static final class Builder extends Settings<Builder> {
    private final String host;
    private final int port;
    private final InternetAddress from;
    private final Map<String, List<InternetAddress>> groups = new LinkedHashMap<>();
    private String username;
    private String password;
    private boolean startTls;

    private Builder(String host, int port, String from) {
      super(Duration.ofSeconds(20));
      this.host = Objects.requireNonNull(host, "host");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("port must be 1..65535");
      }
      this.port = port;
      this.from = address(from);
    }

    private static InternetAddress address(String value) {
      try {
        InternetAddress parsed = new InternetAddress(Objects.requireNonNull(value, "address"), true);
        return parsed;
      } catch (AddressException e) {
        throw new IllegalArgumentException("not an email address: " + value, e);
      }
    }

    /** The addresses of a recipient group, e.g. {@code org-admins}. */
    public Builder group(String name, List<String> addresses) {
      List<InternetAddress> parsed = new ArrayList<>();
      addresses.forEach(a -> parsed.add(address(a.trim())));
      groups.put(name, List.copyOf(parsed));
      return this;
    }

    /** Log in to the server (the password from the environment or a secret store, never from code). */
    public Builder login(String user, String secret) {
      this.username = Objects.requireNonNull(user, "user");
      this.password = Objects.requireNonNull(secret, "password");
      return this;
    }

    /** Require STARTTLS (default off, for a local relay). */
    public Builder startTls(boolean value) {
      this.startTls = value;
      return this;
    }

    public EmailNotifier build() {
      return new EmailNotifier(this);
    }
  }
}

package dev.zop.provisioner.server.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty refuses some requests before any route sees them (an ambiguous or malformed URI, say). Those answers get
 * the API's error shape too, instead of Jetty's HTML page.
 */
public final class JsonErrorHandler extends ErrorHandler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus() >= 400 ? response.getStatus() : 400;
    String requestId = Dispatcher.newRequestId();
    String code = switch (status) {
      case 404 -> "no_such_route";
      case 413 -> "body_too_large";
      case 414 -> "uri_too_long";
      case 431 -> "headers_too_large";
      case 505 -> "http_version_not_supported";
      default -> status >= 500 ? "internal_error" : "bad_request";
    };
    // a protocol version the server does not speak is the client's to change, as any 4xx is
    boolean clients = status < 500 || status == 505;
    String body = "{\"error\":{\"code\":\"" + code + "\",\"message\":\"the request was refused (HTTP " + status
        + ") before it reached a route\",\"category\":\"" + (clients ? "user_action" : "system")
        + "\",\"requestId\":\"" + requestId + "\"}}";
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(Dispatcher.REQUEST_ID, requestId);
    // Jetty drops the connection after refusing a malformed request; saying so keeps a client that pools
    // connections from sending its next request down a closed one
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }
}

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
    String code = status == 404 ? "no_such_route" : status >= 500 ? "internal_error" : "bad_request";
    String body = "{\"error\":{\"code\":\"" + code + "\",\"message\":\"the request was refused (HTTP " + status
        + ") before it reached a route\",\"category\":\"" + (status >= 500 ? "system" : "user_action")
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

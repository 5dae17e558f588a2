package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.wire.WireJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/** One OkHttp client, the {@code {"data": ...}} envelope and the error mapping; every remote call goes through it. */
public final class HttpTransport {
  static final MediaType JSON = MediaType.get("application/json");

  private final OkHttpClient http;
  private final HttpUrl base;
  private final ObjectMapper json = WireJson.lenient();
  private final ReadAnswers readAnswers = new ReadAnswers();

  public HttpTransport(OkHttpClient http, HttpUrl base) {
    this.http = http;
    this.base = base;
  }

  public OkHttpClient http() {
    return http;
  }

  ObjectMapper json() {
    return json;
  }

  /** The principal the bearer token names. */
  public Principal whoAmI() {
    return get(Principal.class, "me");
  }

  /** The component catalog. */
  public List<CatalogComponent> catalog() {
    return get(new com.fasterxml.jackson.core.type.TypeReference<List<CatalogComponent>>() {}.getType(),
        "catalog", "components");
  }

  /** Every item of a paged list, following {@code nextCursor} from page to page. */
  <T> List<T> all(Class<T> item, String... segments) {
    JavaType pageType = json.getTypeFactory().constructParametricType(Page.class, item);
    List<T> items = new java.util.ArrayList<>();
    String cursor = null;
    do {
      HttpUrl.Builder url = url(segments).addQueryParameter("limit", "500");
      if (cursor != null) {
        url.addQueryParameter("cursor", cursor);
      }
      Page<T> page = get(url.build(), pageType);
      items.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null);
    return items;
  }

  HttpUrl.Builder url(String... segments) {
    HttpUrl.Builder url = base.newBuilder();
    for (String segment : segments) {
      url.addPathSegment(segment); // encoded here, so an id can never change the path
    }
    return url;
  }

  <T> T get(Type type, String... segments) {
    return call("GET", url(segments).build(), null, type);
  }

  <T> T get(HttpUrl url, Type type) {
    return call("GET", url, null, type);
  }

  <T> T send(String method, Object body, Type type, String... segments) {
    return call(method, url(segments).build(), body, type);
  }

  <T> T send(String method, Object body, Type type, Map<String, String> headers, String... segments) {
    return call(method, url(segments).build(), body, type, headers);
  }

  <T> T call(String method, HttpUrl url, Object body, Type type) {
    return call(method, url, body, type, Map.of());
  }

  <T> T call(String method, HttpUrl url, Object body, Type type, Map<String, String> headers) {
    Request.Builder request = new Request.Builder().url(url).header("Accept", "application/json");
    headers.forEach(request::header);
    boolean get = method.equals("GET");
    ReadAnswers.Read read = get ? readAnswers.find(url, type) : null;
    if (read != null) {
      request.header("If-None-Match", read.etag());
    }
    request.method(method, body == null ? (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
        ? RequestBody.create(new byte[0], JSON) : null) : RequestBody.create(write(body), JSON));
    Call call = http.newCall(request.build());
    try (Response response = call.execute()) {
      byte[] bytes = response.body().bytes();
      if (response.code() == 304 && read != null) {
        @SuppressWarnings("unchecked")
        T same = (T) read.value(); // the service found the answer unchanged, byte for byte
        return same;
      }
      if (!response.isSuccessful()) {
        throw RemoteErrors.toException(response.code(), bytes, json, response.header("X-Request-Id"));
      }
      if (type == Void.class || response.code() == 204) {
        return null;
      }
      // read in one pass into the envelope's type: a tree first and a conversion after cost more than the call
      JavaType target = json.getTypeFactory().constructType(type);
      boolean page = target.getRawClass() == Page.class;
      JavaType data = page ? json.getTypeFactory().constructCollectionType(List.class, target.containedType(0))
          : target;
      Envelope<?> envelope = json.readValue(bytes,
          json.getTypeFactory().constructParametricType(Envelope.class, data));
      @SuppressWarnings("unchecked")
      T result = (T) (page ? new Page<>((List<?>) envelope.data, envelope.nextCursor) : envelope.data);
      if (get) {
        readAnswers.keep(url, type, response.header("ETag"), result, bytes.length);
      }
      return result;
    } catch (IOException e) {
      throw new ProviderException(RemoteErrors.unreachable(url, e));
    }
  }

  ResponseBody stream(Request request) throws IOException {
    Response response = http.newCall(request).execute();
    if (!response.isSuccessful()) {
      byte[] bytes = response.body().bytes();
      response.close();
      throw RemoteErrors.toException(response.code(), bytes, json, response.header("X-Request-Id"));
    }
    return response.body();
  }

  private byte[] write(Object body) {
    try {
      return json.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A response body: {@code {"data": ...}}, with {@code nextCursor} beside the items of a page. */
  static final class Envelope<T> {
    public T data;
    public String nextCursor;
  }
}

package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.Spaces;
import dev.zop.provisioner.client.wire.Requests.SpaceStatusChange;
import java.util.List;

/** {@link Spaces} over {@code /spaces}. */
public final class RemoteSpaces implements Spaces {
  private static final TypeReference<List<Space>> LIST = new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteSpaces(HttpTransport http) {
    this.http = http;
  }

  @Override
  public Space create(SpaceRequest request) {
    return http.send("POST", request, Space.class, "spaces");
  }

  @Override
  public Space get(SpaceId id) {
    return http.get(Space.class, "spaces", id.value());
  }

  @Override
  public List<Space> list() {
    return http.get(LIST.getType(), "spaces");
  }

  @Override
  public Space setStatus(SpaceId id, SpaceStatus status) {
    return http.send("PATCH", new SpaceStatusChange(status.wireName()), Space.class, "spaces", id.value(),
        "status");
  }

  @Override
  public Kubeconfig kubeconfig(SpaceId id) {
    return http.send("POST", null, Kubeconfig.class, "spaces", id.value(), "kubeconfig");
  }

  @Override
  public void delete(SpaceId id) {
    http.send("DELETE", null, Void.class, "spaces", id.value());
  }
}

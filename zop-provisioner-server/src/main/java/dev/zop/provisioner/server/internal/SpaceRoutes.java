package dev.zop.provisioner.server.internal;

import static dev.zop.provisioner.server.internal.Routes.account;
import static dev.zop.provisioner.server.internal.Routes.page;
import static dev.zop.provisioner.server.internal.Routes.space;
import static dev.zop.provisioner.server.internal.Routes.touched;

import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.wire.Requests.CreateNamespace;
import dev.zop.provisioner.wire.Requests.SpaceStatusChange;
import java.util.List;

/** Cloud accounts, cluster access, spaces, discovery and namespaces. */
final class SpaceRoutes {
  private SpaceRoutes() {}

  static void register(Routes r) {
    accounts(r);
    spaces(r);
  }

  private static void accounts(Routes r) {
    r.route("GET", "/providers", Operation.PROVIDERS_LIST, "The cloud providers this service has loaded", 200,
        call -> call.zop().accounts().providers());
    r.route("GET", "/cloud-accounts", Operation.ACCOUNTS_LIST, "List cloud accounts", 200,
        call -> page(call, call.zop().accounts().list(), a -> a.id().value()));
    r.route("POST", "/cloud-accounts", Operation.ACCOUNTS_CREATE,
        "Connect a cloud account (credentials by reference)", 201,
        call -> touched(call, call.zop().accounts().create(call.body(CloudAccountRequest.class))));
    r.route("GET", "/cloud-accounts/{accountID}", Operation.ACCOUNTS_GET, "Get a cloud account", 200,
        call -> call.zop().accounts().get(account(call)));
    r.route("GET", "/cloud-accounts/{accountID}/clusters", Operation.ACCOUNTS_LIST_CLUSTERS,
        "List clusters discovered on the cloud account in ?region= (default: the account's region property)", 200,
        call -> call.zop().accounts().clusters(account(call), call.query("region")));
    String access = "/cloud-accounts/{accountID}/clusters/{region}/{clusterName}/access";
    r.routeWithoutBody("PUT", access, Operation.ACCOUNTS_REGISTER_CLUSTER_ACCESS,
        "Register a cluster on a cloud account for kubeconfig minting", 200,
        call -> call.zop().accounts().registerClusterAccess(account(call), call.path("region"),
            call.path("clusterName")));
    r.route("DELETE", access, Operation.ACCOUNTS_REVOKE_CLUSTER_ACCESS, "Revoke cluster access", 204, call -> {
      call.zop().accounts().revokeClusterAccess(account(call), call.path("region"), call.path("clusterName"));
      return null;
    });
  }
  private static void spaces(Routes r) {
    r.route("GET", "/spaces", Operation.SPACES_LIST, "List deployment spaces", 200,
        call -> page(call, call.zop().spaces().list(), sp -> sp.id().value()));
    r.route("POST", "/spaces", Operation.SPACES_CREATE, "Register a cluster as a deployment space", 201,
        call -> touched(call, call.zop().spaces().create(call.body(SpaceRequest.class))));
    r.route("GET", "/spaces/{spaceID}", Operation.SPACES_GET, "Get a space (credentials stripped)", 200,
        call -> call.zop().spaces().get(space(call)));
    r.route("PATCH", "/spaces/{spaceID}/status", Operation.SPACES_SET_STATUS,
        "Make a space active or inactive", 200, call -> {
      SpaceStatusChange change = call.body(SpaceStatusChange.class);
      if (change.status() == null) {
        throw new ValidationException(List.of(FieldError.required("status")));
      }
      return call.zop().spaces().setStatus(space(call), SpaceStatus.fromWire(change.status()));
    });
    r.route("DELETE", "/spaces/{spaceID}", Operation.SPACES_DELETE, "Delete a space that holds no jobs", 204, call -> {
      call.zop().spaces().delete(space(call));
      return null;
    });
    r.routeWithoutBody("POST", "/spaces/{spaceID}/kubeconfig", Operation.SPACES_KUBECONFIG,
        "Mint a short-lived kubeconfig for the space's cluster", 200,
        call -> call.zop().spaces().kubeconfig(space(call)));
    r.route("GET", "/space-discovery/{spaceID}/namespaces", Operation.NAMESPACES_LIST,
        "List namespaces on the space", 200,
        call -> call.zop().spaces().namespaces(space(call)).list());
    r.route("POST", "/space-discovery/{spaceID}/namespaces", Operation.NAMESPACES_CREATE,
        "Create a namespace on the space",
        201, call -> {
          CreateNamespace body = call.body(CreateNamespace.class);
          if (body.name() == null) {
            throw new ValidationException(List.of(FieldError.required("name")));
          }
          return call.zop().spaces().namespaces(space(call)).create(body.name());
        });
    r.route("GET", "/space-discovery/{spaceID}/networks", Operation.SPACES_DISCOVER,
        "VPCs/VNets in the space's account and region", 200,
        call -> call.zop().spaces().discovery(space(call)).networks());
    r.route("GET", "/space-discovery/{spaceID}/subnets", Operation.SPACES_DISCOVER,
        "Subnets in the space's account and region (?networkID= for one network)", 200,
        call -> call.zop().spaces().discovery(space(call)).subnets(call.query("networkID")));
    r.route("GET", "/space-discovery/{spaceID}/dns-zones", Operation.SPACES_DISCOVER,
        "DNS zones of the space's account", 200,
        call -> call.zop().spaces().discovery(space(call)).dnsZones());
    r.route("GET", "/spaces/{spaceID}/cost", Operation.SPACES_GET,
        "What the space's succeeded jobs cost a month at list prices", 200,
        call -> call.zop().spaces().cost(space(call)));
    r.route("GET", "/space-costs", Operation.SPACES_LIST,
        "What each space holding a succeeded job costs a month at list prices, in one answer", 200,
        call -> call.zop().spaces().costs());
    r.route("GET", "/space-discovery/{spaceID}/offerings", Operation.SPACES_DISCOVER,
        "What the space's provider offers in its region: sizes with their list prices, and versions", 200,
        call -> call.zop().spaces().offerings(space(call)));
    r.route("GET", "/space-discovery/{spaceID}/clusters", Operation.SPACES_DISCOVER,
        "Kubernetes clusters in the space's account and region", 200,
        call -> call.zop().spaces().discovery(space(call)).clusters());
  }
}

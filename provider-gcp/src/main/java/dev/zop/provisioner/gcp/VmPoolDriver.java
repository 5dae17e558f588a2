package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.cloud.compute.v1.AttachedDisk;
import com.google.cloud.compute.v1.AttachedDiskInitializeParams;
import com.google.cloud.compute.v1.Autoscaler;
import com.google.cloud.compute.v1.AutoscalingPolicy;
import com.google.cloud.compute.v1.AutoscalingPolicyCpuUtilization;
import com.google.cloud.compute.v1.Backend;
import com.google.cloud.compute.v1.BackendService;
import com.google.cloud.compute.v1.Firewall;
import com.google.cloud.compute.v1.ForwardingRule;
import com.google.cloud.compute.v1.HTTPHealthCheck;
import com.google.cloud.compute.v1.HealthCheck;
import com.google.cloud.compute.v1.FixedOrPercent;
import com.google.cloud.compute.v1.InstanceGroupManager;
import com.google.cloud.compute.v1.InstanceGroupManagerUpdatePolicy;
import com.google.cloud.compute.v1.InstanceGroupManagerVersion;
import com.google.cloud.compute.v1.InstanceProperties;
import com.google.cloud.compute.v1.InstanceTemplate;
import com.google.cloud.compute.v1.NamedPort;
import com.google.cloud.compute.v1.NetworkInterface;
import com.google.cloud.compute.v1.TCPHealthCheck;
import com.google.cloud.compute.v1.Tags;
import com.google.cloud.compute.v1.TargetHttpProxy;
import com.google.cloud.compute.v1.TargetHttpsProxy;
import com.google.cloud.compute.v1.UrlMap;
import com.google.protobuf.Message;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A regional managed instance group from an instance template, sized by a regional autoscaler between the spec's
 * min and max, optionally behind a load balancer:
 *
 * <ul>
 *   <li>{@code application}: Google's global external HTTP(S) load balancer — health check, backend service over
 *       the group, URL map, a target proxy and a global forwarding rule per listener port; 443 is HTTPS with the
 *       SSL certificate named in {@code certificateArn}, and refused without one;</li>
 *   <li>{@code network}: a regional external passthrough network load balancer — TCP health check, regional
 *       backend service, one forwarding rule for all listener ports (TLS on 443 passes through to the
 *       instances).</li>
 * </ul>
 *
 * <p>Firewall rules open only the listener ports (to Google's front ends and health checkers for the HTTP(S)
 * load balancer, whose traffic comes from them; to any client for the passthrough one, plus the health
 * checkers); without a load balancer nothing is opened. Every resource is named from the pool's name and carries
 * its job in its description; teardown goes in reverse, each resource waited out before the one it uses.
 */
final class VmPoolDriver implements ResourceDriver<VmPoolSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> INSTANCE_TEMPLATE = OutputKey.text("instanceTemplate");
  /**
   * The template a rolling replacement retires, until it is deleted (then empty): recorded before the new one is
   * made, so a teardown after an interrupted replacement removes both.
   */
  static final OutputKey<String> RETIRING_TEMPLATE = OutputKey.text("retiringTemplate");
  static final OutputKey<String> INSTANCE_GROUP_MANAGER = OutputKey.text("instanceGroupManager");
  static final OutputKey<String> INSTANCE_GROUP = OutputKey.text("instanceGroup");
  static final OutputKey<String> HEALTH_CHECK = OutputKey.text("healthCheck");
  static final OutputKey<String> BACKEND_SERVICE = OutputKey.text("backendService");
  static final OutputKey<String> URL_MAP = OutputKey.text("urlMap");
  static final OutputKey<String> HTTP_PROXY = OutputKey.text("httpProxy");
  static final OutputKey<String> HTTPS_PROXY = OutputKey.text("httpsProxy");
  static final OutputKey<String> LOAD_BALANCER_ADDRESS = OutputKey.text("loadBalancerAddress");

  static final String DEFAULT_IMAGE = "projects/debian-cloud/global/images/family/debian-12";
  static final String APPLICATION = "application";
  static final String NETWORK = "network";
  /** Where Google's front ends and health checkers connect from. */
  static final List<String> GOOGLE_FRONT_ENDS = List.of("130.211.0.0/22", "35.191.0.0/16");
  /** Where health checks of passthrough network load balancers come from. */
  static final List<String> NETWORK_LB_HEALTH_CHECKERS = List.of("35.191.0.0/16", "209.85.152.0/22",
      "209.85.204.0/22");

  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;
  private final ComputeResources resources;
  private final StatusPoll poll;

  VmPoolDriver(DriverContext<GcpClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.project = context.scope(GcpSession.PROJECT);
    this.region = context.region().get();
    this.resources = new ComputeResources(calls, new ComputeOperations(clients, calls, project, context.poll()),
        context.poll());
    this.poll = context.poll();
  }

  @Override
  public Class<VmPoolSpec> specType() {
    return VmPoolSpec.class;
  }

  @Override
  public Defaulted<VmPoolSpec> withDefaults(VmPoolSpec spec) {
    List<PlanDefault> filled = new ArrayList<>();
    VmPoolSpec.Builder builder = spec.toBuilder();
    builder.instanceType(MachineTypes.SIZES.resolve("instanceType", spec.instanceType(), MachineTypes.KIND, filled));
    if (spec.imageId() == null) {
      builder.imageId(DEFAULT_IMAGE);
      filled.add(new PlanDefault("imageId", DEFAULT_IMAGE, "the current Debian 12 image of Google's debian-cloud"
          + " project"));
    }
    if (spec.vpcId() == null) {
      builder.vpcId("default");
      filled.add(new PlanDefault("vpcID", "default", "the project's default network"));
    }
    if (spec.createLoadBalancer() && spec.loadBalancerType() == null) {
      boolean tls = spec.listenerPorts().contains(443) && spec.certificateArn() == null;
      String type = tls ? NETWORK : APPLICATION;
      builder.loadBalancer(true, type);
      filled.add(new PlanDefault("loadBalancerType", type, tls
          ? "443 without a certificate: a passthrough network load balancer carries TLS to the instances"
          : "HTTP ports: Google's external HTTP(S) load balancer"));
    }
    return new Defaulted<>(builder.build(), filled);
  }

  @Override
  public List<FieldError> validate(VmPoolSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (MachineSizes.readsAsAwsType(spec.instanceType())) {
      errors.add(FieldError.of("instanceType", "unknown_machine_type", "no GCP machine type is known for "
          + spec.instanceType() + "; name a Compute Engine machine type such as e2-standard-2"));
    }
    if (spec.imageId() != null && spec.imageId().startsWith("ami-")) {
      errors.add(FieldError.of("imageId", "invalid_value", "an AMI is an AWS image; on GCP name an image or image"
          + " family, e.g. " + DEFAULT_IMAGE));
    }
    if (spec.createLoadBalancer() && APPLICATION.equals(spec.loadBalancerType())
        && spec.listenerPorts().contains(443) && spec.certificateArn() == null) {
      errors.add(FieldError.of("certificateArn", "required", "port 443 on an HTTP(S) load balancer is HTTPS: name"
          + " the SSL certificate (its name or URL) it serves, or use loadBalancerType network to pass TLS through"));
    }
    if (spec.createLoadBalancer() && NETWORK.equals(spec.loadBalancerType()) && spec.listenerPorts().size() > 5) {
      errors.add(FieldError.of("listenerPorts", "too_many", "a network load balancer's forwarding rule takes at"
          + " most 5 ports"));
    }
    return errors;
  }

  // ---- steps -------------------------------------------------------------------------------------------

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(VmPoolDriver.class).and(OutputKeys.of(GcpState.PART, GcpState.OPERATION, GcpState.ID,
        GcpState.SELF_LINK));
  }

  @Override
  public List<Step> create(VmPoolSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-instance-template", List.of(COMPUTE_INSTANCE_TEMPLATES_GET,
        COMPUTE_INSTANCE_TEMPLATES_CREATE, COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensure(ctx,
        template(ctx, spec))));
    steps.add(ProviderStep.of("create-instance-group", List.of(COMPUTE_INSTANCE_GROUP_MANAGERS_GET,
        COMPUTE_INSTANCE_GROUP_MANAGERS_CREATE, COMPUTE_REGION_OPERATIONS_GET), ctx -> resources.ensure(ctx,
        group(ctx, spec))));
    steps.add(ProviderStep.of("create-autoscaler", List.of(COMPUTE_AUTOSCALERS_GET, COMPUTE_AUTOSCALERS_CREATE,
        COMPUTE_REGION_OPERATIONS_GET), ctx -> resources.ensure(ctx, autoscaler(ctx, spec))));
    if (!spec.createLoadBalancer()) {
      return steps;
    }
    steps.add(ProviderStep.of("create-firewall-rules", List.of(COMPUTE_FIREWALLS_GET, COMPUTE_FIREWALLS_CREATE,
        COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensureAll(ctx, firewalls(ctx, spec))));
    if (APPLICATION.equals(spec.loadBalancerType())) {
      steps.add(ProviderStep.of("create-health-check", List.of(COMPUTE_HEALTH_CHECKS_GET,
          COMPUTE_HEALTH_CHECKS_CREATE, COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensure(ctx,
          httpHealthCheck(ctx, spec))));
      steps.add(ProviderStep.of("create-backend-service", List.of(COMPUTE_BACKEND_SERVICES_GET,
          COMPUTE_BACKEND_SERVICES_CREATE, COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensure(ctx,
          globalBackend(ctx, spec))));
      steps.add(ProviderStep.of("create-url-map", List.of(COMPUTE_URL_MAPS_GET, COMPUTE_URL_MAPS_CREATE,
          COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensure(ctx, urlMap(ctx, spec))));
      steps.add(proxiesStep(spec));
      steps.add(globalRulesStep(spec));
    } else {
      steps.add(ProviderStep.of("create-health-check", List.of(COMPUTE_REGION_HEALTH_CHECKS_GET,
          COMPUTE_REGION_HEALTH_CHECKS_CREATE, COMPUTE_REGION_OPERATIONS_GET), ctx -> resources.ensure(ctx,
          tcpHealthCheck(ctx, spec))));
      steps.add(ProviderStep.of("create-backend-service", List.of(COMPUTE_REGION_BACKEND_SERVICES_GET,
          COMPUTE_REGION_BACKEND_SERVICES_CREATE, COMPUTE_REGION_OPERATIONS_GET), ctx -> resources.ensure(ctx,
          regionalBackend(ctx, spec))));
      steps.add(ProviderStep.of("create-forwarding-rule", List.of(COMPUTE_FORWARDING_RULES_GET,
          COMPUTE_FORWARDING_RULES_CREATE, COMPUTE_REGION_OPERATIONS_GET), ctx -> resources.ensure(ctx,
          regionalRule(ctx, spec))));
    }
    return steps;
  }

  @Override
  public List<Step> teardown(VmPoolSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (spec.createLoadBalancer() && APPLICATION.equals(spec.loadBalancerType())) {
      steps.add(ProviderStep.of("delete-forwarding-rules", List.of(COMPUTE_GLOBAL_FORWARDING_RULES_GET,
          COMPUTE_GLOBAL_FORWARDING_RULES_DELETE), ctx -> resources.removeAll(spec.listenerPorts().stream()
          .<Supplier<StepResult>>map(port -> () -> resources.remove(ctx, "forwarding rule " + ruleName(spec, port),
              () -> find(COMPUTE_GLOBAL_FORWARDING_RULES_GET, () -> clients.globalForwardingRules().get(project,
                  ruleName(spec, port))), COMPUTE_GLOBAL_FORWARDING_RULES_DELETE,
              () -> clients.globalForwardingRules().deleteCallable().call(
                  com.google.cloud.compute.v1.DeleteGlobalForwardingRuleRequest.newBuilder().setProject(project)
                      .setForwardingRule(ruleName(spec, port)).build()))).toList())));
      steps.add(ProviderStep.of("delete-target-proxies", List.of(COMPUTE_TARGET_HTTP_PROXIES_GET,
          COMPUTE_TARGET_HTTP_PROXIES_DELETE, COMPUTE_TARGET_HTTPS_PROXIES_GET, COMPUTE_TARGET_HTTPS_PROXIES_DELETE),
          ctx -> resources.removeAll(List.of(() -> removeProxy(ctx, spec, false),
              () -> removeProxy(ctx, spec, true)))));
      steps.add(ProviderStep.of("delete-url-map", List.of(COMPUTE_URL_MAPS_GET, COMPUTE_URL_MAPS_DELETE),
          ctx -> resources.remove(ctx, "URL map " + spec.name(), () -> find(COMPUTE_URL_MAPS_GET,
              () -> clients.urlMaps().get(project, spec.name())), COMPUTE_URL_MAPS_DELETE,
              () -> clients.urlMaps().deleteCallable().call(com.google.cloud.compute.v1.DeleteUrlMapRequest
                  .newBuilder().setProject(project).setUrlMap(spec.name()).build()))));
      steps.add(ProviderStep.of("delete-backend-service", List.of(COMPUTE_BACKEND_SERVICES_GET,
          COMPUTE_BACKEND_SERVICES_DELETE), ctx -> resources.remove(ctx, "backend service " + spec.name(),
          () -> find(COMPUTE_BACKEND_SERVICES_GET, () -> clients.backendServices().get(project, spec.name())),
          COMPUTE_BACKEND_SERVICES_DELETE, () -> clients.backendServices().deleteCallable().call(
              com.google.cloud.compute.v1.DeleteBackendServiceRequest.newBuilder().setProject(project)
                  .setBackendService(spec.name()).build()))));
      steps.add(ProviderStep.of("delete-health-check", List.of(COMPUTE_HEALTH_CHECKS_GET,
          COMPUTE_HEALTH_CHECKS_DELETE), ctx -> resources.remove(ctx, "health check " + spec.name(),
          () -> find(COMPUTE_HEALTH_CHECKS_GET, () -> clients.healthChecks().get(project, spec.name())),
          COMPUTE_HEALTH_CHECKS_DELETE, () -> clients.healthChecks().deleteCallable().call(
              com.google.cloud.compute.v1.DeleteHealthCheckRequest.newBuilder().setProject(project)
                  .setHealthCheck(spec.name()).build()))));
    } else if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("delete-forwarding-rule", List.of(COMPUTE_FORWARDING_RULES_GET,
          COMPUTE_FORWARDING_RULES_DELETE), ctx -> resources.remove(ctx, "forwarding rule " + spec.name(),
          () -> find(COMPUTE_FORWARDING_RULES_GET, () -> clients.forwardingRules().get(project, region, spec.name())),
          COMPUTE_FORWARDING_RULES_DELETE, () -> clients.forwardingRules().deleteCallable().call(
              com.google.cloud.compute.v1.DeleteForwardingRuleRequest.newBuilder().setProject(project)
                  .setRegion(region).setForwardingRule(spec.name()).build()))));
      steps.add(ProviderStep.of("delete-backend-service", List.of(COMPUTE_REGION_BACKEND_SERVICES_GET,
          COMPUTE_REGION_BACKEND_SERVICES_DELETE), ctx -> resources.remove(ctx, "backend service " + spec.name(),
          () -> find(COMPUTE_REGION_BACKEND_SERVICES_GET, () -> clients.regionBackendServices().get(project, region,
              spec.name())), COMPUTE_REGION_BACKEND_SERVICES_DELETE, () -> clients.regionBackendServices()
              .deleteCallable().call(com.google.cloud.compute.v1.DeleteRegionBackendServiceRequest.newBuilder()
                  .setProject(project).setRegion(region).setBackendService(spec.name()).build()))));
      steps.add(ProviderStep.of("delete-health-check", List.of(COMPUTE_REGION_HEALTH_CHECKS_GET,
          COMPUTE_REGION_HEALTH_CHECKS_DELETE), ctx -> resources.remove(ctx, "health check " + spec.name(),
          () -> find(COMPUTE_REGION_HEALTH_CHECKS_GET, () -> clients.regionHealthChecks().get(project, region,
              spec.name())), COMPUTE_REGION_HEALTH_CHECKS_DELETE, () -> clients.regionHealthChecks().deleteCallable()
              .call(com.google.cloud.compute.v1.DeleteRegionHealthCheckRequest.newBuilder().setProject(project)
                  .setRegion(region).setHealthCheck(spec.name()).build()))));
    }
    if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("delete-firewall-rules", List.of(COMPUTE_FIREWALLS_GET, COMPUTE_FIREWALLS_DELETE),
          ctx -> resources.removeAll(firewallNames(spec).stream().<Supplier<StepResult>>map(name -> () ->
              resources.remove(ctx, "firewall rule " + name, () -> find(COMPUTE_FIREWALLS_GET,
                  () -> clients.firewalls().get(project, name)), COMPUTE_FIREWALLS_DELETE,
                  () -> clients.firewalls().deleteCallable().call(com.google.cloud.compute.v1.DeleteFirewallRequest
                      .newBuilder().setProject(project).setFirewall(name).build()))).toList())));
    }
    steps.add(ProviderStep.of("delete-autoscaler", List.of(COMPUTE_AUTOSCALERS_GET, COMPUTE_AUTOSCALERS_DELETE),
        ctx -> resources.remove(ctx, "autoscaler " + spec.name(), () -> find(COMPUTE_AUTOSCALERS_GET,
            () -> clients.autoscalers().get(project, region, spec.name())), COMPUTE_AUTOSCALERS_DELETE,
            () -> clients.autoscalers().deleteCallable().call(com.google.cloud.compute.v1.DeleteRegionAutoscalerRequest
                .newBuilder().setProject(project).setRegion(region).setAutoscaler(spec.name()).build()))));
    steps.add(ProviderStep.of("delete-instance-group", List.of(COMPUTE_INSTANCE_GROUP_MANAGERS_GET,
        COMPUTE_INSTANCE_GROUP_MANAGERS_DELETE), ctx -> resources.remove(ctx, "instance group " + spec.name(),
        () -> find(COMPUTE_INSTANCE_GROUP_MANAGERS_GET, () -> clients.instanceGroupManagers().get(project, region,
            spec.name())), COMPUTE_INSTANCE_GROUP_MANAGERS_DELETE, () -> clients.instanceGroupManagers()
            .deleteCallable().call(com.google.cloud.compute.v1.DeleteRegionInstanceGroupManagerRequest.newBuilder()
                .setProject(project).setRegion(region).setInstanceGroupManager(spec.name()).build()))));
    String template = recorded.has(INSTANCE_TEMPLATE) ? lastSegment(recorded.get(INSTANCE_TEMPLATE))
        : templateName(spec);
    String retiring = recorded.has(RETIRING_TEMPLATE) ? recorded.get(RETIRING_TEMPLATE) : "";
    steps.add(ProviderStep.of("delete-instance-template", List.of(COMPUTE_INSTANCE_TEMPLATES_GET,
        COMPUTE_INSTANCE_TEMPLATES_DELETE), ctx -> resources.removeAll(java.util.stream.Stream.of(retiring, template)
            .filter(name -> !name.isEmpty()).map(name -> (Supplier<StepResult>) () -> removeTemplate(ctx, name))
            .toList())));
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return GcpPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(VmPoolSpec spec, String priceRegion) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(GcpPrices.TABLE.hourly(priceRegion, spec.instanceType() + " x" + spec.min() + " (the pool's minimum)",
        "compute:" + spec.instanceType(), spec.min()));
    if (spec.createLoadBalancer()) {
      int rules = APPLICATION.equals(spec.loadBalancerType()) ? spec.listenerPorts().size() : 1;
      costs.add(GcpPrices.TABLE.hourly(priceRegion, "load balancer forwarding rules", "compute:forwarding-rule",
          rules));
    }
    return costs;
  }

  // ---- what each step wants ----------------------------------------------------------------------------

  private <T extends Message> T find(String permission, Supplier<T> get) {
    return calls.findOrNull(permission, get);
  }

  /**
   * A pool's min and max change in its autoscaler (one patch). A new machine type is a rolling replacement, as
   * Compute Engine makes one: instance templates cannot change, so a template of the new type is made, the group
   * is told to run it with a proactive update (replacing instances, none unavailable, a surge of new ones while
   * the old drain), the job waits until the group is stable on it, and the old template is deleted. Listeners are
   * not changed yet: refused by field.
   */
  @Override
  public Revision revise(VmPoolSpec current, VmPoolSpec revised, Outputs recorded) {
    if (!recorded.has(INSTANCE_GROUP_MANAGER)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    if (!current.instanceType().equals(revised.instanceType())) {
      String old = recorded.has(INSTANCE_TEMPLATE) ? lastSegment(recorded.get(INSTANCE_TEMPLATE))
          : templateName(current);
      String made = templateName(revised) + "-" + revised.instanceType();
      String next = made.equals(old) ? templateName(revised) : made;
      steps.add(ProviderStep.each("create-instance-template", revised.instanceType(), List.of(
          COMPUTE_INSTANCE_TEMPLATES_GET, COMPUTE_INSTANCE_TEMPLATES_CREATE, COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> {
            ctx.recordIntent(Map.ofEntries(RETIRING_TEMPLATE.is(old)));
            return resources.ensure(ctx, template(ctx, revised, next));
          }));
      steps.add(ProviderStep.of("roll-instance-group", List.of(COMPUTE_INSTANCE_GROUP_MANAGERS_GET,
          COMPUTE_INSTANCE_GROUP_MANAGERS_UPDATE), ctx -> rollGroup(ctx, revised)));
      steps.add(ProviderStep.each("delete-instance-template", old, List.of(COMPUTE_INSTANCE_TEMPLATES_GET,
          COMPUTE_INSTANCE_TEMPLATES_DELETE), ctx -> {
            StepResult removed = removeTemplate(ctx, old);
            return removed instanceof StepResult.Done ? StepResult.done(RETIRING_TEMPLATE.is("")) : removed;
          }));
    }
    if (!current.min().equals(revised.min()) || !current.max().equals(revised.max())) {
      steps.add(ProviderStep.of("update-autoscaler", List.of(COMPUTE_AUTOSCALERS_GET, COMPUTE_AUTOSCALERS_UPDATE),
          ctx -> updateAutoscaler(ctx, revised)));
    }
    Revision refusals = Revision.none();
    boolean application = APPLICATION.equals(current.loadBalancerType());
    if (!current.listenerPorts().equals(revised.listenerPorts()) && current.createLoadBalancer()) {
      if (!revised.createLoadBalancer() || !current.loadBalancerType().equals(revised.loadBalancerType())) {
        refusals.refuse("listenerPorts", "listener_change", "a pool keeps its kind of load balancer: create a new"
            + " pool for another");
      } else if (application) {
        applicationListenerChanges(current, revised, steps);
      } else {
        Step firewalls = ProviderStep.of("update-firewall-rules", List.of(COMPUTE_FIREWALLS_GET,
            COMPUTE_FIREWALLS_UPDATE), ctx -> updateFirewalls(ctx, revised));
        boolean opening = revised.listenerPorts().containsAll(current.listenerPorts());
        if (opening) {
          steps.add(firewalls);
        }
        steps.add(ProviderStep.of("replace-forwarding-rule", List.of(COMPUTE_FORWARDING_RULES_GET,
            COMPUTE_FORWARDING_RULES_DELETE, COMPUTE_FORWARDING_RULES_CREATE, COMPUTE_REGION_OPERATIONS_GET),
            ctx -> replaceRule(ctx, revised)));
        if (!opening) {
          steps.add(firewalls);
        }
      }
    }
    Revision revision = Revision.of(steps).inPlace("min", "max").replaces("instanceType", "the pool's instances"
        + " are replaced by instances of the new type, a few at a time with none unavailable: what is on their"
        + " disks is lost");
    if (application) {
      revision.inPlace("listenerPorts");
    } else {
      revision.replaces("listenerPorts", "a forwarding rule's ports cannot change: it is made again with the new"
          + " ports, and the load balancer's address changes");
    }
    refusals.refused().forEach(e -> revision.refuse(e.field(), e.code(), e.message()));
    return revision;
  }

  /**
   * An application load balancer's ports: a port added is opened in the firewall, gets the proxy it needs (HTTPS
   * for 443, HTTP for the others) and a forwarding rule of its own; a port dropped loses its rule, and a proxy no
   * port uses any more goes with it, before the firewall closes.
   */
  private void applicationListenerChanges(VmPoolSpec current, VmPoolSpec revised, List<Step> steps) {
    Step firewalls = ProviderStep.of("update-firewall-rules", List.of(COMPUTE_FIREWALLS_GET,
        COMPUTE_FIREWALLS_UPDATE), ctx -> updateFirewalls(ctx, revised));
    boolean added = !current.listenerPorts().containsAll(revised.listenerPorts());
    if (added) {
      steps.add(firewalls);
      steps.add(proxiesStep(revised));
      steps.add(globalRulesStep(revised));
    }
    for (int port : current.listenerPorts()) {
      if (!revised.listenerPorts().contains(port)) {
        steps.add(ProviderStep.each("delete-forwarding-rule", port, List.of(COMPUTE_GLOBAL_FORWARDING_RULES_GET,
            COMPUTE_GLOBAL_FORWARDING_RULES_DELETE), ctx -> resources.remove(ctx, "forwarding rule "
                + ruleName(current, port), () -> find(COMPUTE_GLOBAL_FORWARDING_RULES_GET,
                    () -> clients.globalForwardingRules().get(project, ruleName(current, port))),
                COMPUTE_GLOBAL_FORWARDING_RULES_DELETE, () -> clients.globalForwardingRules().deleteCallable().call(
                    com.google.cloud.compute.v1.DeleteGlobalForwardingRuleRequest.newBuilder().setProject(project)
                        .setForwardingRule(ruleName(current, port)).build()))));
      }
    }
    boolean httpsGone = current.listenerPorts().contains(443) && !revised.listenerPorts().contains(443);
    boolean httpGone = current.listenerPorts().stream().anyMatch(p -> p != 443)
        && revised.listenerPorts().stream().allMatch(p -> p == 443);
    if (httpsGone || httpGone) {
      steps.add(ProviderStep.of("delete-target-proxy" + (httpsGone ? "-https" : "-http"), List.of(
          httpsGone ? COMPUTE_TARGET_HTTPS_PROXIES_GET : COMPUTE_TARGET_HTTP_PROXIES_GET,
          httpsGone ? COMPUTE_TARGET_HTTPS_PROXIES_DELETE : COMPUTE_TARGET_HTTP_PROXIES_DELETE),
          ctx -> removeProxy(ctx, current, httpsGone)));
    }
    if (!added) {
      steps.add(firewalls);
    }
  }

  /** The target proxies the spec's ports need (HTTP for any but 443, HTTPS for 443), made where missing. */
  private Step proxiesStep(VmPoolSpec spec) {
    return ProviderStep.of("create-target-proxies", List.of(COMPUTE_TARGET_HTTP_PROXIES_GET,
        COMPUTE_TARGET_HTTP_PROXIES_CREATE, COMPUTE_TARGET_HTTPS_PROXIES_GET, COMPUTE_TARGET_HTTPS_PROXIES_CREATE,
        COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensureAll(ctx, proxies(ctx, spec)));
  }

  /** A global forwarding rule for each of the spec's ports, made where missing. */
  private Step globalRulesStep(VmPoolSpec spec) {
    return ProviderStep.of("create-forwarding-rules", List.of(COMPUTE_GLOBAL_FORWARDING_RULES_GET,
        COMPUTE_GLOBAL_FORWARDING_RULES_CREATE, COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> resources.ensureAll(ctx,
        globalRules(ctx, spec)));
  }

  /** Deletes the pool's HTTPS or HTTP target proxy, if it is there and ours, and waits until it is gone. */
  private StepResult removeProxy(StepContext ctx, VmPoolSpec spec, boolean https) {
    String proxy = spec.name() + (https ? "-https" : "-http");
    return https
        ? resources.remove(ctx, "target proxy " + proxy, () -> find(COMPUTE_TARGET_HTTPS_PROXIES_GET,
            () -> clients.targetHttpsProxies().get(project, proxy)), COMPUTE_TARGET_HTTPS_PROXIES_DELETE,
            () -> clients.targetHttpsProxies().deleteCallable().call(com.google.cloud.compute.v1
                .DeleteTargetHttpsProxyRequest.newBuilder().setProject(project).setTargetHttpsProxy(proxy).build()))
        : resources.remove(ctx, "target proxy " + proxy, () -> find(COMPUTE_TARGET_HTTP_PROXIES_GET,
            () -> clients.targetHttpProxies().get(project, proxy)), COMPUTE_TARGET_HTTP_PROXIES_DELETE,
            () -> clients.targetHttpProxies().deleteCallable().call(com.google.cloud.compute.v1
                .DeleteTargetHttpProxyRequest.newBuilder().setProject(project).setTargetHttpProxy(proxy).build()));
  }

  /** The forwarding rule with the spec's ports: one with other ports deleted (waited out), then made again. */
  private StepResult replaceRule(StepContext ctx, VmPoolSpec spec) {
    ForwardingRule rule = find(COMPUTE_FORWARDING_RULES_GET, () -> clients.forwardingRules().get(project, region,
        spec.name()));
    List<String> ports = spec.listenerPorts().stream().map(String::valueOf).toList();
    if (rule != null && !rule.getPortsList().equals(ports)) {
      StepResult removed = resources.remove(ctx, "forwarding rule " + spec.name(), () -> find(
          COMPUTE_FORWARDING_RULES_GET, () -> clients.forwardingRules().get(project, region, spec.name())),
          COMPUTE_FORWARDING_RULES_DELETE, () -> clients.forwardingRules().deleteCallable().call(
              com.google.cloud.compute.v1.DeleteForwardingRuleRequest.newBuilder().setProject(project)
                  .setRegion(region).setForwardingRule(spec.name()).build()));
      if (!(removed instanceof StepResult.Done)) {
        return removed;
      }
    }
    return resources.ensure(ctx, regionalRule(ctx, spec));
  }

  /**
   * The load balancer's firewall rules opening the spec's ports (an application load balancer's one rule for
   * Google's front ends; a network one's for clients on every port and for the health checkers on the first), each
   * patched where it differs.
   */
  /** The rules a pool's load balancer needs, by name: the TCP ports each allows, and from where. */
  private static Map<String, Map.Entry<List<String>, List<String>>> wantedFirewalls(VmPoolSpec spec) {
    List<String> ports = spec.listenerPorts().stream().map(String::valueOf).toList();
    Map<String, Map.Entry<List<String>, List<String>>> wanted = new java.util.LinkedHashMap<>();
    if (APPLICATION.equals(spec.loadBalancerType())) {
      wanted.put(spec.name() + "-allow-lb", Map.entry(ports, GOOGLE_FRONT_ENDS));
    } else {
      wanted.put(spec.name() + "-allow-clients", Map.entry(ports, List.of("0.0.0.0/0")));
      wanted.put(spec.name() + "-allow-health-checks", Map.entry(List.of(ports.get(0)), NETWORK_LB_HEALTH_CHECKERS));
    }
    return wanted;
  }

  /**
   * The autoscaler's bounds and, behind a load balancer, each firewall rule's ports and sources, read back; the
   * autoscaler or a rule gone is missing.
   */
  @Override
  public CloudRead<List<Drift>> observe(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(INSTANCE_GROUP_MANAGER)) {
      return null;
    }
    return ProviderRead.of(List.of(COMPUTE_AUTOSCALERS_GET, COMPUTE_FIREWALLS_GET), () -> {
      DriftFindings found = new DriftFindings();
      Autoscaler autoscaler = find(COMPUTE_AUTOSCALERS_GET, () -> clients.autoscalers().get(project, region,
          spec.name()));
      if (autoscaler == null) {
        found.missing("autoscaler " + spec.name());
      } else {
        found.compare("autoscaler " + spec.name(), "min", spec.min(),
            autoscaler.getAutoscalingPolicy().getMinNumReplicas());
        found.compare("autoscaler " + spec.name(), "max", spec.max(),
            autoscaler.getAutoscalingPolicy().getMaxNumReplicas());
      }
      if (spec.createLoadBalancer()) {
        wantedFirewalls(spec).forEach((name, wanted) -> {
          Firewall rule = find(COMPUTE_FIREWALLS_GET, () -> clients.firewalls().get(project, name));
          String resource = "firewall rule " + name;
          if (rule == null) {
            found.missing(resource);
            return;
          }
          List<String> ports = rule.getAllowedList().stream().flatMap(a -> a.getPortsList().stream()).toList();
          found.compare(resource, "firewall.ports", String.join(",", wanted.getKey()), String.join(",", ports));
          found.compare(resource, "firewall.sourceRanges", String.join(",", wanted.getValue()),
              String.join(",", rule.getSourceRangesList()));
        });
      }
      return found.list();
    });
  }

  /**
   * The autoscaler's bounds and each firewall rule's ports and sources set back where they stand; what is right is
   * left. A rule or the autoscaler gone is not made again here: the drift check reports it missing.
   */
  @Override
  public Revision reconcile(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(INSTANCE_GROUP_MANAGER)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("update-autoscaler", List.of(COMPUTE_AUTOSCALERS_GET, COMPUTE_AUTOSCALERS_UPDATE),
        ctx -> updateAutoscaler(ctx, spec)));
    if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("restore-firewall-rules", List.of(COMPUTE_FIREWALLS_GET, COMPUTE_FIREWALLS_UPDATE),
          ctx -> restoreFirewalls(spec)));
    }
    return Revision.of(steps).inPlace("min", "max", "firewall");
  }

  /** Each rule patched back to the ports and sources the pool gives it, unless it has them. */
  private StepResult restoreFirewalls(VmPoolSpec spec) {
    for (Map.Entry<String, Map.Entry<List<String>, List<String>>> rule : wantedFirewalls(spec).entrySet()) {
      Firewall existing = find(COMPUTE_FIREWALLS_GET, () -> clients.firewalls().get(project, rule.getKey()));
      if (existing == null) {
        return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "firewall rule "
            + rule.getKey() + " is gone"));
      }
      List<String> ports = existing.getAllowedList().stream().flatMap(a -> a.getPortsList().stream()).toList();
      if (!ports.equals(rule.getValue().getKey()) || !existing.getSourceRangesList().equals(rule.getValue().getValue())) {
        calls.call(COMPUTE_FIREWALLS_UPDATE, () -> clients.firewalls().patchCallable().call(
            com.google.cloud.compute.v1.PatchFirewallRequest.newBuilder().setProject(project)
                .setFirewall(rule.getKey()).setFirewallResource(Firewall.newBuilder().setName(rule.getKey())
                    .addAllowed(com.google.cloud.compute.v1.Allowed.newBuilder().setIPProtocol("tcp")
                        .addAllPorts(rule.getValue().getKey())).addAllSourceRanges(rule.getValue().getValue()))
                .build()));
      }
    }
    return StepResult.done();
  }

  private StepResult updateFirewalls(StepContext ctx, VmPoolSpec spec) {
    List<String> ports = spec.listenerPorts().stream().map(String::valueOf).toList();
    Map<String, List<String>> wanted = new java.util.LinkedHashMap<>();
    if (APPLICATION.equals(spec.loadBalancerType())) {
      wanted.put(spec.name() + "-allow-lb", ports);
    } else {
      wanted.put(spec.name() + "-allow-clients", ports);
      wanted.put(spec.name() + "-allow-health-checks", List.of(ports.get(0)));
    }
    for (Map.Entry<String, List<String>> rule : wanted.entrySet()) {
      Firewall existing = find(COMPUTE_FIREWALLS_GET, () -> clients.firewalls().get(project, rule.getKey()));
      if (existing == null) {
        return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "firewall rule "
            + rule.getKey() + " is gone"));
      }
      if (!existing.getAllowed(0).getPortsList().equals(rule.getValue())) {
        calls.call(COMPUTE_FIREWALLS_UPDATE, () -> clients.firewalls().patchCallable().call(
            com.google.cloud.compute.v1.PatchFirewallRequest.newBuilder().setProject(project)
                .setFirewall(rule.getKey()).setFirewallResource(Firewall.newBuilder().setName(rule.getKey())
                    .addAllowed(com.google.cloud.compute.v1.Allowed.newBuilder().setIPProtocol("tcp")
                        .addAllPorts(rule.getValue()))).build()));
      }
    }
    return StepResult.done();
  }

  /**
   * Points the group at the job's latest template with a proactive rolling update, unless it runs it already, and
   * waits until the group is stable with every instance on it.
   */
  private StepResult rollGroup(StepContext ctx, VmPoolSpec spec) {
    InstanceGroupManager group = find(COMPUTE_INSTANCE_GROUP_MANAGERS_GET, () -> clients.instanceGroupManagers()
        .get(project, region, spec.name()));
    if (group == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "instance group "
          + spec.name() + " is gone"));
    }
    String template = ctx.outputs().require(INSTANCE_TEMPLATE);
    boolean runs = group.getVersionsList().stream().anyMatch(v -> template.equals(v.getInstanceTemplate()))
        || group.getVersionsCount() == 0 && template.equals(group.getInstanceTemplate());
    if (!runs) {
      // a surge of new instances (at least one a zone of the region), none of the old taken away first
      InstanceGroupManager patch = InstanceGroupManager.newBuilder()
          .addVersions(InstanceGroupManagerVersion.newBuilder().setName("current").setInstanceTemplate(template))
          .setUpdatePolicy(InstanceGroupManagerUpdatePolicy.newBuilder().setType("PROACTIVE")
              .setMinimalAction("REPLACE").setMaxSurge(FixedOrPercent.newBuilder().setFixed(3))
              .setMaxUnavailable(FixedOrPercent.newBuilder().setFixed(0)))
          .build();
      calls.call(COMPUTE_INSTANCE_GROUP_MANAGERS_UPDATE, () -> clients.instanceGroupManagers().patchCallable()
          .call(com.google.cloud.compute.v1.PatchRegionInstanceGroupManagerRequest.newBuilder().setProject(project)
              .setRegion(region).setInstanceGroupManager(spec.name()).setInstanceGroupManagerResource(patch)
              .build()));
      ctx.log("instance group " + spec.name() + " is rolling onto " + lastSegment(template));
      return poll.waitFor(ctx, "instance group " + spec.name() + " is replacing its instances");
    }
    boolean stable = group.getStatus().getIsStable() && group.getStatus().getVersionTarget().getIsReached();
    return stable ? StepResult.done() : poll.waitFor(ctx, "instance group " + spec.name()
        + " is replacing its instances");
  }

  /** Sets the autoscaler's bounds unless it has them. */
  private StepResult updateAutoscaler(StepContext ctx, VmPoolSpec spec) {
    Autoscaler autoscaler = find(COMPUTE_AUTOSCALERS_GET, () -> clients.autoscalers().get(project, region,
        spec.name()));
    if (autoscaler == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "autoscaler " + spec.name()
          + " is gone"));
    }
    AutoscalingPolicy policy = autoscaler.getAutoscalingPolicy();
    if (policy.getMinNumReplicas() != spec.min() || policy.getMaxNumReplicas() != spec.max()) {
      calls.call(COMPUTE_AUTOSCALERS_UPDATE, () -> clients.autoscalers().patchCallable().call(
          com.google.cloud.compute.v1.PatchRegionAutoscalerRequest.newBuilder().setProject(project)
              .setRegion(region).setAutoscaler(spec.name()).setAutoscalerResource(Autoscaler.newBuilder()
                  .setName(spec.name()).setAutoscalingPolicy(policy.toBuilder().setMinNumReplicas(spec.min())
                      .setMaxNumReplicas(spec.max()))).build()));
      ctx.log("autoscaler " + spec.name() + " now keeps " + spec.min() + ".." + spec.max() + " instances");
    }
    return StepResult.done();
  }

  private StepResult removeTemplate(StepContext ctx, String name) {
    return resources.remove(ctx, "instance template " + name, () -> find(COMPUTE_INSTANCE_TEMPLATES_GET,
        () -> clients.instanceTemplates().get(project, name)), COMPUTE_INSTANCE_TEMPLATES_DELETE,
        () -> clients.instanceTemplates().deleteCallable().call(com.google.cloud.compute.v1
            .DeleteInstanceTemplateRequest.newBuilder().setProject(project).setInstanceTemplate(name).build()));
  }

  private static String lastSegment(String link) {
    return link.substring(link.lastIndexOf('/') + 1);
  }

  static String templateName(VmPoolSpec spec) {
    return spec.name() + "-template";
  }

  static String ruleName(VmPoolSpec spec, int port) {
    return spec.name() + "-" + port;
  }

  static List<String> firewallNames(VmPoolSpec spec) {
    return APPLICATION.equals(spec.loadBalancerType()) ? List.of(spec.name() + "-allow-lb")
        : List.of(spec.name() + "-allow-clients", spec.name() + "-allow-health-checks");
  }

  private String networkPath(VmPoolSpec spec) {
    return "projects/" + project + "/global/networks/" + spec.vpcId();
  }

  private ComputeResources.Wanted<InstanceTemplate> template(StepContext ctx, VmPoolSpec spec) {
    return template(ctx, spec, templateName(spec));
  }

  private ComputeResources.Wanted<InstanceTemplate> template(StepContext ctx, VmPoolSpec spec, String name) {
    NetworkInterface.Builder nic = NetworkInterface.newBuilder().setNetwork(networkPath(spec));
    if (!spec.subnetIds().isEmpty()) {
      nic.setSubnetwork("projects/" + project + "/regions/" + region + "/subnetworks/" + spec.subnetIds().get(0));
    }
    InstanceTemplate template = InstanceTemplate.newBuilder().setName(name)
        .setDescription(GcpOwner.description(ctx, "template"))
        .setProperties(InstanceProperties.newBuilder().setMachineType(spec.instanceType())
            .addDisks(AttachedDisk.newBuilder().setBoot(true).setAutoDelete(true).setType("PERSISTENT")
                .setInitializeParams(AttachedDiskInitializeParams.newBuilder().setSourceImage(spec.imageId())))
            .addNetworkInterfaces(nic).putAllLabels(GcpOwner.labels(ctx, "instance"))
            // the firewall rules name the pool's instances by this tag
            .setTags(Tags.newBuilder().addItems(spec.name())))
        .build();
    return new ComputeResources.Wanted<>("template", "instance template", name, null,
        () -> find(COMPUTE_INSTANCE_TEMPLATES_GET, () -> clients.instanceTemplates().get(project, name)),
        COMPUTE_INSTANCE_TEMPLATES_CREATE, () -> clients.instanceTemplates().insertCallable().call(
            com.google.cloud.compute.v1.InsertInstanceTemplateRequest.newBuilder().setProject(project)
                .setInstanceTemplateResource(template).build()),
        t -> Map.ofEntries(INSTANCE_TEMPLATE.is(t.getSelfLink())));
  }

  private ComputeResources.Wanted<InstanceGroupManager> group(StepContext ctx, VmPoolSpec spec) {
    InstanceGroupManager.Builder manager = InstanceGroupManager.newBuilder().setName(spec.name())
        .setBaseInstanceName(spec.name()).setDescription(GcpOwner.description(ctx, "group"))
        .setInstanceTemplate(ctx.outputs().require(INSTANCE_TEMPLATE)).setTargetSize(spec.min());
    spec.listenerPorts().forEach(port -> manager.addNamedPorts(NamedPort.newBuilder().setName("port" + port)
        .setPort(port)));
    return new ComputeResources.Wanted<>("group", "instance group", spec.name(), region,
        () -> find(COMPUTE_INSTANCE_GROUP_MANAGERS_GET, () -> clients.instanceGroupManagers().get(project, region,
            spec.name())),
        COMPUTE_INSTANCE_GROUP_MANAGERS_CREATE, () -> clients.instanceGroupManagers().insertCallable().call(
            com.google.cloud.compute.v1.InsertRegionInstanceGroupManagerRequest.newBuilder().setProject(project)
                .setRegion(region).setInstanceGroupManagerResource(manager).build()),
        m -> Map.ofEntries(INSTANCE_GROUP_MANAGER.is(m.getSelfLink()), INSTANCE_GROUP.is(m.getInstanceGroup())));
  }

  private ComputeResources.Wanted<Autoscaler> autoscaler(StepContext ctx, VmPoolSpec spec) {
    Autoscaler autoscaler = Autoscaler.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "autoscaler"))
        .setTarget(ctx.outputs().require(INSTANCE_GROUP_MANAGER))
        .setAutoscalingPolicy(AutoscalingPolicy.newBuilder().setMinNumReplicas(spec.min())
            .setMaxNumReplicas(spec.max())
            .setCpuUtilization(AutoscalingPolicyCpuUtilization.newBuilder().setUtilizationTarget(0.6)))
        .build();
    return new ComputeResources.Wanted<>("autoscaler", "autoscaler", spec.name(), region,
        () -> find(COMPUTE_AUTOSCALERS_GET, () -> clients.autoscalers().get(project, region, spec.name())),
        COMPUTE_AUTOSCALERS_CREATE, () -> clients.autoscalers().insertCallable().call(
            com.google.cloud.compute.v1.InsertRegionAutoscalerRequest.newBuilder().setProject(project)
                .setRegion(region).setAutoscalerResource(autoscaler).build()),
        a -> Map.of());
  }

  private List<ComputeResources.Wanted<? extends Message>> firewalls(StepContext ctx, VmPoolSpec spec) {
    List<String> ports = spec.listenerPorts().stream().map(String::valueOf).toList();
    List<ComputeResources.Wanted<? extends Message>> rules = new ArrayList<>();
    if (APPLICATION.equals(spec.loadBalancerType())) {
      rules.add(firewall(ctx, spec, spec.name() + "-allow-lb", "firewall-lb", ports, GOOGLE_FRONT_ENDS));
    } else {
      rules.add(firewall(ctx, spec, spec.name() + "-allow-clients", "firewall-clients", ports, List.of("0.0.0.0/0")));
      rules.add(firewall(ctx, spec, spec.name() + "-allow-health-checks", "firewall-health-checks",
          List.of(ports.get(0)), NETWORK_LB_HEALTH_CHECKERS));
    }
    return rules;
  }

  private ComputeResources.Wanted<Firewall> firewall(StepContext ctx, VmPoolSpec spec, String name, String part,
      List<String> ports, List<String> sources) {
    Firewall rule = Firewall.newBuilder().setName(name).setDescription(GcpOwner.description(ctx, part))
        .setNetwork(networkPath(spec)).setDirection("INGRESS")
        .addAllowed(com.google.cloud.compute.v1.Allowed.newBuilder().setIPProtocol("tcp").addAllPorts(ports))
        .addAllSourceRanges(sources).addTargetTags(spec.name()).build();
    return new ComputeResources.Wanted<>(part, "firewall rule", name, null,
        () -> find(COMPUTE_FIREWALLS_GET, () -> clients.firewalls().get(project, name)),
        COMPUTE_FIREWALLS_CREATE, () -> clients.firewalls().insertCallable().call(
            com.google.cloud.compute.v1.InsertFirewallRequest.newBuilder().setProject(project)
                .setFirewallResource(rule).build()),
        f -> Map.of());
  }

  private ComputeResources.Wanted<HealthCheck> httpHealthCheck(StepContext ctx, VmPoolSpec spec) {
    HealthCheck check = HealthCheck.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "health-check")).setType("HTTP")
        .setHttpHealthCheck(HTTPHealthCheck.newBuilder().setPort(firstHttpPort(spec))).build();
    return new ComputeResources.Wanted<>("health-check", "health check", spec.name(), null,
        () -> find(COMPUTE_HEALTH_CHECKS_GET, () -> clients.healthChecks().get(project, spec.name())),
        COMPUTE_HEALTH_CHECKS_CREATE, () -> clients.healthChecks().insertCallable().call(
            com.google.cloud.compute.v1.InsertHealthCheckRequest.newBuilder().setProject(project)
                .setHealthCheckResource(check).build()),
        h -> Map.ofEntries(HEALTH_CHECK.is(h.getSelfLink())));
  }

  private ComputeResources.Wanted<HealthCheck> tcpHealthCheck(StepContext ctx, VmPoolSpec spec) {
    HealthCheck check = HealthCheck.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "health-check")).setType("TCP").setRegion(region)
        .setTcpHealthCheck(TCPHealthCheck.newBuilder().setPort(spec.listenerPorts().get(0))).build();
    return new ComputeResources.Wanted<>("health-check", "health check", spec.name(), region,
        () -> find(COMPUTE_REGION_HEALTH_CHECKS_GET, () -> clients.regionHealthChecks().get(project, region,
            spec.name())),
        COMPUTE_REGION_HEALTH_CHECKS_CREATE, () -> clients.regionHealthChecks().insertCallable().call(
            com.google.cloud.compute.v1.InsertRegionHealthCheckRequest.newBuilder().setProject(project)
                .setRegion(region).setHealthCheckResource(check).build()),
        h -> Map.ofEntries(HEALTH_CHECK.is(h.getSelfLink())));
  }

  private ComputeResources.Wanted<BackendService> globalBackend(StepContext ctx, VmPoolSpec spec) {
    BackendService backend = BackendService.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "backend")).setLoadBalancingScheme("EXTERNAL_MANAGED").setProtocol("HTTP")
        .setPortName("port" + firstHttpPort(spec)).addHealthChecks(ctx.outputs().require(HEALTH_CHECK))
        .addBackends(Backend.newBuilder().setGroup(ctx.outputs().require(INSTANCE_GROUP))
            .setBalancingMode("UTILIZATION"))
        .build();
    return new ComputeResources.Wanted<>("backend", "backend service", spec.name(), null,
        () -> find(COMPUTE_BACKEND_SERVICES_GET, () -> clients.backendServices().get(project, spec.name())),
        COMPUTE_BACKEND_SERVICES_CREATE, () -> clients.backendServices().insertCallable().call(
            com.google.cloud.compute.v1.InsertBackendServiceRequest.newBuilder().setProject(project)
                .setBackendServiceResource(backend).build()),
        b -> Map.ofEntries(BACKEND_SERVICE.is(b.getSelfLink())));
  }

  private ComputeResources.Wanted<BackendService> regionalBackend(StepContext ctx, VmPoolSpec spec) {
    BackendService backend = BackendService.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "backend")).setLoadBalancingScheme("EXTERNAL").setProtocol("TCP")
        .setRegion(region).addHealthChecks(ctx.outputs().require(HEALTH_CHECK))
        .addBackends(Backend.newBuilder().setGroup(ctx.outputs().require(INSTANCE_GROUP))
            .setBalancingMode("CONNECTION"))
        .build();
    return new ComputeResources.Wanted<>("backend", "backend service", spec.name(), region,
        () -> find(COMPUTE_REGION_BACKEND_SERVICES_GET, () -> clients.regionBackendServices().get(project, region,
            spec.name())),
        COMPUTE_REGION_BACKEND_SERVICES_CREATE, () -> clients.regionBackendServices().insertCallable().call(
            com.google.cloud.compute.v1.InsertRegionBackendServiceRequest.newBuilder().setProject(project)
                .setRegion(region).setBackendServiceResource(backend).build()),
        b -> Map.ofEntries(BACKEND_SERVICE.is(b.getSelfLink())));
  }

  private ComputeResources.Wanted<UrlMap> urlMap(StepContext ctx, VmPoolSpec spec) {
    UrlMap map = UrlMap.newBuilder().setName(spec.name()).setDescription(GcpOwner.description(ctx, "url-map"))
        .setDefaultService(ctx.outputs().require(BACKEND_SERVICE)).build();
    return new ComputeResources.Wanted<>("url-map", "URL map", spec.name(), null,
        () -> find(COMPUTE_URL_MAPS_GET, () -> clients.urlMaps().get(project, spec.name())),
        COMPUTE_URL_MAPS_CREATE, () -> clients.urlMaps().insertCallable().call(
            com.google.cloud.compute.v1.InsertUrlMapRequest.newBuilder().setProject(project).setUrlMapResource(map)
                .build()),
        m -> Map.ofEntries(URL_MAP.is(m.getSelfLink())));
  }

  /** An HTTP proxy for the plain ports, and an HTTPS one with the certificate when 443 is among them. */
  private List<ComputeResources.Wanted<? extends Message>> proxies(StepContext ctx, VmPoolSpec spec) {
    List<ComputeResources.Wanted<? extends Message>> proxies = new ArrayList<>();
    String http = spec.name() + "-http";
    if (spec.listenerPorts().stream().anyMatch(p -> p != 443)) {
      TargetHttpProxy proxy = TargetHttpProxy.newBuilder().setName(http).setDescription(
          GcpOwner.description(ctx, "proxy-http")).setUrlMap(ctx.outputs().require(URL_MAP)).build();
      proxies.add(new ComputeResources.Wanted<>("proxy-http", "target proxy", http, null,
          () -> find(COMPUTE_TARGET_HTTP_PROXIES_GET, () -> clients.targetHttpProxies().get(project, http)),
          COMPUTE_TARGET_HTTP_PROXIES_CREATE, () -> clients.targetHttpProxies().insertCallable().call(
              com.google.cloud.compute.v1.InsertTargetHttpProxyRequest.newBuilder().setProject(project)
                  .setTargetHttpProxyResource(proxy).build()),
          p -> Map.ofEntries(HTTP_PROXY.is(p.getSelfLink()))));
    }
    String https = spec.name() + "-https";
    if (spec.listenerPorts().contains(443)) {
      String certificate = spec.certificateArn().contains("/") ? spec.certificateArn()
          : "projects/" + project + "/global/sslCertificates/" + spec.certificateArn();
      TargetHttpsProxy proxy = TargetHttpsProxy.newBuilder().setName(https).setDescription(
              GcpOwner.description(ctx, "proxy-https")).setUrlMap(ctx.outputs().require(URL_MAP))
          .addSslCertificates(certificate).build();
      proxies.add(new ComputeResources.Wanted<>("proxy-https", "target proxy", https, null,
          () -> find(COMPUTE_TARGET_HTTPS_PROXIES_GET, () -> clients.targetHttpsProxies().get(project, https)),
          COMPUTE_TARGET_HTTPS_PROXIES_CREATE, () -> clients.targetHttpsProxies().insertCallable().call(
              com.google.cloud.compute.v1.InsertTargetHttpsProxyRequest.newBuilder().setProject(project)
                  .setTargetHttpsProxyResource(proxy).build()),
          p -> Map.ofEntries(HTTPS_PROXY.is(p.getSelfLink()))));
    }
    return proxies;
  }

  private List<ComputeResources.Wanted<? extends Message>> globalRules(StepContext ctx, VmPoolSpec spec) {
    List<ComputeResources.Wanted<? extends Message>> rules = new ArrayList<>();
    for (int port : spec.listenerPorts()) {
      String name = ruleName(spec, port);
      ForwardingRule rule = ForwardingRule.newBuilder().setName(name).setDescription(
              GcpOwner.description(ctx, "rule-" + port)).setIPProtocol("TCP").setPortRange(String.valueOf(port))
          .setLoadBalancingScheme("EXTERNAL_MANAGED")
          .setTarget(ctx.outputs().require(port == 443 ? HTTPS_PROXY : HTTP_PROXY)).build();
      rules.add(new ComputeResources.Wanted<>("rule-" + port, "forwarding rule", name, null,
          () -> find(COMPUTE_GLOBAL_FORWARDING_RULES_GET, () -> clients.globalForwardingRules().get(project, name)),
          COMPUTE_GLOBAL_FORWARDING_RULES_CREATE, () -> clients.globalForwardingRules().insertCallable().call(
              com.google.cloud.compute.v1.InsertGlobalForwardingRuleRequest.newBuilder().setProject(project)
                  .setForwardingRuleResource(rule).build()),
          r -> Map.ofEntries(LOAD_BALANCER_ADDRESS.is(r.getIPAddress()))));
    }
    return rules;
  }

  private ComputeResources.Wanted<ForwardingRule> regionalRule(StepContext ctx, VmPoolSpec spec) {
    ForwardingRule rule = ForwardingRule.newBuilder().setName(spec.name()).setDescription(
            GcpOwner.description(ctx, "rule")).setIPProtocol("TCP").setRegion(region)
        .addAllPorts(spec.listenerPorts().stream().map(String::valueOf).toList())
        .setLoadBalancingScheme("EXTERNAL").setBackendService(ctx.outputs().require(BACKEND_SERVICE)).build();
    return new ComputeResources.Wanted<>("rule", "forwarding rule", spec.name(), region,
        () -> find(COMPUTE_FORWARDING_RULES_GET, () -> clients.forwardingRules().get(project, region, spec.name())),
        COMPUTE_FORWARDING_RULES_CREATE, () -> clients.forwardingRules().insertCallable().call(
            com.google.cloud.compute.v1.InsertForwardingRuleRequest.newBuilder().setProject(project).setRegion(region)
                .setForwardingRuleResource(rule).build()),
        r -> Map.ofEntries(LOAD_BALANCER_ADDRESS.is(r.getIPAddress())));
  }

  private static int firstHttpPort(VmPoolSpec spec) {
    return spec.listenerPorts().stream().filter(p -> p != 443).findFirst().orElse(443);
  }
}

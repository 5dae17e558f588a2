package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.core.management.SubResource;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetVMInner;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import com.azure.resourcemanager.compute.models.ApiEntityReference;
import com.azure.resourcemanager.compute.models.CachingTypes;
import com.azure.resourcemanager.compute.models.DiskCreateOptionTypes;
import com.azure.resourcemanager.compute.models.ImageReference;
import com.azure.resourcemanager.compute.models.LinuxConfiguration;
import com.azure.resourcemanager.compute.models.SshConfiguration;
import com.azure.resourcemanager.compute.models.SshPublicKey;
import com.azure.resourcemanager.compute.models.StorageAccountTypes;
import com.azure.resourcemanager.compute.models.UpgradeMode;
import com.azure.resourcemanager.compute.models.UpgradePolicy;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetIpConfiguration;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetManagedDiskParameters;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetNetworkConfiguration;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetNetworkProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetOSDisk;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetOSProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetStorageProfile;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMProfile;
import com.azure.resourcemanager.monitor.fluent.models.AutoscaleProfileInner;
import com.azure.resourcemanager.monitor.fluent.models.AutoscaleSettingResourceInner;
import com.azure.resourcemanager.monitor.fluent.models.ScaleRuleInner;
import com.azure.resourcemanager.monitor.models.ComparisonOperationType;
import com.azure.resourcemanager.monitor.models.MetricStatisticType;
import com.azure.resourcemanager.monitor.models.MetricTrigger;
import com.azure.resourcemanager.monitor.models.ScaleAction;
import com.azure.resourcemanager.monitor.models.ScaleCapacity;
import com.azure.resourcemanager.monitor.models.ScaleDirection;
import com.azure.resourcemanager.monitor.models.ScaleType;
import com.azure.resourcemanager.monitor.models.TimeAggregationType;
import com.azure.resourcemanager.network.fluent.models.BackendAddressPoolInner;
import com.azure.resourcemanager.network.fluent.models.FrontendIpConfigurationInner;
import com.azure.resourcemanager.network.fluent.models.LoadBalancerInner;
import com.azure.resourcemanager.network.fluent.models.LoadBalancingRuleInner;
import com.azure.resourcemanager.network.fluent.models.NetworkSecurityGroupInner;
import com.azure.resourcemanager.network.fluent.models.OutboundRuleInner;
import com.azure.resourcemanager.network.fluent.models.ProbeInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import com.azure.resourcemanager.network.fluent.models.SecurityRuleInner;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkInner;
import com.azure.resourcemanager.network.models.AddressSpace;
import com.azure.resourcemanager.network.models.IpAllocationMethod;
import com.azure.resourcemanager.network.models.LoadBalancerOutboundRuleProtocol;
import com.azure.resourcemanager.network.models.LoadBalancerSku;
import com.azure.resourcemanager.network.models.LoadBalancerSkuName;
import com.azure.resourcemanager.network.models.LoadBalancerSkuTier;
import com.azure.resourcemanager.network.models.ProbeProtocol;
import com.azure.resourcemanager.network.models.PublicIpAddressDnsSettings;
import com.azure.resourcemanager.network.models.PublicIpAddressSku;
import com.azure.resourcemanager.network.models.PublicIpAddressSkuName;
import com.azure.resourcemanager.network.models.PublicIpAddressSkuTier;
import com.azure.resourcemanager.network.models.SecurityRuleAccess;
import com.azure.resourcemanager.network.models.SecurityRuleDirection;
import com.azure.resourcemanager.network.models.SecurityRuleProtocol;
import com.azure.resourcemanager.network.models.TransportProtocol;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.GeneratedSecrets;
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
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A virtual machine scale set sized by an autoscale setting between the spec's min and max (CPU above 70% adds
 * an instance, below 30% removes one), optionally behind a Standard Load Balancer: a static public address, a
 * TCP health probe and a rule per listener port (TLS on 443 passes through to the instances), and an outbound
 * rule so the instances reach the internet through the same address. A network security group on the
 * instances' interfaces opens only the listener ports; without a load balancer it opens nothing.
 *
 * <p>Instances log in with an SSH key generated into the space's secret store ({@code sshKeySecretRef}); no
 * password login. A spec that names no network gets a network of the pool's own ({@code <name>-vnet},
 * 10.0.0.0/16, one subnet), removed with the pool. The scale set's upgrade policy is manual: a changed model
 * reaches instances as they are reimaged or replaced, never all at once. Every resource carries its job in its
 * tags and is named from the pool's name; teardown goes in reverse, each resource waited out before what it uses.
 */
final class VmPoolDriver implements ResourceDriver<VmPoolSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> VPC_ID = OutputKey.text("vpcId");
  static final OutputKey<String> SECURITY_GROUP_ID = OutputKey.text("securityGroupId");
  static final OutputKey<String> PUBLIC_IP_ID = OutputKey.text("publicIpId");
  static final OutputKey<String> LOAD_BALANCER_ADDRESS = OutputKey.text("loadBalancerAddress");
  static final OutputKey<String> DNS_NAME = OutputKey.text("dnsName");
  static final OutputKey<String> LOAD_BALANCER_NAME = OutputKey.text("loadBalancerName");
  static final OutputKey<String> LOAD_BALANCER_ID = OutputKey.text("loadBalancerId");
  static final OutputKey<SecretRef> SSH_KEY_SECRET_REF = OutputKey.secretRef("sshKeySecretRef");
  static final OutputKey<String> SCALE_SET_NAME = OutputKey.text("scaleSetName");
  static final OutputKey<String> SCALE_SET_ID = OutputKey.text("scaleSetId");
  static final OutputKey<String> AUTOSCALE_NAME = OutputKey.text("autoscaleName");
  static final OutputKey<String> MIN_SIZE = OutputKey.text("minSize");
  static final OutputKey<String> MAX_SIZE = OutputKey.text("maxSize");

  static final String DEFAULT_IMAGE = "Canonical:ubuntu-24_04-lts:server:latest";
  static final String NETWORK = "network";
  static final String ADMIN_USER = "zopadmin";
  static final String OWN_SUBNET = "default";

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final Supplier<String> location;
  private final StatusPoll poll;
  private final boolean vault;

  VmPoolDriver(DriverContext<AzureClients> context, boolean vault) {
    this.vault = vault;
    this.clients = context.clients();
    this.calls = context.calls();
    this.resourceGroup = context.scope(AzureSession.RESOURCE_GROUP);
    this.location = context.region();
    this.poll = context.poll();
  }

  @Override
  public Class<VmPoolSpec> specType() {
    return VmPoolSpec.class;
  }

  static String ownNetwork(VmPoolSpec spec) {
    return spec.name() + "-vnet";
  }

  @Override
  public Defaulted<VmPoolSpec> withDefaults(VmPoolSpec spec) {
    List<PlanDefault> filled = new ArrayList<>();
    VmPoolSpec.Builder builder = spec.toBuilder();
    builder.instanceType(VmSizes.SIZES.resolve("instanceType", spec.instanceType(), VmSizes.KIND, filled));
    if (spec.imageId() == null) {
      builder.imageId(DEFAULT_IMAGE);
      filled.add(new PlanDefault("imageId", DEFAULT_IMAGE, "the latest Ubuntu 24.04 LTS image of Canonical"));
    }
    if (spec.vpcId() == null) {
      builder.vpcId(ownNetwork(spec)).subnetIds(List.of(OWN_SUBNET));
      filled.add(new PlanDefault("vpcID", ownNetwork(spec), "a network of the pool's own (10.0.0.0/16), made with it"
          + " and removed with it"));
      filled.add(new PlanDefault("subnetIDs", OWN_SUBNET, "the one subnet of the pool's network (10.0.0.0/24)"));
    } else if (spec.subnetIds().size() > 1) {
      builder.subnetIds(List.of(spec.subnetIds().get(0)));
      filled.add(new PlanDefault("subnetIDs", spec.subnetIds().get(0), "a scale set's instances take one subnet:"
          + " the first named; the others are not used"));
    }
    if (spec.createLoadBalancer() && spec.loadBalancerType() == null) {
      builder.loadBalancer(true, NETWORK);
      filled.add(new PlanDefault("loadBalancerType", NETWORK, "Azure's Standard Load Balancer: TCP on each listener"
          + " port, TLS on 443 passed through to the instances"));
    }
    return new Defaulted<>(builder.build(), filled);
  }

  @Override
  public List<FieldError> validate(VmPoolSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (MachineSizes.readsAsAwsType(spec.instanceType())) {
      errors.add(FieldError.of("instanceType", "unknown_vm_size", "no Azure VM size is known for "
          + spec.instanceType() + "; name one such as Standard_D2s_v5"));
    }
    if (spec.imageId() != null && !spec.imageId().startsWith("/") && spec.imageId().split(":").length != 4) {
      errors.add(FieldError.of("imageId", "invalid_value", "an image's resource id (/subscriptions/...), or a"
          + " marketplace image as publisher:offer:sku:version, e.g. " + DEFAULT_IMAGE));
    }
    if (spec.vpcId() != null && spec.subnetIds().isEmpty()) {
      errors.add(FieldError.of("subnetIDs", "required", "name the subnet of " + spec.vpcId() + " the instances go"
          + " in"));
    }
    if (spec.createLoadBalancer() && !NETWORK.equals(spec.loadBalancerType())) {
      errors.add(FieldError.of("loadBalancerType", "unsupported", "the Azure provider makes Standard Load Balancers"
          + " (network): TCP on each port, TLS passed through; Application Gateway is not made yet"));
    }
    if (spec.certificateArn() != null) {
      errors.add(FieldError.of("certificateArn", "unsupported", "a Standard Load Balancer passes TLS through to the"
          + " instances, which serve their own certificate"));
    }
    return errors;
  }

  // ---- names and references ----------------------------------------------------------------------------

  private String id(String provider, String type, String name) {
    return "/subscriptions/" + clients.subscription() + "/resourceGroups/" + resourceGroup + "/providers/"
        + provider + "/" + type + "/" + name;
  }

  private String subnetId(VmPoolSpec spec) {
    String subnet = spec.subnetIds().get(0);
    if (subnet.startsWith("/subscriptions/")) {
      return subnet;
    }
    String network = spec.vpcId().startsWith("/subscriptions/") ? spec.vpcId()
        : id("Microsoft.Network", "virtualNetworks", spec.vpcId());
    return network + "/subnets/" + subnet;
  }

  private static boolean ownsNetwork(VmPoolSpec spec) {
    return ownNetwork(spec).equals(spec.vpcId());
  }

  private static String nsgName(VmPoolSpec spec) {
    return spec.name() + "-nsg";
  }

  private static String ipName(VmPoolSpec spec) {
    return spec.name() + "-ip";
  }

  private static String lbName(VmPoolSpec spec) {
    return spec.name() + "-lb";
  }

  private static String autoscaleName(VmPoolSpec spec) {
    return spec.name() + "-autoscale";
  }

  // ---- steps -------------------------------------------------------------------------------------------

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(VmPoolDriver.class).and(OutputKeys.of(SharedOutputs.ADMIN_USER));
  }

  @Override
  public List<Step> create(VmPoolSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-ssh-key", withVault(vault, List.of(SCALE_SETS_READ), KEY_VAULT_SECRETS_SET),
        ctx -> createSshKey(ctx, spec)));
    if (ownsNetwork(spec)) {
      steps.add(ProviderStep.of("create-network", List.of(VIRTUAL_NETWORKS_READ, VIRTUAL_NETWORKS_WRITE,
          RESOURCE_GROUPS_READ), ctx -> network(spec).ensure(ctx, poll, () -> putNetwork(ctx, spec), n -> true,
          n -> Map.ofEntries(VPC_ID.is(n.id())))));
    }
    steps.add(securityGroupStep("create-security-group", spec));
    if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("create-public-ip", List.of(PUBLIC_IPS_READ, PUBLIC_IPS_WRITE,
          RESOURCE_GROUPS_READ), ctx -> publicIp(spec).ensure(ctx, poll, () -> putPublicIp(ctx, spec), ip -> true,
          VmPoolDriver::addressOutputs)));
      steps.add(loadBalancerStep("create-load-balancer", spec));
    }
    steps.add(scaleSetStep("create-scale-set", spec));
    steps.add(ProviderStep.of("create-autoscale", List.of(AUTOSCALE_READ, AUTOSCALE_WRITE, RESOURCE_GROUPS_READ),
        ctx -> ensureAutoscale(ctx, spec)));
    return steps;
  }

  /** The security group opening exactly the spec's listener ports: made, or PUT again where it opens others. */
  private Step securityGroupStep(String name, VmPoolSpec spec) {
    return ProviderStep.of(name, List.of(SECURITY_GROUPS_READ, SECURITY_GROUPS_WRITE, RESOURCE_GROUPS_READ),
        ctx -> securityGroup(spec).ensure(ctx, poll, () -> putSecurityGroup(ctx, spec),
            nsg -> openPorts(nsg).equals(wantedPorts(spec)), nsg -> Map.ofEntries(SECURITY_GROUP_ID.is(nsg.id()))));
  }

  /** The load balancer with a rule and probe per listener port: made, or PUT again where its rules differ. */
  private Step loadBalancerStep(String name, VmPoolSpec spec) {
    return ProviderStep.of(name, List.of(LOAD_BALANCERS_READ, LOAD_BALANCERS_WRITE, PUBLIC_IPS_JOIN,
        RESOURCE_GROUPS_READ), ctx -> loadBalancer(spec).ensure(ctx, poll, () -> putLoadBalancer(ctx, spec),
            lb -> rulePorts(lb).equals(wantedPorts(spec)),
            lb -> Map.ofEntries(LOAD_BALANCER_NAME.is(lb.name()), LOAD_BALANCER_ID.is(lb.id()))));
  }

  /** The scale set as the spec has it: made, or its model PUT again where its VM size is not the spec's. */
  private Step scaleSetStep(String name, VmPoolSpec spec) {
    return ProviderStep.of(name, withVault(vault, List.of(SCALE_SETS_READ, SCALE_SETS_WRITE, SUBNETS_JOIN,
        SECURITY_GROUPS_JOIN, BACKEND_POOLS_JOIN, RESOURCE_GROUPS_READ), KEY_VAULT_SECRETS_GET),
        ctx -> scaleSet(spec).ensure(ctx, poll, () -> putScaleSet(ctx, spec),
            set -> set.sku() != null && spec.instanceType().equals(set.sku().name()),
            set -> Map.ofEntries(SCALE_SET_NAME.is(set.name()), SCALE_SET_ID.is(set.id()),
                SharedOutputs.ADMIN_USER.is(ADMIN_USER))));
  }

  /**
   * A pool's min and max change in its autoscale setting (PUT again). A new VM size is a rolling replacement: the
   * scale set's model takes the size (its instances keep theirs: the upgrade policy is manual), then its instances
   * are upgraded to the model one at a time, each only once every other has finished. Listener ports change in
   * the security group and the load balancer's rules, each PUT again with the revised ports.
   */
  @Override
  public Revision revise(VmPoolSpec current, VmPoolSpec revised, Outputs recorded) {
    if (!recorded.has(SCALE_SET_NAME)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    if (!current.instanceType().equals(revised.instanceType())) {
      steps.add(ProviderStep.of("update-scale-set-model", List.of(SCALE_SETS_READ, SCALE_SETS_WRITE),
          ctx -> resizeModel(ctx, revised)));
      steps.add(ProviderStep.of("upgrade-instances", List.of(SCALE_SET_VMS_READ, SCALE_SETS_MANUAL_UPGRADE),
          ctx -> upgradeInstances(ctx, revised)));
    }
    if (!current.min().equals(revised.min()) || !current.max().equals(revised.max())) {
      steps.add(ProviderStep.of("update-autoscale", List.of(AUTOSCALE_READ, AUTOSCALE_WRITE),
          ctx -> ensureAutoscale(ctx, revised)));
    }
    Revision revision = Revision.of(steps);
    if (!wantedPorts(current).equals(wantedPorts(revised))) {
      if (current.createLoadBalancer() != revised.createLoadBalancer()) {
        revision.refuse("createLoadBalancer", "load_balancer_change", "a pool keeps or goes without its load"
            + " balancer: the scale set's instances are joined to it when they are made");
      } else {
        // a port opened before its rule sends traffic to it; a rule dropped before its port is closed
        boolean opening = wantedPorts(revised).containsAll(wantedPorts(current));
        steps.add(opening ? 0 : steps.size(), securityGroupStep("update-security-group", revised));
        steps.add(opening ? 1 : steps.size() - 1, loadBalancerStep("update-load-balancer", revised));
        revision = Revision.of(steps);
      }
    }
    return revision.inPlace("min", "max", "listenerPorts").replaces("instanceType", "the pool's instances are"
        + " upgraded to the new size one at a time: each restarts on it, and stops serving while it does");
  }

  /**
   * The scale set's VM size, its autoscale setting's bounds and, behind a load balancer, the ports its security
   * group opens, read back; any of them gone is missing.
   */
  @Override
  public CloudRead<List<Drift>> observe(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(SCALE_SET_NAME)) {
      return null;
    }
    return ProviderRead.of(List.of(SCALE_SETS_READ, AUTOSCALE_READ, SECURITY_GROUPS_READ), () -> {
      DriftFindings found = new DriftFindings();
      VirtualMachineScaleSetInner set = scaleSet(spec).find().get();
      if (set == null) {
        found.missing("scale set " + spec.name());
      } else {
        found.compare("scale set " + spec.name(), "instanceType", spec.instanceType(),
            set.sku() == null ? null : set.sku().name());
      }
      AutoscaleSettingResourceInner autoscale = autoscale(spec).find().get();
      if (autoscale == null) {
        found.missing("autoscale setting " + autoscaleName(spec));
      } else {
        ScaleCapacity capacity = autoscale.profiles().get(0).capacity();
        found.compare("autoscale setting " + autoscaleName(spec), "min", spec.min(), capacity.minimum());
        found.compare("autoscale setting " + autoscaleName(spec), "max", spec.max(), capacity.maximum());
      }
      if (spec.createLoadBalancer()) {
        NetworkSecurityGroupInner nsg = securityGroup(spec).find().get();
        if (nsg == null) {
          found.missing("network security group " + nsgName(spec));
        } else {
          found.compare("network security group " + nsgName(spec), "securityRules", ports(wantedPorts(spec)),
              ports(openPorts(nsg)));
        }
      }
      return found.list();
    });
  }

  private static String ports(Set<Integer> ports) {
    return ports.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  /**
   * The autoscale setting's bounds and the security group's rules put back, each PUT again only where it differs.
   * The VM size is changed by a revision's rolling upgrade, not here.
   */
  @Override
  public Revision reconcile(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(SCALE_SET_NAME)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("update-autoscale", List.of(AUTOSCALE_READ, AUTOSCALE_WRITE), ctx -> {
      AutoscaleSettingResourceInner autoscale = autoscale(spec).find().get();
      ScaleCapacity capacity = autoscale == null ? null : autoscale.profiles().get(0).capacity();
      boolean right = capacity != null && String.valueOf(spec.min()).equals(capacity.minimum())
          && String.valueOf(spec.max()).equals(capacity.maximum());
      return right ? StepResult.done() : ensureAutoscale(ctx, spec);
    }));
    if (spec.createLoadBalancer()) {
      steps.add(securityGroupStep("restore-security-group", spec));
    }
    return Revision.of(steps).inPlace("min", "max", "securityRules");
  }

  /** Gives the scale set's model the revised VM size (one PATCH of its SKU, its capacity kept), unless it has it. */
  private StepResult resizeModel(StepContext ctx, VmPoolSpec spec) {
    VirtualMachineScaleSetInner set = scaleSet(spec).find().get();
    if (set == null || set.sku() == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "scale set " + spec.name() + " is gone"));
    }
    var foreign = AzureTags.OWNER.refuseForeign(set.tags(), ctx, "scale set", spec.name());
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    boolean settled = "Succeeded".equals(set.provisioningState());
    if (spec.instanceType().equals(set.sku().name())) {
      return settled ? StepResult.done() : poll.waitFor(ctx, "scale set " + spec.name() + " is "
          + set.provisioningState());
    }
    if (!settled) {
      return poll.waitFor(ctx, "scale set " + spec.name() + " is " + set.provisioningState());
    }
    calls.call(SCALE_SETS_WRITE, () -> clients.compute().serviceClient().getVirtualMachineScaleSets().beginUpdate(
        resourceGroup, spec.name(), new com.azure.resourcemanager.compute.models.VirtualMachineScaleSetUpdate()
            .withSku(new com.azure.resourcemanager.compute.models.Sku().withName(spec.instanceType())
                .withTier(set.sku().tier()).withCapacity(set.sku().capacity()))));
    ctx.log("scale set " + spec.name() + " now has the model of " + spec.instanceType());
    return poll.waitFor(ctx, "scale set " + spec.name() + " is taking the size " + spec.instanceType());
  }

  /** One turn of the rolling upgrade: waits while an instance is changing, else upgrades the next one behind. */
  private StepResult upgradeInstances(StepContext ctx, VmPoolSpec spec) {
    List<VirtualMachineScaleSetVMInner> instances = calls.call(SCALE_SET_VMS_READ, () -> clients.compute()
        .serviceClient().getVirtualMachineScaleSetVMs().list(resourceGroup, spec.name()).stream().toList());
    if (instances.stream().anyMatch(vm -> !"Succeeded".equals(vm.provisioningState()))) {
      return poll.waitFor(ctx, "scale set " + spec.name() + " is upgrading an instance");
    }
    var behind = instances.stream().filter(vm -> !Boolean.TRUE.equals(vm.latestModelApplied())).findFirst();
    if (behind.isEmpty()) {
      return StepResult.done();
    }
    calls.call(SCALE_SETS_MANUAL_UPGRADE, () -> clients.compute().serviceClient().getVirtualMachineScaleSets()
        .beginUpdateInstances(resourceGroup, spec.name(), new VirtualMachineScaleSetVMInstanceRequiredIDs()
            .withInstanceIds(List.of(behind.get().instanceId()))));
    ctx.log("upgrading instance " + behind.get().instanceId() + " of scale set " + spec.name() + " to "
        + spec.instanceType());
    return poll.waitFor(ctx, "scale set " + spec.name() + " is upgrading instance " + behind.get().instanceId());
  }

  @Override
  public List<Step> teardown(VmPoolSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("delete-autoscale", List.of(AUTOSCALE_READ, AUTOSCALE_DELETE),
        ctx -> autoscale(spec).remove(ctx, poll, () -> calls.run(AUTOSCALE_DELETE, () -> clients.monitor()
            .serviceClient().getAutoscaleSettings().delete(resourceGroup, autoscaleName(spec))))));
    steps.add(ProviderStep.of("delete-scale-set", List.of(SCALE_SETS_READ, SCALE_SETS_DELETE),
        ctx -> scaleSet(spec).remove(ctx, poll, () -> calls.deleteIfExists(SCALE_SETS_DELETE, () -> clients
            .compute().serviceClient().getVirtualMachineScaleSets().beginDelete(resourceGroup, spec.name())))));
    if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("delete-load-balancer", List.of(LOAD_BALANCERS_READ, LOAD_BALANCERS_DELETE),
          ctx -> loadBalancer(spec).remove(ctx, poll, () -> calls.deleteIfExists(LOAD_BALANCERS_DELETE,
              () -> clients.network().serviceClient().getLoadBalancers().beginDelete(resourceGroup, lbName(spec))))));
      steps.add(ProviderStep.of("delete-public-ip", List.of(PUBLIC_IPS_READ, PUBLIC_IPS_DELETE),
          ctx -> publicIp(spec).remove(ctx, poll, () -> calls.deleteIfExists(PUBLIC_IPS_DELETE,
              () -> clients.network().serviceClient().getPublicIpAddresses().beginDelete(resourceGroup,
                  ipName(spec))))));
    }
    steps.add(ProviderStep.of("delete-security-group", withVault(vault && !ownsNetwork(spec),
        List.of(SECURITY_GROUPS_READ, SECURITY_GROUPS_DELETE), KEY_VAULT_SECRETS_DELETE, KEY_VAULT_SECRETS_PURGE),
        ctx -> forgetKeyOnceDone(ctx, !ownsNetwork(spec), securityGroup(spec).remove(ctx, poll,
            () -> calls.deleteIfExists(SECURITY_GROUPS_DELETE, () -> clients.network().serviceClient()
                .getNetworkSecurityGroups().beginDelete(resourceGroup, nsgName(spec)))))));
    if (ownsNetwork(spec)) {
      steps.add(ProviderStep.of("delete-network", withVault(vault, List.of(VIRTUAL_NETWORKS_READ,
          VIRTUAL_NETWORKS_DELETE), KEY_VAULT_SECRETS_DELETE, KEY_VAULT_SECRETS_PURGE),
          ctx -> forgetKeyOnceDone(ctx, true, network(spec).remove(ctx, poll,
              () -> calls.deleteIfExists(VIRTUAL_NETWORKS_DELETE, () -> clients.network().serviceClient()
                  .getVirtualNetworks().beginDelete(resourceGroup, ownNetwork(spec)))))));
    }
    return steps;
  }

  /** The last teardown step, once done, removes the SSH key: nothing is left to log in to. */
  private static StepResult forgetKeyOnceDone(StepContext ctx, boolean last, StepResult result) {
    SecretRef ref = ctx.outputs().get(SSH_KEY_SECRET_REF);
    if (last && ref != null && result instanceof StepResult.Done) {
      ctx.secrets().delete(ref);
    }
    return result;
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(VmPoolSpec spec, String spaceRegion) {
    String priceRegion = AzurePrices.region(spaceRegion, location);
    List<CostComponent> costs = new ArrayList<>();
    costs.add(AzurePrices.TABLE.hourly(priceRegion, "instances (" + spec.instanceType() + ", at the minimum of "
        + spec.min() + ")", "vm:" + spec.instanceType(), spec.min()));
    if (spec.createLoadBalancer()) {
      // a Standard Load Balancer bills its first five rules as one; the outbound rule counts as a rule
      int rules = spec.listenerPorts().size() + 1;
      costs.add(AzurePrices.TABLE.hourly(priceRegion, "Standard Load Balancer (first 5 rules)", "lb:standard", 1));
      if (rules > 5) {
        costs.add(AzurePrices.TABLE.hourly(priceRegion, "Standard Load Balancer (rules beyond 5)",
            "lb:standard-rule", rules - 5));
      }
      costs.add(AzurePrices.TABLE.hourly(priceRegion, "static public IP (Standard)", "pip:standard", 1));
    }
    return costs;
  }

  // ---- the resources -----------------------------------------------------------------------------------

  private ArmResource<VirtualNetworkInner> network(VmPoolSpec spec) {
    return new ArmResource<>("virtual network", ownNetwork(spec), () -> calls.findOrNull(VIRTUAL_NETWORKS_READ,
        () -> clients.network().serviceClient().getVirtualNetworks().getByResourceGroup(resourceGroup,
            ownNetwork(spec))), VirtualNetworkInner::tags, VirtualNetworkInner::provisioningState);
  }

  private ArmResource<NetworkSecurityGroupInner> securityGroup(VmPoolSpec spec) {
    return new ArmResource<>("network security group", nsgName(spec), () -> calls.findOrNull(SECURITY_GROUPS_READ,
        () -> clients.network().serviceClient().getNetworkSecurityGroups().getByResourceGroup(resourceGroup,
            nsgName(spec))), NetworkSecurityGroupInner::tags, NetworkSecurityGroupInner::provisioningState);
  }

  private ArmResource<PublicIpAddressInner> publicIp(VmPoolSpec spec) {
    return new ArmResource<>("public IP address", ipName(spec), () -> calls.findOrNull(PUBLIC_IPS_READ,
        () -> clients.network().serviceClient().getPublicIpAddresses().getByResourceGroup(resourceGroup,
            ipName(spec))), PublicIpAddressInner::tags, PublicIpAddressInner::provisioningState);
  }

  private ArmResource<LoadBalancerInner> loadBalancer(VmPoolSpec spec) {
    return new ArmResource<>("load balancer", lbName(spec), () -> calls.findOrNull(LOAD_BALANCERS_READ,
        () -> clients.network().serviceClient().getLoadBalancers().getByResourceGroup(resourceGroup,
            lbName(spec))), LoadBalancerInner::tags, LoadBalancerInner::provisioningState);
  }

  private ArmResource<VirtualMachineScaleSetInner> scaleSet(VmPoolSpec spec) {
    return new ArmResource<>("scale set", spec.name(), () -> calls.findOrNull(SCALE_SETS_READ,
        () -> clients.compute().serviceClient().getVirtualMachineScaleSets().getByResourceGroup(resourceGroup,
            spec.name())), VirtualMachineScaleSetInner::tags, VirtualMachineScaleSetInner::provisioningState);
  }

  private ArmResource<AutoscaleSettingResourceInner> autoscale(VmPoolSpec spec) {
    // an autoscale setting has no provisioning state: it is there or it is not
    return new ArmResource<>("autoscale setting", autoscaleName(spec), () -> calls.findOrNull(AUTOSCALE_READ,
        () -> clients.monitor().serviceClient().getAutoscaleSettings().getByResourceGroup(resourceGroup,
            autoscaleName(spec))), AutoscaleSettingResourceInner::tags, a -> "Succeeded");
  }

  /**
   * The SSH key, generated into the space's secret store before anything is made — but not for a scale set
   * another job holds: that is refused first, and no key is left behind for it.
   */
  private StepResult createSshKey(StepContext ctx, VmPoolSpec spec) {
    VirtualMachineScaleSetInner existing = scaleSet(spec).find().get();
    var foreign = existing == null ? null
        : AzureTags.OWNER.refuseForeign(existing.tags(), ctx, "scale set", spec.name());
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    SecretRef recorded = ctx.outputs().get(SSH_KEY_SECRET_REF);
    SecretRef ref = recorded != null ? recorded
        : ctx.secrets().put("zop/" + ctx.jobId() + "/ssh-key", GeneratedSecrets.sshPrivateKey());
    return StepResult.done(SSH_KEY_SECRET_REF.is(ref));
  }

  private void putNetwork(StepContext ctx, VmPoolSpec spec) {
    VirtualNetworkInner wanted = new VirtualNetworkInner()
        .withAddressSpace(new AddressSpace().withAddressPrefixes(List.of("10.0.0.0/16")))
        .withSubnets(List.of(new SubnetInner().withName(OWN_SUBNET).withAddressPrefix("10.0.0.0/24")));
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "network"));
    calls.call(VIRTUAL_NETWORKS_WRITE, () -> clients.network().serviceClient().getVirtualNetworks()
        .beginCreateOrUpdate(resourceGroup, ownNetwork(spec), wanted));
  }

  /** The ports the pool opens: its listener ports behind a load balancer, else none. */
  private static Set<Integer> wantedPorts(VmPoolSpec spec) {
    return spec.createLoadBalancer() ? new TreeSet<>(spec.listenerPorts()) : Set.of();
  }

  private static Set<Integer> openPorts(NetworkSecurityGroupInner nsg) {
    return nsg.securityRules() == null ? Set.of() : nsg.securityRules().stream()
        .map(rule -> Integer.valueOf(rule.destinationPortRange())).collect(Collectors.toCollection(TreeSet::new));
  }

  private void putSecurityGroup(StepContext ctx, VmPoolSpec spec) {
    List<SecurityRuleInner> rules = new ArrayList<>();
    int priority = 100;
    for (int port : wantedPorts(spec)) {
      rules.add(new SecurityRuleInner().withName("allow-tcp-" + port).withPriority(priority++)
          .withDirection(SecurityRuleDirection.INBOUND).withAccess(SecurityRuleAccess.ALLOW)
          .withProtocol(SecurityRuleProtocol.TCP).withSourceAddressPrefix("Internet").withSourcePortRange("*")
          .withDestinationAddressPrefix("*").withDestinationPortRange(String.valueOf(port)));
    }
    NetworkSecurityGroupInner wanted = new NetworkSecurityGroupInner().withSecurityRules(rules);
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "security-group"));
    calls.call(SECURITY_GROUPS_WRITE, () -> clients.network().serviceClient().getNetworkSecurityGroups()
        .beginCreateOrUpdate(resourceGroup, nsgName(spec), wanted));
  }

  /** A domain label of the pool's name and its job, unique in the region as Azure requires. */
  static String domainLabel(StepContext ctx, VmPoolSpec spec) {
    String job = ctx.jobId().value().replaceAll("[^a-z0-9]", "");
    String label = (spec.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "") + "-"
        + job.substring(Math.max(0, job.length() - 8)));
    return label.length() > 63 ? label.substring(label.length() - 63) : label;
  }

  private void putPublicIp(StepContext ctx, VmPoolSpec spec) {
    PublicIpAddressInner wanted = new PublicIpAddressInner()
        .withSku(new PublicIpAddressSku().withName(PublicIpAddressSkuName.STANDARD)
            .withTier(PublicIpAddressSkuTier.REGIONAL))
        .withPublicIpAllocationMethod(IpAllocationMethod.STATIC)
        .withDnsSettings(new PublicIpAddressDnsSettings().withDomainNameLabel(domainLabel(ctx, spec)));
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "public-ip"));
    calls.call(PUBLIC_IPS_WRITE, () -> clients.network().serviceClient().getPublicIpAddresses()
        .beginCreateOrUpdate(resourceGroup, ipName(spec), wanted));
  }

  private static Map<String, String> addressOutputs(PublicIpAddressInner ip) {
    Map<String, String> outputs = new HashMap<>();
    outputs.putAll(Map.ofEntries(PUBLIC_IP_ID.is(ip.id())));
    if (ip.ipAddress() != null) {
      outputs.putAll(Map.ofEntries(LOAD_BALANCER_ADDRESS.is(ip.ipAddress())));
    }
    if (ip.dnsSettings() != null && ip.dnsSettings().fqdn() != null) {
      outputs.putAll(Map.ofEntries(DNS_NAME.is(ip.dnsSettings().fqdn())));
    }
    return outputs;
  }

  private static Set<Integer> rulePorts(LoadBalancerInner lb) {
    return lb.loadBalancingRules() == null ? Set.of() : lb.loadBalancingRules().stream()
        .map(LoadBalancingRuleInner::frontendPort).collect(Collectors.toCollection(TreeSet::new));
  }

  private void putLoadBalancer(StepContext ctx, VmPoolSpec spec) {
    String lb = id("Microsoft.Network", "loadBalancers", lbName(spec));
    SubResource frontend = new SubResource().withId(lb + "/frontendIPConfigurations/frontend");
    SubResource pool = new SubResource().withId(lb + "/backendAddressPools/pool");
    List<ProbeInner> probes = new ArrayList<>();
    List<LoadBalancingRuleInner> rules = new ArrayList<>();
    for (int port : wantedPorts(spec)) {
      probes.add(new ProbeInner().withName("tcp-" + port).withProtocol(ProbeProtocol.TCP).withPort(port)
          .withIntervalInSeconds(5).withNumberOfProbes(2));
      rules.add(new LoadBalancingRuleInner().withName("tcp-" + port).withFrontendIpConfiguration(frontend)
          .withBackendAddressPool(pool).withProbe(new SubResource().withId(lb + "/probes/tcp-" + port))
          .withProtocol(TransportProtocol.TCP).withFrontendPort(port).withBackendPort(port)
          .withIdleTimeoutInMinutes(4).withEnableTcpReset(true).withDisableOutboundSnat(true));
    }
    LoadBalancerInner wanted = new LoadBalancerInner()
        .withSku(new LoadBalancerSku().withName(LoadBalancerSkuName.STANDARD).withTier(LoadBalancerSkuTier.REGIONAL))
        .withFrontendIpConfigurations(List.of(new FrontendIpConfigurationInner().withName("frontend")
            .withPublicIpAddress(new PublicIpAddressInner().withId(ctx.outputs().require(PUBLIC_IP_ID)))))
        .withBackendAddressPools(List.of(new BackendAddressPoolInner().withName("pool")))
        .withProbes(probes).withLoadBalancingRules(rules)
        .withOutboundRules(List.of(new OutboundRuleInner().withName("outbound")
            .withFrontendIpConfigurations(List.of(frontend)).withBackendAddressPool(pool)
            .withProtocol(LoadBalancerOutboundRuleProtocol.ALL).withEnableTcpReset(true)));
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "load-balancer"));
    calls.call(LOAD_BALANCERS_WRITE, () -> clients.network().serviceClient().getLoadBalancers()
        .beginCreateOrUpdate(resourceGroup, lbName(spec), wanted));
  }

  static ImageReference image(String imageId) {
    if (imageId == null) {
      return image(DEFAULT_IMAGE);
    }
    if (imageId.startsWith("/")) {
      return new ImageReference().withId(imageId);
    }
    String[] urn = imageId.split(":");
    return new ImageReference().withPublisher(urn[0]).withOffer(urn[1]).withSku(urn[2]).withVersion(urn[3]);
  }

  /** Computer names of Linux scale sets start with a prefix of letters, digits and hyphens. */
  static String computerNamePrefix(VmPoolSpec spec) {
    String prefix = spec.name().replaceAll("[^A-Za-z0-9-]", "");
    return prefix.length() > 15 ? prefix.substring(0, 15) : prefix;
  }

  private void putScaleSet(StepContext ctx, VmPoolSpec spec) {
    String key = ctx.secrets().get(ctx.outputs().require(SSH_KEY_SECRET_REF));
    VirtualMachineScaleSetInner existing = scaleSet(spec).find().get();
    // a scale set already there keeps the size its autoscale setting gave it
    long capacity = existing != null && existing.sku() != null && existing.sku().capacity() != null
        ? existing.sku().capacity() : spec.min();
    VirtualMachineScaleSetIpConfiguration ip = new VirtualMachineScaleSetIpConfiguration().withName("ipconfig")
        .withPrimary(true).withSubnet(new ApiEntityReference().withId(subnetId(spec)));
    if (spec.createLoadBalancer()) {
      ip.withLoadBalancerBackendAddressPools(List.of(new SubResource().withId(id("Microsoft.Network",
          "loadBalancers", lbName(spec)) + "/backendAddressPools/pool")));
    }
    VirtualMachineScaleSetVMProfile profile = new VirtualMachineScaleSetVMProfile()
        .withOsProfile(new VirtualMachineScaleSetOSProfile().withComputerNamePrefix(computerNamePrefix(spec))
            .withAdminUsername(ADMIN_USER).withLinuxConfiguration(new LinuxConfiguration()
                .withDisablePasswordAuthentication(true).withSsh(new SshConfiguration().withPublicKeys(List.of(
                    new SshPublicKey().withPath("/home/" + ADMIN_USER + "/.ssh/authorized_keys")
                        .withKeyData(GeneratedSecrets.sshPublicKey(key, ADMIN_USER + "@" + spec.name())))))))
        .withStorageProfile(new VirtualMachineScaleSetStorageProfile().withImageReference(image(spec.imageId()))
            .withOsDisk(new VirtualMachineScaleSetOSDisk().withCreateOption(DiskCreateOptionTypes.FROM_IMAGE)
                .withCaching(CachingTypes.READ_WRITE).withManagedDisk(new VirtualMachineScaleSetManagedDiskParameters()
                    .withStorageAccountType(StorageAccountTypes.STANDARD_SSD_LRS))))
        .withNetworkProfile(new VirtualMachineScaleSetNetworkProfile().withNetworkInterfaceConfigurations(List.of(
            new VirtualMachineScaleSetNetworkConfiguration().withName("nic").withPrimary(true)
                .withNetworkSecurityGroup(new SubResource().withId(ctx.outputs().require(SECURITY_GROUP_ID)))
                .withIpConfigurations(List.of(ip)))));
    VirtualMachineScaleSetInner wanted = new VirtualMachineScaleSetInner()
        .withSku(new com.azure.resourcemanager.compute.models.Sku().withName(spec.instanceType())
            .withTier("Standard").withCapacity(capacity))
        .withUpgradePolicy(new UpgradePolicy().withMode(UpgradeMode.MANUAL)).withOverprovision(false)
        .withVirtualMachineProfile(profile);
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "scale-set"));
    calls.call(SCALE_SETS_WRITE, () -> clients.compute().serviceClient().getVirtualMachineScaleSets()
        .beginCreateOrUpdate(resourceGroup, spec.name(), wanted));
  }

  /** The autoscale setting is sent every time: a synchronous, idempotent PUT that sets min and max right. */
  private StepResult ensureAutoscale(StepContext ctx, VmPoolSpec spec) {
    AutoscaleSettingResourceInner existing = autoscale(spec).find().get();
    var foreign = existing == null ? null
        : AzureTags.OWNER.refuseForeign(existing.tags(), ctx, "autoscale setting", autoscaleName(spec));
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    String target = ctx.outputs().require(SCALE_SET_ID);
    AutoscaleProfileInner profile = new AutoscaleProfileInner().withName("cpu")
        .withCapacity(new ScaleCapacity().withMinimum(String.valueOf(spec.min()))
            .withMaximum(String.valueOf(spec.max())).withDefaultProperty(String.valueOf(spec.min())))
        .withRules(List.of(cpuRule(target, ComparisonOperationType.GREATER_THAN, 70, ScaleDirection.INCREASE,
            Duration.ofMinutes(5)), cpuRule(target, ComparisonOperationType.LESS_THAN, 30, ScaleDirection.DECREASE,
            Duration.ofMinutes(10))));
    AutoscaleSettingResourceInner wanted = new AutoscaleSettingResourceInner().withProfiles(List.of(profile))
        .withEnabled(true).withTargetResourceUri(target).withTargetResourceLocation(location.get())
        .withNamePropertiesName(autoscaleName(spec));
    wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "autoscale"));
    calls.call(AUTOSCALE_WRITE, () -> clients.monitor().serviceClient().getAutoscaleSettings()
        .createOrUpdate(resourceGroup, autoscaleName(spec), wanted));
    return StepResult.done(AUTOSCALE_NAME.is(autoscaleName(spec)), MIN_SIZE.is(String.valueOf(spec.min())),
        MAX_SIZE.is(String.valueOf(spec.max())));
  }

  private static ScaleRuleInner cpuRule(String target, ComparisonOperationType operator, double threshold,
      ScaleDirection direction, Duration cooldown) {
    return new ScaleRuleInner()
        .withMetricTrigger(new MetricTrigger().withMetricName("Percentage CPU").withMetricResourceUri(target)
            .withTimeGrain(Duration.ofMinutes(1)).withStatistic(MetricStatisticType.AVERAGE)
            .withTimeWindow(Duration.ofMinutes(5)).withTimeAggregation(TimeAggregationType.AVERAGE)
            .withOperator(operator).withThreshold(threshold))
        .withScaleAction(new ScaleAction().withDirection(direction).withType(ScaleType.CHANGE_COUNT).withValue("1")
            .withCooldown(cooldown));
  }
}

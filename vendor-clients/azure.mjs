// Microsoft's own Node.js clients (the Azure SDK for JavaScript) against the ARM fake: for every resource kind the
// Azure provider creates, create and wait as the client's poller waits, get (Succeeded), list, delete and wait,
// get is 404; then the resource group's own delete. The fake is described by the JSON ArmFakeMain prints, in
// ARM_FAKE; NODE_EXTRA_CA_CERTS trusts its certificate.
import assert from 'node:assert/strict';
import { ClientSecretCredential } from '@azure/identity';
import { ResourceManagementClient } from '@azure/arm-resources';
import { NetworkManagementClient } from '@azure/arm-network';
import { ComputeManagementClient } from '@azure/arm-compute';
import { ContainerServiceClient } from '@azure/arm-containerservice';
import { ContainerRegistryManagementClient } from '@azure/arm-containerregistry';
import { PostgreSQLManagementFlexibleServerClient } from '@azure/arm-postgresql-flexible';
import { KeyVaultManagementClient } from '@azure/arm-keyvault';
import { SecretClient } from '@azure/keyvault-secrets';
import { RedisManagementClient } from '@azure/arm-rediscache';
import { MySQLManagementFlexibleServerClient } from '@azure/arm-mysql-flexible';
import { MonitorClient } from '@azure/arm-monitor';
import { PrivateDnsManagementClient } from '@azure/arm-privatedns';

const fake = JSON.parse(process.env.ARM_FAKE);
const subscription = fake.subscription;
const group = 'node-rg';
const location = 'westeurope';
const only = process.argv.slice(2);
// a service principal signing in with its secret, the fake as the authority host (its token endpoint hands out the
// token the fake accepts); instance discovery asks login.microsoftonline.com which hosts are authorities
const credential = new ClientSecretCredential(fake.tenant, fake.clientId, fake.clientSecret,
  { authorityHost: fake.authorityHost, disableInstanceDiscovery: true });
const options = { endpoint: fake.endpoint };
// how often a poller polls when the service's Retry-After does not say (the fake says 0: come back at once)
const poll = { updateIntervalInMs: 10 };
const log = (...args) => console.log(...args);
let checked = 0;
const rg = (path) => `/subscriptions/${subscription}/resourceGroups/${group}/providers/${path}`;

async function gone(what, read) {
  try {
    await read();
  } catch (e) {
    assert.equal(e.statusCode, 404, `${what}: expected 404 after delete, got ${e.statusCode} ${e.message}`);
    return;
  }
  assert.fail(`${what} is still there after its delete finished`);
}

async function listAll(iterator) {
  const names = [];
  for await (const item of iterator) names.push(item.name);
  return names;
}

/** create and wait, get, list, delete and wait, 404: the life of one resource through one client's operations. */
async function kind(label, { create, get, list, remove, final = r => r.provisioningState, expected = 'Succeeded' }) {
  const made = await create();
  assert.equal(final(made), expected, `${label} created`);
  const read = await get();
  assert.equal(final(read), expected, `${label} reads ${expected} once its operation is done`);
  assert.ok((await listAll(list())).includes(read.name), `${label} listed`);
  await remove();
  await gone(label, get);
  checked++;
  log(`${label}: create, wait, get ${expected}, list, delete, wait, 404`);
}

const resources = new ResourceManagementClient(credential, subscription, options);
const network = new NetworkManagementClient(credential, subscription, options);
const compute = new ComputeManagementClient(credential, subscription, options);
const aks = new ContainerServiceClient(credential, subscription, options);
const acr = new ContainerRegistryManagementClient(credential, subscription, options);
const postgres = new PostgreSQLManagementFlexibleServerClient(credential, subscription, options);
const keyVault = new KeyVaultManagementClient(credential, subscription, options);
const redis = new RedisManagementClient(credential, subscription, options);
const mysql = new MySQLManagementFlexibleServerClient(credential, subscription, options);
const monitor = new MonitorClient(credential, subscription, options);
const privateDns = new PrivateDnsManagementClient(credential, subscription, options);

// a resource in a group that does not exist is refused, as ARM refuses it
await assert.rejects(network.virtualNetworks.beginCreateOrUpdateAndWait(group, 'early', { location,
  addressSpace: { addressPrefixes: ['10.1.0.0/16'] } }, poll), e => e.code === 'ResourceGroupNotFound');

const made = await resources.resourceGroups.createOrUpdate(group, { location, tags: { team: 'node' } });
assert.equal(made.properties.provisioningState, 'Succeeded');
assert.equal((await resources.resourceGroups.checkExistence(group)).body, true);
assert.ok((await listAll(resources.resourceGroups.list())).includes(group));
log('resource group: create, exists, list');

const vnet = () => network.virtualNetworks.get(group, 'node-net');
await network.virtualNetworks.beginCreateOrUpdateAndWait(group, 'node-net', { location,
  addressSpace: { addressPrefixes: ['10.9.0.0/16'] } }, poll);
await network.virtualNetworks.beginCreateOrUpdateAndWait(group, 'node-peer', { location,
  addressSpace: { addressPrefixes: ['10.8.0.0/16'] } }, poll);
const net = await vnet();

/** A scale set of one instance in the network's vmss subnet. */
const scaleSet = () => ({ location,
      sku: { name: 'Standard_D2s_v5', capacity: 1 }, upgradePolicy: { mode: 'Manual' },
      virtualMachineProfile: { osProfile: { computerNamePrefix: 'node', adminUsername: 'azureuser',
        linuxConfiguration: { disablePasswordAuthentication: true, ssh: { publicKeys: [{ path: '/home/azureuser/.ssh/authorized_keys', keyData: 'ssh-ed25519 AAAA node' }] } } },
      storageProfile: { imageReference: { publisher: 'Canonical', offer: 'ubuntu-24_04-lts', sku: 'server', version: 'latest' } },
      networkProfile: { networkInterfaceConfigurations: [{ name: 'nic', primary: true,
        ipConfigurations: [{ name: 'ip', subnet: { id: net.id + '/subnets/vmss' } }] }] } } });

const kinds = {
  virtualNetwork: () => kind('virtualNetwork', {
    create: () => network.virtualNetworks.beginCreateOrUpdateAndWait(group, 'node-own', { location,
      addressSpace: { addressPrefixes: ['10.7.0.0/16'] } }, poll),
    get: () => network.virtualNetworks.get(group, 'node-own'),
    list: () => network.virtualNetworks.list(group),
    remove: () => network.virtualNetworks.beginDeleteAndWait(group, 'node-own', poll),
  }),
  subnet: () => kind('subnet', {
    create: () => network.subnets.beginCreateOrUpdateAndWait(group, 'node-net', 'node-subnet', { addressPrefix: '10.9.1.0/24' }, poll),
    get: () => network.subnets.get(group, 'node-net', 'node-subnet'),
    list: () => network.subnets.list(group, 'node-net'),
    remove: () => network.subnets.beginDeleteAndWait(group, 'node-net', 'node-subnet', poll),
  }),
  peering: () => kind('virtualNetworkPeering', {
    create: () => network.virtualNetworkPeerings.beginCreateOrUpdateAndWait(group, 'node-net', 'net-to-peer',
      { remoteVirtualNetwork: { id: rg('Microsoft.Network/virtualNetworks/node-peer') }, allowVirtualNetworkAccess: true }, poll),
    get: () => network.virtualNetworkPeerings.get(group, 'node-net', 'net-to-peer'),
    list: () => network.virtualNetworkPeerings.list(group, 'node-net'),
    remove: () => network.virtualNetworkPeerings.beginDeleteAndWait(group, 'node-net', 'net-to-peer', poll),
  }),
  networkSecurityGroup: () => kind('networkSecurityGroup', {
    create: () => network.networkSecurityGroups.beginCreateOrUpdateAndWait(group, 'node-nsg', { location,
      securityRules: [{ name: 'https', protocol: 'Tcp', access: 'Allow', direction: 'Inbound', priority: 100,
        sourceAddressPrefix: '*', sourcePortRange: '*', destinationAddressPrefix: '*', destinationPortRange: '443' }] }, poll),
    get: () => network.networkSecurityGroups.get(group, 'node-nsg'),
    list: () => network.networkSecurityGroups.list(group),
    remove: () => network.networkSecurityGroups.beginDeleteAndWait(group, 'node-nsg', poll),
  }),
  publicIPAddress: () => kind('publicIPAddress', {
    create: () => network.publicIPAddresses.beginCreateOrUpdateAndWait(group, 'node-ip', { location,
      sku: { name: 'Standard' }, publicIPAllocationMethod: 'Static' }, poll),
    get: () => network.publicIPAddresses.get(group, 'node-ip'),
    list: () => network.publicIPAddresses.list(group),
    remove: () => network.publicIPAddresses.beginDeleteAndWait(group, 'node-ip', poll),
  }),
  loadBalancer: () => kind('loadBalancer', {
    create: () => network.loadBalancers.beginCreateOrUpdateAndWait(group, 'node-lb', { location, sku: { name: 'Standard' },
      backendAddressPools: [{ name: 'pool' }] }, poll),
    get: () => network.loadBalancers.get(group, 'node-lb'),
    list: () => network.loadBalancers.list(group),
    remove: () => network.loadBalancers.beginDeleteAndWait(group, 'node-lb', poll),
  }),
  virtualMachineScaleSet: () => kind('virtualMachineScaleSet', {
    create: () => compute.virtualMachineScaleSets.beginCreateOrUpdateAndWait(group, 'node-vmss', scaleSet(), poll),
    get: () => compute.virtualMachineScaleSets.get(group, 'node-vmss'),
    list: () => compute.virtualMachineScaleSets.list(group),
    remove: () => compute.virtualMachineScaleSets.beginDeleteAndWait(group, 'node-vmss', poll),
  }),
  managedCluster: () => kind('managedCluster', {
    create: () => aks.managedClusters.beginCreateOrUpdateAndWait(group, 'node-aks', { location, dnsPrefix: 'node-aks',
      identity: { type: 'SystemAssigned' },
      agentPoolProfiles: [{ name: 'system', mode: 'System', count: 1, vmSize: 'Standard_D2s_v5' }] }, poll),
    get: () => aks.managedClusters.get(group, 'node-aks'),
    list: () => aks.managedClusters.listByResourceGroup(group),
    remove: () => aks.managedClusters.beginDeleteAndWait(group, 'node-aks', poll),
  }),
  registry: () => kind('registry', {
    create: () => acr.registries.beginCreateAndWait(group, 'noderegistry', { location, sku: { name: 'Standard' } }, poll),
    get: () => acr.registries.get(group, 'noderegistry'),
    list: () => acr.registries.listByResourceGroup(group),
    remove: () => acr.registries.beginDeleteAndWait(group, 'noderegistry', poll),
  }),
  agentPool: async () => {
    await aks.managedClusters.beginCreateOrUpdateAndWait(group, 'node-pools', { location, dnsPrefix: 'node-pools',
      identity: { type: 'SystemAssigned' },
      agentPoolProfiles: [{ name: 'system', mode: 'System', count: 1, vmSize: 'Standard_D2s_v5' }] }, poll);
    await kind('agentPool', {
      create: () => aks.agentPools.beginCreateOrUpdateAndWait(group, 'node-pools', 'user', { mode: 'User', count: 2,
        vmSize: 'Standard_D4s_v5', minCount: 1, maxCount: 3, enableAutoScaling: true }, poll),
      get: () => aks.agentPools.get(group, 'node-pools', 'user'),
      list: () => aks.agentPools.list(group, 'node-pools'),
      remove: () => aks.agentPools.beginDeleteAndWait(group, 'node-pools', 'user', poll),
    });
    await aks.managedClusters.beginDeleteAndWait(group, 'node-pools', poll);
  },
  database: async () => {
    await postgres.servers.beginCreateOrUpdateAndWait(group, 'node-db-host', { location,
      sku: { name: 'Standard_D2ds_v5', tier: 'GeneralPurpose' }, version: '16', administratorLogin: 'pgadmin',
      administratorLoginPassword: 'Not-a-real-1', storage: { storageSizeGB: 64 } }, poll);
    await kind('flexibleServer database', {
      create: () => postgres.databases.beginCreateAndWait(group, 'node-db-host', 'orders', { charset: 'UTF8', collation: 'en_US.utf8' }, poll),
      get: () => postgres.databases.get(group, 'node-db-host', 'orders'),
      list: () => postgres.databases.listByServer(group, 'node-db-host'),
      remove: () => postgres.databases.beginDeleteAndWait(group, 'node-db-host', 'orders', poll),
      // a database's model has no provisioning state: made means it reads back with its charset
      final: r => r.charset, expected: 'UTF8',
    });
    await postgres.servers.beginDeleteAndWait(group, 'node-db-host', poll);
  },
  vault: () => kind('vault', {
    create: () => keyVault.vaults.beginCreateOrUpdateAndWait(group, 'node-vault', { location,
      properties: { tenantId: '00000000-0000-0000-0000-0000000000aa', sku: { family: 'A', name: 'standard' },
        enableRbacAuthorization: true } }, poll),
    get: () => keyVault.vaults.get(group, 'node-vault'),
    list: () => keyVault.vaults.listByResourceGroup(group),
    remove: () => keyVault.vaults.delete(group, 'node-vault'),
    final: r => r.properties.provisioningState,
  }),
  secret: async () => {
    // the data plane at the fake's address: the client's challenge handshake runs as against any vault; a vault
    // on an IP address cannot match the challenge's vault.azure.net, which is what the client's documented
    // disableChallengeResourceVerification is for (private endpoints, sovereign clouds)
    const secrets = new SecretClient(fake.endpoint, credential, { disableChallengeResourceVerification: true });
    await secrets.setSecret('node-secret', 's3cret');
    assert.equal((await secrets.getSecret('node-secret')).value, 's3cret');
    const listed = [];
    for await (const p of secrets.listPropertiesOfSecrets()) listed.push(p.name);
    assert.ok(listed.includes('node-secret'), `secret listed: ${listed}`);
    const deleting = await secrets.beginDeleteSecret('node-secret', { intervalInMs: 10 });
    await deleting.pollUntilDone();
    await gone('secret node-secret', () => secrets.getSecret('node-secret'));
    await secrets.purgeDeletedSecret('node-secret');
    checked++;
    log('key vault secret: set, get, list, delete, wait, 404, purge');
  },
  redis: () => kind('redis', {
    create: () => redis.redis.beginCreateAndWait(group, 'node-cache', { location,
      sku: { name: 'Standard', family: 'C', capacity: 1 }, enableNonSslPort: false, minimumTlsVersion: '1.2' }, poll),
    get: () => redis.redis.get(group, 'node-cache'),
    list: () => redis.redis.listByResourceGroup(group),
    remove: () => redis.redis.beginDeleteAndWait(group, 'node-cache', poll),
  }),
  mysqlFlexibleServer: () => kind('mysql flexibleServer', {
    create: () => mysql.servers.beginCreateAndWait(group, 'node-mysql', { location,
      sku: { name: 'Standard_D2ds_v4', tier: 'GeneralPurpose' }, version: '8.0.21', administratorLogin: 'myadmin',
      administratorLoginPassword: 'Not-a-real-1', storage: { storageSizeGB: 64 } }, poll),
    get: () => mysql.servers.get(group, 'node-mysql'),
    list: () => mysql.servers.listByResourceGroup(group),
    remove: () => mysql.servers.beginDeleteAndWait(group, 'node-mysql', poll),
    final: r => r.state, expected: 'Ready',
  }),
  autoscaleSetting: async () => {
    // a setting names the scale set it scales, which must exist
    await compute.virtualMachineScaleSets.beginCreateOrUpdateAndWait(group, 'node-scaled', scaleSet(), poll);
    await kind('autoscaleSetting', {
    create: () => monitor.autoscaleSettings.createOrUpdate(group, 'node-autoscale', { location, enabled: true,
      targetResourceUri: rg('Microsoft.Compute/virtualMachineScaleSets/node-scaled'),
      profiles: [{ name: 'default', capacity: { minimum: '1', maximum: '3', default: '1' }, rules: [] }] }),
    get: () => monitor.autoscaleSettings.get(group, 'node-autoscale'),
    list: () => monitor.autoscaleSettings.listByResourceGroup(group),
    remove: () => monitor.autoscaleSettings.delete(group, 'node-autoscale'),
    // answered at once, without an operation: made means it reads back enabled
    final: r => r.enabled, expected: true,
    });
    await compute.virtualMachineScaleSets.beginDeleteAndWait(group, 'node-scaled', poll);
  },
  privateDnsZone: async () => {
    await kind('privateDnsZone', {
      create: () => privateDns.privateZones.beginCreateOrUpdateAndWait(group, 'node.internal', { location: 'global' }, poll),
      get: () => privateDns.privateZones.get(group, 'node.internal'),
      list: () => privateDns.privateZones.listByResourceGroup(group),
      remove: async () => {
        await kind('virtualNetworkLink', {
          create: () => privateDns.virtualNetworkLinks.beginCreateOrUpdateAndWait(group, 'node.internal', 'node-link',
            { location: 'global', virtualNetwork: { id: net.id }, registrationEnabled: false }, poll),
          get: () => privateDns.virtualNetworkLinks.get(group, 'node.internal', 'node-link'),
          list: () => privateDns.virtualNetworkLinks.list(group, 'node.internal'),
          remove: () => privateDns.virtualNetworkLinks.beginDeleteAndWait(group, 'node.internal', 'node-link', poll),
        });
        await privateDns.privateZones.beginDeleteAndWait(group, 'node.internal', poll);
      },
    });
  },
  flexibleServer: () => kind('flexibleServer', {
    create: () => postgres.servers.beginCreateOrUpdateAndWait(group, 'node-pg', { location,
      sku: { name: 'Standard_D2ds_v5', tier: 'GeneralPurpose' }, version: '16', administratorLogin: 'pgadmin',
      administratorLoginPassword: 'Not-a-real-1', storage: { storageSizeGB: 64 } }, poll),
    get: () => postgres.servers.get(group, 'node-pg'),
    list: () => postgres.servers.listByResourceGroup(group),
    remove: () => postgres.servers.beginDeleteAndWait(group, 'node-pg', poll),
    // the server's model has no provisioning state: its state reads Ready once made
    final: r => r.state, expected: 'Ready',
  }),
};
// a subnet for the scale set's NIC to name
await network.subnets.beginCreateOrUpdateAndWait(group, 'node-net', 'vmss', { addressPrefix: '10.9.2.0/24' }, poll);
for (const [name, run] of Object.entries(kinds)) {
  if (only.length && !only.includes(name)) continue;
  await run();
}

// the group's delete is an operation too, and takes what it still holds (the networks) with it
await resources.resourceGroups.beginDeleteAndWait(group, poll);
assert.equal((await resources.resourceGroups.checkExistence(group)).body, false);
await gone('virtual network node-net', vnet);
checked++;
log('resource group: delete, wait, gone with what it held');
log(`checked ${checked} kinds`);

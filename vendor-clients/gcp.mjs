// Google's own Node.js clients against the GCP fake, over their REST transport: for every resource kind the GCP
// provider creates, create, wait on the operation the way the client waits, get (final state), list, delete, wait,
// get is 404. The fake is described by the JSON GcpFakeMain prints, in GCP_FAKE; NODE_EXTRA_CA_CERTS trusts it.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import compute from '@google-cloud/compute';
import container from '@google-cloud/container';
import redis from '@google-cloud/redis';
import artifactRegistry from '@google-cloud/artifact-registry';
import secretManager from '@google-cloud/secret-manager';
import sql from '@google-cloud/sql';
import { DNS } from '@google-cloud/dns';
import { JWT } from 'google-auth-library';

const fake = JSON.parse(process.env.GCP_FAKE);
const key = JSON.parse(readFileSync(fake.keyFile, 'utf8'));
const project = fake.project;
const region = 'us-central1';
const only = process.argv.slice(2);

// The service-account key, used as Google's Node.js clients use one for Google's own APIs: a JWT the client
// signs itself (the fake checks its signature against the key), since their token endpoint is not configurable.
const authClient = () => new JWT({ email: key.client_email, key: key.private_key });

/** What every gax client takes to reach the fake's API over HTTPS with the REST transport. */
function options(api) {
  const url = new URL(fake.https[api]);
  return { apiEndpoint: url.hostname, port: Number(url.port), fallback: true, projectId: project, authClient: authClient() };
}

const log = (...args) => console.log(...args);
let checked = 0;

async function gone(what, read) {
  try {
    await read();
  } catch (e) {
    assert.equal(e.code, 5, `${what}: expected NOT_FOUND after delete, got ${e.code} ${e.message}`);
    return;
  }
  assert.fail(`${what} is still there after its delete finished`);
}

// ---- Compute Engine: insert/delete answer an Operation; the client's ExtendedOperation waits on it ----
async function computeKinds() {
  const c = (Client) => new compute[Client](options('compute'));
  const networks = c('NetworksClient');
  const subnetworks = c('SubnetworksClient');
  const firewalls = c('FirewallsClient');
  const link = (path) => `${fake.https.compute}/compute/v1/projects/${project}/${path}`;

  const globalOps = c('GlobalOperationsClient');
  const regionOps = c('RegionOperationsClient');
  /** As Google's samples wait on Compute Engine: the scope's operations client's wait, until DONE. */
  async function waitCompute([response], scope) {
    let operation = response.latestResponse;
    for (let i = 0; operation.status !== 'DONE' && i < 50; i++) {
      [operation] = scope.region ? await regionOps.wait({ project, region: scope.region, operation: operation.name })
        : await globalOps.wait({ project, operation: operation.name });
    }
    assert.equal(operation.status, 'DONE', `operation ${operation.name} done`);
    assert.ok(!operation.error, JSON.stringify(operation.error));
    return operation;
  }

  async function kind(name, client, scope, resource, key, extraGet = {}) {
    const id = resource.name;
    await waitCompute(await client.insert({ project, ...scope, [key]: resource }), scope);
    const [got] = await client.get({ project, ...scope, [name]: id, ...extraGet });
    assert.equal(got.name, id);
    const listed = [];
    for await (const item of client.listAsync({ project, ...scope })) listed.push(item.name);
    assert.ok(listed.includes(id), `${name} ${id} listed: ${listed}`);
    await waitCompute(await client.delete({ project, ...scope, [name]: id }), scope);
    await gone(`${name} ${id}`, () => client.get({ project, ...scope, [name]: id }));
    checked++;
    log(`compute ${name}: create, wait, get, list, delete, wait, 404`);
    return got;
  }

  // a network the others refer to stays until they are gone
  await waitCompute(await networks.insert({ project, networkResource: { name: 'node-net', autoCreateSubnetworks: false } }), {});
  const [net] = await networks.get({ project, network: 'node-net' });
  assert.equal(net.name, 'node-net');

  await kind('subnetwork', subnetworks, { region }, { name: 'node-subnet', network: net.selfLink, ipCidrRange: '10.9.0.0/24' }, 'subnetworkResource');
  await kind('firewall', firewalls, {}, { name: 'node-fw', network: net.selfLink, allowed: [{ IPProtocol: 'tcp', ports: ['443'] }], sourceRanges: ['10.0.0.0/8'] }, 'firewallResource');
  await kind('healthCheck', c('HealthChecksClient'), {}, { name: 'node-hc', type: 'TCP', tcpHealthCheck: { port: 80 } }, 'healthCheckResource');
  await kind('healthCheck', c('RegionHealthChecksClient'), { region }, { name: 'node-rhc', type: 'TCP', tcpHealthCheck: { port: 80 } }, 'healthCheckResource');
  await kind('instanceTemplate', c('InstanceTemplatesClient'), {}, { name: 'node-tpl', properties: { machineType: 'e2-small', disks: [{ boot: true, initializeParams: { sourceImage: 'projects/debian-cloud/global/images/family/debian-12' } }], networkInterfaces: [{ network: net.selfLink }] } }, 'instanceTemplateResource');
  await kind('instanceGroupManager', c('RegionInstanceGroupManagersClient'), { region }, { name: 'node-mig', baseInstanceName: 'node', instanceTemplate: link('global/instanceTemplates/none'), targetSize: 1 }, 'instanceGroupManagerResource');
  await kind('autoscaler', c('RegionAutoscalersClient'), { region }, { name: 'node-as', target: link(`regions/${region}/instanceGroupManagers/none`), autoscalingPolicy: { minNumReplicas: 1, maxNumReplicas: 3 } }, 'autoscalerResource');
  await kind('backendService', c('BackendServicesClient'), {}, { name: 'node-bs', loadBalancingScheme: 'EXTERNAL_MANAGED', protocol: 'HTTP' }, 'backendServiceResource');
  await kind('backendService', c('RegionBackendServicesClient'), { region }, { name: 'node-rbs', loadBalancingScheme: 'EXTERNAL', protocol: 'TCP' }, 'backendServiceResource');
  await kind('urlMap', c('UrlMapsClient'), {}, { name: 'node-map', defaultService: link('global/backendServices/none') }, 'urlMapResource');
  await kind('targetHttpProxy', c('TargetHttpProxiesClient'), {}, { name: 'node-http', urlMap: link('global/urlMaps/none') }, 'targetHttpProxyResource');
  await kind('targetHttpsProxy', c('TargetHttpsProxiesClient'), {}, { name: 'node-https', urlMap: link('global/urlMaps/none'), sslCertificates: [link('global/sslCertificates/none')] }, 'targetHttpsProxyResource');
  await kind('forwardingRule', c('ForwardingRulesClient'), { region }, { name: 'node-fr', loadBalancingScheme: 'EXTERNAL', IPProtocol: 'TCP', portRange: '80', backendService: link(`regions/${region}/backendServices/none`) }, 'forwardingRuleResource');
  await kind('forwardingRule', c('GlobalForwardingRulesClient'), {}, { name: 'node-gfr', loadBalancingScheme: 'EXTERNAL_MANAGED', IPProtocol: 'TCP', portRange: '80', target: link('global/targetHttpProxies/none') }, 'forwardingRuleResource');

  await waitCompute(await networks.delete({ project, network: 'node-net' }), {});
  await gone('network node-net', () => networks.get({ project, network: 'node-net' }));
  checked++;
  log('compute network: create, wait, get, delete, wait, 404');
}

// ---- the resource-oriented APIs: create and delete are long-running operations, waited with promise() ----
async function gke() {
  const client = new container.v1.ClusterManagerClient(options('container'));
  const parent = `projects/${project}/locations/${region}`;
  const name = `${parent}/clusters/node-gke`;
  const [op] = await client.createCluster({ parent, cluster: { name: 'node-gke', initialClusterVersion: '1.30', nodePools: [{ name: 'default', initialNodeCount: 1, config: { machineType: 'e2-standard-2' } }] } });
  await waitGke(client, op);
  const [cluster] = await client.getCluster({ name });
  assert.equal(cluster.status, 'RUNNING', 'the cluster reads RUNNING once its operation is DONE');
  const [listed] = await client.listClusters({ parent });
  assert.ok(listed.clusters.some(c => c.name === 'node-gke'));
  const [del] = await client.deleteCluster({ name });
  await waitGke(client, del);
  await gone('cluster node-gke', () => client.getCluster({ name }));
  checked++;
  log('container cluster: create, wait, get RUNNING, list, delete, wait, 404');
}

/** GKE's operations are its own type, not long-running ones: its clients poll getOperation until DONE. */
async function waitGke(client, op) {
  for (let i = 0; i < 50; i++) {
    const [read] = await client.getOperation({ name: `projects/${project}/locations/${region}/operations/${op.name}` });
    if (read.status === 'DONE') return read;
  }
  assert.fail(`operation ${op.name} never finished`);
}

async function memorystore() {
  const client = new redis.v1.CloudRedisClient(options('redis'));
  const parent = `projects/${project}/locations/${region}`;
  const name = `${parent}/instances/node-redis`;
  const [op] = await client.createInstance({ parent, instanceId: 'node-redis', instance: { tier: 'BASIC', memorySizeGb: 1 } });
  const [made] = await op.promise();
  assert.equal(made.name, name);
  const [instance] = await client.getInstance({ name });
  assert.equal(instance.state, 'READY', 'the instance reads READY once its operation is done');
  const [listed] = await client.listInstances({ parent });
  assert.ok(listed.some(i => i.name === name));
  const [del] = await client.deleteInstance({ name });
  await del.promise();
  await gone('instance node-redis', () => client.getInstance({ name }));
  checked++;
  log('redis instance: create, wait, get READY, list, delete, wait, 404');
}

async function registry() {
  const client = new artifactRegistry.v1.ArtifactRegistryClient(options('artifactregistry'));
  const parent = `projects/${project}/locations/${region}`;
  const name = `${parent}/repositories/node-repo`;
  const [op] = await client.createRepository({ parent, repositoryId: 'node-repo', repository: { format: 'DOCKER' } });
  await op.promise();
  const [repo] = await client.getRepository({ name });
  assert.equal(repo.format, 'DOCKER');
  const [listed] = await client.listRepositories({ parent });
  assert.ok(listed.some(r => r.name === name));
  const [del] = await client.deleteRepository({ name });
  await del.promise();
  await gone('repository node-repo', () => client.getRepository({ name }));
  checked++;
  log('artifactregistry repository: create, wait, get, list, delete, wait, 404');
}

async function secrets() {
  const client = new secretManager.v1.SecretManagerServiceClient(options('secretmanager'));
  const parent = `projects/${project}`;
  const [secret] = await client.createSecret({ parent, secretId: 'node-secret', secret: { replication: { automatic: {} } } });
  await client.addSecretVersion({ parent: secret.name, payload: { data: Buffer.from('s3cret') } });
  const [read] = await client.accessSecretVersion({ name: `${secret.name}/versions/latest` });
  assert.equal(read.payload.data.toString(), 's3cret');
  const [listed] = await client.listSecrets({ parent });
  assert.ok(listed.some(s => s.name === secret.name));
  await client.deleteSecret({ name: secret.name });
  await gone('secret node-secret', () => client.getSecret({ name: secret.name }));
  checked++;
  log('secretmanager secret: create, add version, access, list, delete, 404');
}

// ---- Cloud SQL: changes answer a sql#operation the client polls with SqlOperationsServiceClient.get ----
async function cloudSql() {
  const instances = new sql.v1.SqlInstancesServiceClient(options('sqladmin'));
  const operations = new sql.v1.SqlOperationsServiceClient(options('sqladmin'));
  const databases = new sql.v1.SqlDatabasesServiceClient(options('sqladmin'));
  const users = new sql.v1.SqlUsersServiceClient(options('sqladmin'));
  const wait = async (op) => {
    for (let i = 0; i < 50; i++) {
      const [read] = await operations.get({ project, operation: op.name });
      if (read.status === 'DONE') return read;
    }
    assert.fail(`operation ${op.name} never finished`);
  };
  const [op] = await instances.insert({ project, body: { name: 'node-sql', databaseVersion: 'POSTGRES_16', region, settings: { tier: 'db-custom-2-7680' } } });
  await wait(op);
  const [instance] = await instances.get({ project, instance: 'node-sql' });
  assert.equal(instance.state, 'RUNNABLE', 'the instance reads RUNNABLE once its operation is DONE');
  const [listed] = await instances.list({ project });
  assert.ok(listed.items.some(i => i.name === 'node-sql'));

  await wait((await databases.insert({ project, instance: 'node-sql', body: { name: 'orders' } }))[0]);
  const [db] = await databases.get({ project, instance: 'node-sql', database: 'orders' });
  assert.equal(db.name, 'orders');
  assert.ok((await databases.list({ project, instance: 'node-sql' }))[0].items.some(d => d.name === 'orders'));
  await wait((await databases.delete({ project, instance: 'node-sql', database: 'orders' }))[0]);
  await gone('database orders', () => databases.get({ project, instance: 'node-sql', database: 'orders' }));
  checked++;
  log('sqladmin database: insert, wait, get, list, delete, wait, 404');

  await wait((await users.insert({ project, instance: 'node-sql', body: { name: 'app', password: 'pw' } }))[0]);
  const [u] = await users.get({ project, instance: 'node-sql', name: 'app' });
  assert.equal(u.name, 'app');
  assert.ok(!u.password, 'a user password is never read back');
  assert.ok((await users.list({ project, instance: 'node-sql' }))[0].items.some(x => x.name === 'app'));
  await wait((await users.delete({ project, instance: 'node-sql', name: 'app', host: '' }))[0]);
  await gone('user app', () => users.get({ project, instance: 'node-sql', name: 'app' }));
  checked++;
  log('sqladmin user: insert, wait, get, list, delete, wait, 404');

  const [del] = await instances.delete({ project, instance: 'node-sql' });
  const [deleting] = await instances.get({ project, instance: 'node-sql' });
  assert.equal(deleting.state, 'PENDING_DELETE', 'an instance being deleted is still there');
  await wait(del);
  await gone('instance node-sql', () => instances.get({ project, instance: 'node-sql' }));
  checked++;
  log('sqladmin instance: insert, wait, get RUNNABLE, list, delete, PENDING_DELETE, wait, 404');
}

// ---- Cloud DNS: the handwritten client over Google's JSON API ----
async function dns() {
  const url = new URL(fake.https.dns);
  const client = new DNS({ projectId: project, apiEndpoint: `${url.hostname}:${url.port}`, authClient: authClient() });
  const [zone] = await client.createZone('node-zone', { dnsName: 'node.example.com.', description: 'node' });
  const [metadata] = await zone.getMetadata();
  assert.equal(metadata.dnsName, 'node.example.com.');
  const [zones] = await client.getZones();
  assert.ok(zones.some(z => z.name === 'node-zone'));
  await zone.delete();
  try {
    await zone.getMetadata();
    assert.fail('zone node-zone is still there after its delete');
  } catch (e) {
    assert.equal(e.code, 404, e.message);
  }
  checked++;
  log('dns managedZone: create, get, list, delete, 404');
}

const all = { compute: computeKinds, container: gke, redis: memorystore, artifactregistry: registry,
  secretmanager: secrets, sqladmin: cloudSql, dns };
for (const [name, run] of Object.entries(all)) {
  if (only.length && !only.includes(name)) continue;
  await run();
}
log(`checked ${checked} kinds`);

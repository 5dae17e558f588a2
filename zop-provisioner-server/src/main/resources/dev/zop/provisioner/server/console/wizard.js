// The new-job wizard, one designed form per kind: the fields a person fills in, in the order they think of them,
// with labels and help. Sizes and versions are picked from what the space's provider offers (with what each gives
// and costs), networks and subnets from what the space's discovery finds; defaults are pre-filled and marked, the
// rest waits under "Advanced". Then the plan: what will be built, its steps and permissions, its cost from the
// starting size to the largest, and the provider's defaults.
import { verdictsList } from './guardrails.js';
import { get, post } from './api.js';
import { clearFieldErrorOnChange, clearFieldErrors, clearNotice, showError } from './notice.js';
import { changesTable, h, kv, money, quantity, replace, table, unitMoney } from './dom.js';
import { allSpaces } from './spaces.js';

const KINDS = [
  ['kubernetes', 'Kubernetes cluster'], ['datastore', 'Database or cache'], ['vm_pool', 'VM pool'],
  ['network', 'Network'], ['load_balancer', 'Load balancer'], ['registry', 'Container registry'],
];
const HOURS_PER_MONTH = 730;

/** A field's id from its path, as the API names fields: config.nodeGroups[0].max → f-config-nodeGroups-0-max. */
const idOf = path => 'f-' + path.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '');

/**
 * One labelled control with its help: {@code read} answers its value, or undefined when it is left empty (the
 * API's default then applies). A pre-filled default says so until it is changed.
 */
function control(path, label, input, { help, isDefault, read }) {
  const id = idOf(path);
  input.id = id;
  input.dataset.field = path;
  const helpId = help ? id + '-help' : null;
  if (helpId) input.setAttribute('aria-describedby', helpId);
  const tag = isDefault ? h('span', { class: 'default-tag', 'data-default-for': path }, 'default') : null;
  if (tag) input.addEventListener('input', () => tag.remove(), { once: true });
  if (tag) input.addEventListener('change', () => tag.remove(), { once: true });
  return { el: h('div', { class: 'field' }, h('label', { for: id }, label, tag ? [' ', tag] : null), input,
    help ? h('p', { class: 'help', id: helpId }, help) : null), read, input };
}

function text(path, label, value, opts = {}) {
  const input = h('input', { type: 'text', value: value ?? '', autocomplete: 'off', placeholder: opts.placeholder,
    required: opts.required, 'aria-required': opts.required ? 'true' : null, spellcheck: 'false' });
  return control(path, label, input, { ...opts,
    read: () => input.value.trim() === '' ? undefined : input.value.trim() });
}

function number(path, label, value, opts = {}) {
  const input = h('input', { type: 'number', value: value ?? '', step: '1', min: opts.min, max: opts.max,
    inputmode: 'numeric', required: opts.required });
  return control(path, label, input, { ...opts,
    read: () => input.value.trim() === '' ? undefined : Number(input.value) });
}

/** Comma-separated numbers (listener ports). */
function numbers(path, label, values, opts = {}) {
  const input = h('input', { type: 'text', value: (values || []).join(', '), autocomplete: 'off', inputmode: 'numeric' });
  return control(path, label, input, { ...opts, read: () => {
    const parts = input.value.split(',').map(p => p.trim()).filter(Boolean);
    return parts.length ? parts.map(p => (/^\d+$/.test(p) ? Number(p) : p)) : undefined;
  } });
}

function checkbox(path, label, checked, opts = {}) {
  const input = h('input', { type: 'checkbox', checked: !!checked });
  const id = idOf(path);
  input.id = id;
  input.dataset.field = path;
  const helpId = opts.help ? id + '-help' : null;
  if (helpId) input.setAttribute('aria-describedby', helpId);
  return { el: h('div', { class: 'field check' }, input, h('label', { for: id }, label),
    opts.help ? h('p', { class: 'help', id: helpId }, opts.help) : null), read: () => input.checked, input };
}

/** A choice among {@code options} ([value, label]); the empty value reads as unset. */
function select(path, label, options, value, opts = {}) {
  const input = h('select', null, options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value ?? '') }, text)));
  return control(path, label, input, { ...opts, read: () => input.value === '' ? undefined : input.value });
}

/** What a size gives and costs a month, as the picker lists it. */
function sizeLabel(size) {
  const gives = size.vcpus ? `${size.vcpus} vCPU · ${size.memoryGib} GiB` : `${size.memoryGib} GiB`;
  const onCloud = size.providerName !== size.name ? ` (${size.providerName})` : '';
  const price = size.hourlyPrice == null ? 'no list price' : `${money(size.hourlyPrice * HOURS_PER_MONTH)} a month`;
  return `${size.name}${onCloud} — ${gives} — ${price}`;
}

/**
 * A size from the provider's list, or free text where it offers none. A value the list does not hold (a spec
 * written for another cloud, say) stays chosen, marked as not offered.
 */
function sizeField(path, label, sizes, value, opts = {}) {
  if (!sizes.length) return text(path, label, value, opts);
  const options = sizes.map(s => [s.name, sizeLabel(s)]);
  if (value && !sizes.some(s => s.name === value)) options.unshift([value, `${value} — not in the provider's list`]);
  return select(path, label, options, value ?? sizes[0].name, opts);
}

function versionField(path, label, versions, value, opts = {}) {
  if (!versions.length) return text(path, label, value, opts);
  const newest = versions[versions.length - 1];
  const options = [...versions].reverse().map(v => [v, v === newest ? `${v} (newest)` : v]);
  if (value && !versions.includes(value)) options.unshift([value, `${value} — not offered`]);
  return select(path, label, options, value ?? newest, opts);
}

function section(title, ...parts) {
  return { el: h('fieldset', { class: 'group' }, h('legend', null, title), parts.map(p => p.el)), parts };
}

/** The Advanced fields, folded away until opened. */
function advanced(...parts) {
  return { el: h('details', { class: 'advanced' }, h('summary', null, 'Advanced'), parts.map(p => p.el)), parts };
}

/** Reads a form's fields into a config, each under its own name. */
function reader(entries) {
  return () => {
    const out = {};
    for (const [name, part] of entries) {
      const value = part.read();
      if (value !== undefined) out[name] = value;
    }
    return out;
  };
}

/**
 * The network and its subnets, from the space's discovery; free text when the provider cannot discover (the API's
 * refusal is said beside the fields).
 */
async function placement(spaceId, value, help) {
  let networks = null;
  let why = null;
  try {
    networks = await get(`/space-discovery/${encodeURIComponent(spaceId)}/networks`);
  } catch (e) {
    why = e.message;
  }
  if (!networks) {
    const vpc = text('config.vpcID', 'Network (VPC) id', value?.vpcID, { help });
    const subnets = text('config.subnetIDs', 'Subnet ids (comma-separated)', (value?.subnetIDs || []).join(', '));
    return { el: h('fieldset', { class: 'group', id: 'placement' }, h('legend', null, 'Network'),
      h('p', { class: 'help' }, `Discovery is not available for this space: ${why}`), vpc.el, subnets.el),
      read: () => ({ vpcID: vpc.read(), subnetIDs: subnets.read()?.split(',').map(s => s.trim()).filter(Boolean) }) };
  }
  // a network the job names that discovery no longer finds stays chosen, said to be so
  const missing = value?.vpcID && !networks.some(n => n.id === value.vpcID)
    ? [[value.vpcID, `${value.vpcID} — not found in the account now`]] : [];
  const vpc = select('config.vpcID', 'Network', [['', 'None chosen: the provider\'s default placement'], ...missing,
    ...networks.map(n => [n.id, `${n.name && n.name !== n.id ? n.name + ' · ' : ''}${n.id} · ${n.cidr || ''}${n.isDefault ? ' (the account\'s default)' : ''}`])],
    value?.vpcID ?? '', { help });
  const subnetList = h('div', { class: 'checks', id: 'subnet-choices' });
  const subnetSet = h('fieldset', { class: 'group', 'data-field': 'config.subnetIDs', id: 'f-config-subnetIDs' },
    h('legend', null, 'Subnets'), subnetList);
  async function loadSubnets(chosen) {
    if (!vpc.input.value) {
      replace(subnetList, h('p', { class: 'help' }, 'Choose a network to pick its subnets.'));
      return;
    }
    replace(subnetList, h('p', { class: 'help' }, 'Finding subnets…'));
    try {
      const subnets = await get(`/space-discovery/${encodeURIComponent(spaceId)}/subnets?networkID=${encodeURIComponent(vpc.input.value)}`);
      replace(subnetList, subnets.length ? subnets.map(s => {
        const id = 'subnet-' + s.id.replace(/[^A-Za-z0-9]+/g, '-');
        return h('div', { class: 'field check' }, h('input', { type: 'checkbox', id, value: s.id, name: 'subnet',
          checked: !chosen || chosen.includes(s.id) }),
        h('label', { for: id }, `${s.id} · ${s.cidr || ''}${s.zone ? ' · ' + s.zone : ''}`));
      }) : h('p', { class: 'help' }, 'This network has no subnets.'));
    } catch (e) {
      replace(subnetList, h('p', { class: 'field-error' }, e.message));
    }
  }
  vpc.input.addEventListener('change', () => loadSubnets(null));
  // a job's own config ticks exactly its subnets, none when it names none; a new job's form ticks them all
  await loadSubnets(value ? value.subnetIDs || [] : null);
  return { el: h('fieldset', { class: 'group', id: 'placement' }, h('legend', null, 'Network'), vpc.el, subnetSet),
    read: () => {
      const subnetIDs = [...subnetList.querySelectorAll('input[name=subnet]:checked')].map(i => i.value);
      return { vpcID: vpc.read(),
        subnetIDs: subnetIDs.length || Array.isArray(value?.subnetIDs) ? subnetIDs : undefined };
    } };
}

/** One node group of a cluster: its name, size from the provider's list, and how far it scales. */
function nodeGroup(index, value, offerings, onRemove) {
  const base = `config.nodeGroups[${index}]`;
  const name = text(`${base}.name`, 'Name', value.name, { required: true, isDefault: value.name === 'default' });
  const size = sizeField(`${base}.instanceType`, 'Instance type', offerings.machineSizes, value.instanceType,
    { help: 'Each node\'s size; the monthly price is the provider\'s list price for one node.' });
  const min = number(`${base}.min`, 'Fewest nodes', value.min, { min: 0 });
  const max = number(`${base}.max`, 'Most nodes', value.max, { min: 1, help: 'The cluster scales between these.' });
  const desired = number(`${base}.desired`, 'Nodes to start with', value.desired, { min: 0,
    help: 'Left empty, the group starts at its fewest.' });
  const el = h('fieldset', { class: 'group', 'data-item': base }, h('legend', null, `Node group ${index + 1}`),
    name.el, size.el, h('div', { class: 'row' }, min.el, max.el), advanced(desired).el,
    onRemove ? h('button', { type: 'button', onclick: onRemove }, `Remove node group ${index + 1}`) : null);
  return { el, read: reader([['name', name], ['instanceType', size], ['min', min], ['max', max], ['desired', desired]]) };
}

/** Each kind's form: its fields, and how they read back as the job's config. */
const FORMS = {
  async kubernetes(space, offerings, v) {
    const name = text('config.name', 'Cluster name', v?.name ?? '', { required: true, placeholder: 'platform-prod',
      help: 'Lowercase letters, digits and hyphens. The cluster is called this in the cloud.' });
    const version = versionField('config.version', 'Kubernetes version', offerings.kubernetesVersions, v?.version ?? '1.30',
      { help: 'The control plane\'s minor version; nodes follow it.', isDefault: !v });
    const groups = [];
    const holder = h('div', { id: 'node-groups' });
    const add = value => {
      const index = groups.length;
      const entry = { removed: false };
      entry.group = nodeGroup(index, value, offerings, index === 0 ? null : () => { entry.removed = true; entry.group.el.remove(); });
      groups.push(entry);
      holder.append(entry.group.el);
    };
    (v?.nodeGroups?.length ? v.nodeGroups : [{ name: 'default', instanceType: 'm5.large', min: 2, max: 6 }]).forEach(add);
    const network = await placement(space.id, v, 'Where the cluster\'s nodes run; its subnets should span two zones.');
    const role = text('config.clusterRole', 'Cluster role', v?.clusterRole ?? '', {
      help: 'An existing role for the control plane. Left empty, the job creates one and deletes it on teardown.' });
    const basics = section('Cluster', name, version);
    return {
      el: [basics.el, h('fieldset', { class: 'group', id: 'list-config-nodeGroups' }, h('legend', null, 'Node groups'), holder,
        h('button', { type: 'button', id: 'add-node-group', onclick: () => add({ name: `group-${groups.length + 1}`, min: 1, max: 3 }) },
          'Add a node group')), network.el, advanced(role).el],
      read: () => ({ ...reader([['name', name], ['version', version], ['clusterRole', role]])(),
        nodeGroups: groups.filter(g => !g.removed).map(g => g.group.read()), ...clean(network.read()) }),
    };
  },

  async datastore(space, offerings, v) {
    const engine = select('config.engine', 'Engine', [['postgres', 'PostgreSQL'], ['mysql', 'MySQL'], ['redis', 'Redis']],
      v?.engine ?? 'postgres', { isDefault: !v });
    const name = text('config.name', 'Name', v?.name ?? '', { placeholder: 'checkout-db',
      help: 'Left empty, the job names it after itself.' });
    const slot = h('div');
    let fields = null;
    // the job's own values while its engine is the one chosen; an engine changed starts from that engine's defaults
    const build = () => {
      const redis = engine.input.value === 'redis';
      const own = v && v.engine === engine.input.value ? v : null;
      const versions = offerings.engineVersions?.[engine.input.value] || [];
      const version = versionField('config.version', 'Engine version', versions, own?.version ?? null,
        { help: 'Major and minor, such as 16.3 or 7.1.', isDefault: !own && versions.length > 0 });
      const sizes = redis ? offerings.cacheNodeTypes : offerings.databaseClasses;
      const size = sizeField('config.instanceClass', redis ? 'Node type' : 'Instance class', sizes,
        own?.instanceClass ?? (redis ? 'cache.t3.micro' : 'db.t3.medium'), { isDefault: !own,
          help: redis ? 'Sized by memory.' : 'vCPUs and memory of the database server.' });
      const storage = redis ? null : number('config.allocatedStorageGB', 'Storage (GB)', own?.allocatedStorageGB ?? 50,
        { min: 20, max: 65536, isDefault: !own, help: '20 to 65,536 GB, billed by the GB-month.' });
      const multiAz = checkbox('config.multiAZ', 'A standby in a second zone', own ? own.multiAZ : true,
        { help: 'Fails over if a zone goes down; it doubles the instance cost.' });
      const backups = number('config.backupRetentionDays', 'Backups kept (days)', own?.backupRetentionDays ?? 7,
        { min: 0, max: 35, isDefault: !own,
          help: redis ? 'Daily snapshots; 0 keeps none.' : 'Automated backups; 0 turns them off.' });
      fields = [['version', version], ['instanceClass', size], ['allocatedStorageGB', storage], ['multiAZ', multiAz],
        ['backupRetentionDays', backups]].filter(([, f]) => f);
      replace(slot, ...fields.map(([, f]) => f.el));
    };
    engine.input.addEventListener('change', build);
    build();
    const network = await placement(space.id, v, 'The network the database is reachable in.');
    return {
      el: [section('Database', engine, name).el, h('fieldset', { class: 'group' }, h('legend', null, 'Size and safety'), slot),
        advanced(network).el],
      read: () => ({ ...reader([['engine', engine], ['name', name], ...fields])(), ...clean(network.read()) }),
    };
  },

  async vm_pool(space, offerings, v) {
    const name = text('config.name', 'Pool name', v?.name ?? '', { required: true, placeholder: 'checkout-edge' });
    const size = sizeField('config.instanceType', 'Instance type', offerings.machineSizes, v?.instanceType ?? 'm5.large',
      { isDefault: !v });
    const min = number('config.min', 'Fewest instances', v?.min ?? 2, { min: 0, isDefault: !v });
    const max = number('config.max', 'Most instances', v?.max ?? 6, { min: 1, isDefault: !v });
    const lb = checkbox('config.createLoadBalancer', 'Put a load balancer in front', v ? v.createLoadBalancer : true);
    const ports = numbers('config.listenerPorts', 'Listener ports', v?.listenerPorts ?? [80, 443],
      { help: 'Comma-separated, such as 80, 443.' });
    const lbType = select('config.loadBalancerType', 'Load balancer type', [['', 'Application (HTTP), the default'],
      ['application', 'Application (HTTP)'], ['network', 'Network (TCP)']], v?.loadBalancerType ?? '');
    const image = text('config.imageId', 'Image', v?.imageId ?? '', { help: 'Left empty, the provider\'s current Linux image.' });
    const certificate = text('config.certificateArn', 'TLS certificate', v?.certificateArn ?? '', { help: 'For a 443 listener.' });
    const network = await placement(space.id, v, 'Where the instances run.');
    return {
      el: [section('Pool', name, size, min, max).el, section('Traffic', lb, ports).el, network.el,
        advanced(lbType, image, certificate).el],
      read: () => ({ ...reader([['name', name], ['instanceType', size], ['min', min], ['max', max],
        ['createLoadBalancer', lb], ['listenerPorts', ports], ['loadBalancerType', lbType], ['imageId', image],
        ['certificateArn', certificate]])(), ...clean(network.read()) }),
    };
  },

  async network(space, offerings, v) {
    const name = text('config.name', 'Network name', v?.name ?? '', { required: true, placeholder: 'platform-net' });
    const cidr = text('config.cidr', 'Address range (CIDR)', v?.cidr ?? '10.20.0.0/16', { isDefault: !v,
      help: 'Must not overlap a network you peer with.' });
    const rows = [];
    const holder = h('div', { id: 'list-config-subnets' });
    const add = value => {
      const i = rows.length;
      const base = `config.subnets[${i}]`;
      const parts = [['name', text(`${base}.name`, 'Name', value.name)], ['cidr', text(`${base}.cidr`, 'CIDR', value.cidr)],
        ['zone', text(`${base}.zone`, 'Zone', value.zone, { help: 'Left empty, the provider picks one.' })],
        ['public', checkbox(`${base}.public`, 'Public (reaches the internet directly)', value.public)]];
      rows.push(parts);
      holder.append(h('fieldset', { class: 'group', 'data-item': base }, h('legend', null, `Subnet ${i + 1}`), parts.map(([, p]) => p.el)));
    };
    (v?.subnets?.length ? v.subnets : [{ name: 'private-a', cidr: '10.20.1.0/24' }]).forEach(add);
    const nat = select('config.natGateways', 'NAT gateways', [['', 'None: private subnets do not reach the internet (default)'],
      ['single', 'One, shared by every private subnet'], ['perZone', 'One in each zone with a public subnet']],
    v?.natGateways && v.natGateways !== 'none' ? v.natGateways : '');
    let networks = [];
    try {
      networks = await get(`/space-discovery/${encodeURIComponent(space.id)}/networks`);
    } catch (e) {
      networks = [];
    }
    const peer = select('config.peerVpcID', 'Peer with', [['', 'No peering'],
      ...networks.map(n => [n.id, `${n.id} · ${n.cidr || ''}`])], v?.peerVpcID ?? '',
    { help: 'A network found in this space\'s account.' });
    // the zones the account already has, from discovery: a new one takes another name
    const zones = await get(`/space-discovery/${encodeURIComponent(space.id)}/dns-zones`).catch(() => []);
    const zone = text('config.dnsZone', 'Private DNS zone to create', v?.dnsZone ?? '', { placeholder: 'internal.example.com',
      help: zones.length ? `The account already has ${zones.map(z => z.name).join(', ')}; a new zone takes another name.`
        : 'The account has no DNS zone yet.' });
    return {
      el: [section('Network', name, cidr).el, h('fieldset', { class: 'group' }, h('legend', null, 'Subnets'), holder,
        h('button', { type: 'button', onclick: () => add({ name: `subnet-${rows.length + 1}` }) }, 'Add a subnet')),
      advanced(nat, peer, zone).el],
      read: () => ({ ...reader([['name', name], ['cidr', cidr], ['natGateways', nat], ['peerVpcID', peer], ['dnsZone', zone]])(),
        // an unticked box is left out: a subnet is private unless it says otherwise
        subnets: rows.map(parts => reader(parts.map(([k, p]) => [k, k === 'public' ? { read: () => p.read() || undefined } : p]))()) }),
    };
  },

  async load_balancer(space, offerings, v) {
    const name = text('config.name', 'Name', v?.name ?? '', { required: true, placeholder: 'checkout-lb' });
    const type = select('config.type', 'Type', [['application', 'Application (HTTP)'], ['network', 'Network (TCP)']],
      v?.type ?? 'application', { isDefault: !v });
    const ports = numbers('config.listenerPorts', 'Listener ports', v?.listenerPorts ?? [443], { help: 'Comma-separated.' });
    const network = await placement(space.id, v, 'The network it listens in.');
    return { el: [section('Load balancer', name, type, ports).el, network.el],
      read: () => ({ ...reader([['name', name], ['type', type], ['listenerPorts', ports]])(), ...clean(network.read()) }) };
  },

  async registry(space, offerings, v) {
    const name = text('config.name', 'Registry name', v?.name ?? '', { required: true, placeholder: 'checkout-images' });
    const immutable = checkbox('config.immutableTags', 'Tags cannot be overwritten', v?.immutableTags ?? false);
    const scan = checkbox('config.scanOnPush', 'Scan images for vulnerabilities when pushed', v?.scanOnPush ?? false);
    return { el: [section('Registry', name, immutable, scan).el],
      read: reader([['name', name], ['immutableTags', immutable], ['scanOnPush', scan]]) };
  },
};

const clean = o => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The form of {@code kind} in {@code space}, filled with {@code config} (a job's, to change it) or the defaults. */
export async function kindForm(kind, space, config) {
  const offerings = await get(`/space-discovery/${encodeURIComponent(space.id)}/offerings`).catch(() => ({
    machineSizes: [], databaseClasses: [], cacheNodeTypes: [], kubernetesVersions: [], engineVersions: {} }));
  const form = FORMS[kind];
  return form ? form(space, offerings, config) : null;
}

export const kinds = () => KINDS.map(([k]) => k);

/** Where the wizard keeps the space last chosen in it (an id, not a secret): in this browser, across tabs. */
const LAST_SPACE = 'zop.wizard.space';

export async function wizardPage(ctx, params) {
  const spaces = await allSpaces();
  const active = spaces.filter(s => s.status === 'active');
  const steps = h('ol', { class: 'wizard-steps', 'aria-label': 'Wizard steps' },
    ['Space and kind', 'Configure', 'Review plan'].map((s, i) => h('li', { 'data-stage': i }, s)));
  const stage = n => steps.querySelectorAll('li').forEach((li, i) =>
    i === n ? li.setAttribute('aria-current', 'step') : li.removeAttribute('aria-current'));
  // the space asked for, else the one last used here, else the oldest: the one registered by hand, not the newest
  // space a cluster job registered for itself
  const remembered = localStorage.getItem(LAST_SPACE);
  const oldest = [...active].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
  const chosenSpace = params.get('space') || (active.some(s => s.id === remembered) ? remembered : oldest?.id);
  const space = h('select', { id: 'job-space', 'data-field': 'spaceID' },
    [...active].sort((a, b) => a.name.localeCompare(b.name)).map(s => h('option',
      { value: s.id, selected: s.id === chosenSpace }, `${s.name} (${[s.provider, s.region].filter(Boolean).join(', ')})`)));
  space.addEventListener('change', () => localStorage.setItem(LAST_SPACE, space.value));
  const kind = h('select', { id: 'job-kind', 'data-field': 'kind' },
    KINDS.map(([k, label]) => h('option', { value: k, selected: k === params.get('kind') }, label)));
  const jobName = h('input', { id: 'job-name', 'data-field': 'name', autocomplete: 'off', 'aria-describedby': 'job-name-help' });
  const configHolder = h('div', { id: 'job-config', 'aria-live': 'polite' });
  const planHolder = h('section', { id: 'plan', hidden: true, 'aria-labelledby': 'plan-title' });
  let form = null;
  let building = 0;
  const buildConfig = async () => {
    const mine = ++building;
    replace(configHolder, h('p', { class: 'muted' }, 'Loading what this space offers…'));
    const chosen = active.find(s => s.id === space.value);
    if (!chosen) {
      replace(configHolder);
      return;
    }
    const built = await kindForm(kind.value, chosen, null);
    if (mine !== building) return; // a later choice is being built
    form = built;
    replace(configHolder, ...built.el);
    configHolder.dataset.kind = kind.value;
  };
  kind.addEventListener('change', () => { buildConfig().catch(showError); planHolder.hidden = true; stage(1); });
  space.addEventListener('change', () => { buildConfig().catch(showError); planHolder.hidden = true; stage(1); });
  await buildConfig();
  // importing: the form describes what exists, and the plan says what is adopted and what would change
  const importing = h('input', { type: 'checkbox', id: 'import-existing' });
  const externalId = h('input', { id: 'external-id', 'data-field': 'externalID', autocomplete: 'off',
    'aria-describedby': 'external-id-help' });
  const externalField = h('div', { id: 'external-id-field', hidden: true },
    h('label', { for: 'external-id' }, 'Its id in the cloud'), externalId,
    h('p', { class: 'help', id: 'external-id-help' }, 'The network\'s, cluster\'s or server\'s own id or name;'
      + ' the job adopts it and what it holds, tags them as its own, and changes nothing else until you revise it.'));
  const review = h('button', { type: 'submit', class: 'primary', id: 'review-plan' }, 'Review plan');
  importing.addEventListener('change', () => {
    externalField.hidden = !importing.checked;
    review.textContent = importing.checked ? 'Review import' : 'Review plan';
  });
  const body = () => {
    const out = { spaceID: space.value, kind: kind.value, config: form ? form.read() : {} };
    if (importing.checked) {
      out.externalID = externalId.value.trim();
      return out;
    }
    if (jobName.value.trim()) out.name = jobName.value.trim();
    return out;
  };
  const wizard = h('form', { class: 'card', id: 'wizard', novalidate: true, 'aria-label': 'New provisioning job' },
    h('fieldset', { class: 'group' }, h('legend', null, 'Where and what'),
      h('label', { for: 'job-space' }, 'Space'), space,
      h('label', { for: 'job-kind' }, 'What to provision'), kind,
      h('label', { for: 'job-name' }, 'Job name'), jobName,
      h('p', { class: 'help', id: 'job-name-help' }, 'Optional; the resource\'s name by default.'),
      h('div', { class: 'field check' }, importing, h('label', { for: 'import-existing' },
        'It exists already: import it instead of making it')), externalField),
    configHolder,
    h('div', { class: 'actions' }, review));
  clearFieldErrorOnChange(wizard);
  wizard.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(wizard);
    try {
      const asked = body();
      const plan = await post(importing.checked ? '/provisioning-jobs/import/plan' : '/provisioning-jobs/plan', asked);
      clearNotice();
      replace(planHolder, ...(importing.checked ? importView(ctx, plan, asked, wizard, planHolder, stage)
        : planView(ctx, plan, asked, wizard, planHolder, stage)));
      planHolder.hidden = false;
      wizard.hidden = true;
      stage(2);
      planHolder.querySelector('h2').focus();
    } catch (e) {
      // a field that is folded away is opened, so its message is seen
      showError(e, wizard);
      wizard.querySelectorAll('[aria-invalid="true"]').forEach(f => { const d = f.closest('details'); if (d) d.open = true; });
      wizard.querySelector('[aria-invalid="true"]')?.focus();
    }
  });
  stage(active.length ? 1 : 0);
  return [h('h1', null, 'New provisioning job'), steps,
    active.length ? null : h('p', null, 'No active space yet: ', h('a', { href: '#/spaces' }, 'register one'), ' first.'),
    wizard, planHolder];
}

/** What the plan will build, in a sentence a person reads before the steps. */
function summary(kind, config) {
  const groups = config.nodeGroups || [];
  switch (kind) {
    case 'kubernetes':
      return `A Kubernetes ${config.version} cluster named ${config.name}, with ${groups.map(g =>
        `node group ${g.name}: ${g.min}–${g.max} × ${g.instanceType}`).join('; ') || 'no node groups'}.`;
    case 'datastore':
      return `A ${config.engine} ${config.version} ${config.engine === 'redis' ? 'cache' : 'database'}`
        + `${config.name ? ' named ' + config.name : ''} on ${config.instanceClass}`
        + `${config.allocatedStorageGB ? ` with ${config.allocatedStorageGB} GB of storage` : ''}`
        + `${config.multiAZ ? ', with a standby in a second zone' : ''}.`;
    case 'vm_pool':
      return `A pool of ${config.min}–${config.max} × ${config.instanceType} named ${config.name}`
        + `${config.createLoadBalancer ? `, behind a load balancer on ${(config.listenerPorts || []).join(', ')}` : ''}.`;
    case 'network':
      return `A network ${config.name} (${config.cidr}) with ${(config.subnets || []).length} subnet(s).`;
    case 'load_balancer':
      return `A${config.type === 'network' ? ' network' : 'n application'} load balancer ${config.name} on ${(config.listenerPorts || []).join(', ')}.`;
    case 'registry':
      return `A container registry named ${config.name}.`;
    default:
      return `A ${kind.replace(/_/g, ' ')}.`;
  }
}

/** A plan's steps with their permissions, then anything {@code more}, then back to the form or {@code submit}. */
function stepsAndActions(steps, form, holder, stage, submit, more = null) {
  return [
    h('h3', null, 'Steps, and the permissions each needs'),
    h('ol', { id: 'plan-steps' }, steps.map(s => h('li', { 'data-step': s.name }, h('strong', null, s.name),
      s.permissions.length ? h('div', { class: 'mono muted' }, s.permissions.join(', ')) : null))),
    more,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'edit-config', onclick: () => { holder.hidden = true; form.hidden = false; stage(1); } },
        'Back to the form'),
      submit),
  ];
}

/** The button that posts {@code asked} to {@code path} and opens the job made; for a token that may not, why. */
function makeButton(ctx, id, label, path, asked, refused) {
  if (!ctx.can('provisioning:create')) return h('p', { class: 'muted' }, refused);
  return h('button', { type: 'button', class: 'primary', id, onclick: async event => {
    event.target.disabled = true;
    try {
      const job = await post(path, asked);
      ctx.go(`#/jobs/${encodeURIComponent(job.id)}`);
    } catch (e) {
      event.target.disabled = false;
      showError(e);
    }
  } }, label);
}

/** An import's plan: what is adopted, what the form says differently from the cloud, the steps; then importing. */
function importView(ctx, plan, asked, form, holder, stage) {
  const submit = makeButton(ctx, 'submit-import', 'Import', '/provisioning-jobs/import', asked,
    'Your token may plan but not import jobs.');
  return [
    h('h2', { tabindex: '-1', id: 'plan-title' }, 'Import'),
    h('p', { id: 'plan-summary', class: 'lead' }, `${asked.externalID} and what it holds become a job of its own;`
      + ' nothing in the cloud is created or deleted.'),
    h('h3', null, 'Adopted'),
    h('ul', { id: 'import-adopted' }, plan.adopted.map(a => h('li', { class: 'mono' }, a))),
    h('h3', null, 'Where the form says otherwise than the cloud'),
    plan.changes.length ? changesTable(plan.changes, ['The cloud has', 'The form says'], 'import-changes')
      : h('p', { id: 'import-changes' }, 'Nothing: the form matches what exists.'),
    ...stepsAndActions(plan.steps, form, holder, stage, submit),
  ];
}

function planView(ctx, plan, asked, form, holder, stage) {
  const submit = makeButton(ctx, 'submit-job', 'Submit job', '/provisioning-jobs', asked,
    'Your token may plan but not submit jobs.');
  const scales = plan.monthlyTotalAtMax != null && Number(plan.monthlyTotalAtMax) !== Number(plan.monthlyTotal);
  const atLeast = amount => plan.complete ? money(amount) : `at least ${money(amount)}`;
  const lowerBound = plan.complete ? null : h('span', { class: 'muted' }, ' (some prices are unknown: a lower bound)');
  return [
    h('h2', { tabindex: '-1', id: 'plan-title' }, 'Plan'),
    h('p', { id: 'plan-summary', class: 'lead' }, summary(plan.kind, asked.config)),
    plan.warnings?.length ? h('ul', { id: 'plan-warnings', class: 'warning', role: 'note' },
      plan.warnings.map(w => h('li', { 'data-code': w.code }, h('strong', null, 'Warning: '), w.message))) : null,
    plan.verdicts?.length ? [h('h3', null, 'Guardrails'), verdictsList(plan.verdicts, 'plan-verdicts')] : null,
    h('div', { class: 'cost-cards', id: 'plan-cost' },
      h('div', { class: 'cost' }, h('div', { class: 'muted' }, scales ? 'A month at the starting size' : 'A month'),
        h('strong', { id: 'plan-total' }, atLeast(plan.monthlyTotal)), lowerBound),
      scales ? h('div', { class: 'cost' }, h('div', { class: 'muted' }, 'A month at the largest size'),
        h('strong', { id: 'plan-total-max' }, atLeast(plan.monthlyTotalAtMax)), lowerBound) : null),
    kv([['Provider', plan.provider], ['Region', plan.region], ['Prices as of', plan.pricesAsOf || 'the simulated cloud\'s list']]),
    h('h3', null, 'Cost at the starting size'),
    table([['Component'], ['Quantity'], ['Unit price'], ['A month']], plan.costs.map(c => h('tr', null,
      h('td', null, c.name, c.note ? h('div', { class: 'muted' }, c.note) : null,
        c.source ? h('div', { class: 'muted' }, c.source) : null),
      h('td', null, quantity(c.quantity, c.unit)), h('td', null, c.unitPrice == null ? '—' : `${unitMoney(c.unitPrice)} / ${c.unit}`),
      h('td', { class: 'num' }, c.monthly == null ? 'unknown' : money(c.monthly)))), { id: 'plan-costs' }),
    ...stepsAndActions(plan.steps, form, holder, stage, submit, plan.defaults?.length ? [
      h('h3', null, 'Defaults the provider fills in'),
      h('ul', { id: 'plan-defaults' }, plan.defaults.map(d => h('li', null, h('span', { class: 'mono' }, d.field),
        ` = ${d.value}`, d.reason ? h('span', { class: 'muted' }, ` — ${d.reason}`) : null)))] : null),
  ];
}

// Deployment spaces: the list with status, the form that registers one, and the guarded delete.
import { call, get, list, post } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { badge, confirmDialog, h, ident, table, when } from './dom.js';

export function spaceConfig(space) {
  try {
    return typeof space.config === 'string' ? JSON.parse(space.config) : (space.config || {});
  } catch (e) {
    return {};
  }
}

export async function allSpaces() {
  return (await list('/spaces?limit=200')).items;
}

/** Every status but deleted: a space holding a job in any of them cannot be deleted. */
const HOLDING = 'pending,running,awaiting_user,succeeded,failed,cancelled,deleting';

export async function spacesPage(ctx) {
  const [spaces, accounts] = await Promise.all([allSpaces(), list('/cloud-accounts?limit=200').then(p => p.items)]);
  const holding = Object.fromEntries(await Promise.all(spaces.map(async space => [space.id,
    (await list(`/provisioning-jobs?spaceID=${encodeURIComponent(space.id)}&status=${HOLDING}&limit=1`)).items.length > 0])));
  const rows = spaces.map(space => {
    const config = spaceConfig(space);
    const actions = h('div', { class: 'actions' });
    if (ctx.can('provisioning:create') && space.status === 'active') {
      actions.append(h('a', { href: `#/new?space=${encodeURIComponent(space.id)}` }, 'New job'));
    }
    if (ctx.can('space:update')) {
      const next = space.status === 'active' ? 'inactive' : 'active';
      actions.append(h('button', { type: 'button', 'data-action': 'toggle-status', onclick: async () => {
        try {
          await call('PATCH', `/spaces/${encodeURIComponent(space.id)}/status`, { status: next });
          ctx.refresh();
        } catch (e) {
          showError(e);
        }
      } }, next === 'active' ? 'Activate' : 'Deactivate'));
    }
    if (ctx.can('space:delete') && holding[space.id]) {
      // the guard the API enforces, shown before anyone tries
      actions.append(h('button', { type: 'button', class: 'danger', 'data-action': 'delete-space', disabled: true,
        'aria-describedby': `holds-${space.id}` }, 'Delete'),
      h('span', { class: 'muted', id: `holds-${space.id}` }, 'holds jobs: tear them down first'));
    } else if (ctx.can('space:delete')) {
      actions.append(h('button', { type: 'button', class: 'danger', 'data-action': 'delete-space', onclick: async () => {
        const ok = await confirmDialog(`Delete space ${space.name}?`, 'Deleting removes the registration only;'
          + ' nothing in the cloud changes.', 'Delete space');
        if (!ok) return;
        try {
          await call('DELETE', `/spaces/${encodeURIComponent(space.id)}`);
          showInfo(`Space ${space.name} deleted.`);
          ctx.refresh();
        } catch (e) {
          showError(e);
        }
      } }, 'Delete'));
    }
    return h('tr', { 'data-space': space.name },
      h('th', { scope: 'row' }, space.name, h('div', null, ident(space.id))),
      h('td', null, space.provider), h('td', { class: 'optional' }, space.spaceType),
      h('td', null, config.region || config.resourceGroup || config.project || ''),
      h('td', null, badge(space.status)), h('td', { class: 'optional' }, when(space.createdAt)), h('td', null, actions));
  });
  return [
    h('h1', null, 'Deployment spaces'),
    spaces.length ? table([['Space'], ['Provider'], ['Type', 'optional'], ['Region'], ['Status'],
      ['Created', 'optional'], ['']], rows, { id: 'spaces' })
      : h('p', { class: 'muted' }, 'No spaces yet.'),
    ctx.can('space:create') ? createForm(ctx, accounts) : null,
  ];
}

function createForm(ctx, accounts) {
  const account = h('select', { id: 'space-account', 'data-field': 'cloudAccountId', required: true },
    accounts.map(a => h('option', { value: a.id, 'data-provider': a.provider }, `${a.name} (${a.provider})`)));
  const name = h('input', { id: 'space-name', 'data-field': 'name', required: true, autocomplete: 'off' });
  const type = h('input', { id: 'space-type', 'data-field': 'spaceType', value: 'kubernetes', autocomplete: 'off' });
  const rows = h('div', { id: 'space-config' });
  const addRow = (key, value) => {
    const k = h('input', { 'aria-label': 'config key', value: key || '', class: 'config-key' });
    const v = h('input', { 'aria-label': `config ${key || 'value'}`, value: value || '', class: 'config-value',
      'data-field': key ? 'config.' + key : null });
    k.addEventListener('change', () => v.setAttribute('data-field', 'config.' + k.value.trim()));
    rows.append(h('div', { class: 'actions config-row' }, k, v));
    return v;
  };
  // the key every cloud provider asks for; the API names any other the provider requires, and the form adds it
  const region = addRow('region', '');
  region.setAttribute('list', 'space-regions');
  const regions = h('datalist', { id: 'space-regions' });
  // a kubernetes space names its cluster: picked from those the account holds in the region
  const cluster = h('select', { id: 'space-cluster', 'data-field': 'config.clusterName', 'aria-describedby': 'space-cluster-help' },
    h('option', { value: '' }, 'None'));
  const clusterHelp = h('p', { class: 'help', id: 'space-cluster-help' }, 'Give a region to list the account\'s clusters there.');
  let providers = [];
  const offerRegions = () => {
    const provider = providers.find(p => p.id === account.selectedOptions[0]?.dataset.provider);
    regions.replaceChildren(...(provider?.regions || []).map(r => h('option', { value: r })));
  };
  const findClusters = async () => {
    const where = region.value.trim();
    cluster.replaceChildren(h('option', { value: '' }, 'None'));
    if (!account.value || !where) {
      clusterHelp.textContent = 'Give a region to list the account\'s clusters there.';
      return;
    }
    clusterHelp.textContent = 'Finding clusters…';
    try {
      const found = await get(`/cloud-accounts/${encodeURIComponent(account.value)}/clusters?region=${encodeURIComponent(where)}`);
      cluster.append(...found.map(c => h('option', { value: c.name }, `${c.name} · ${c.version || ''} · ${c.status || ''}`)));
      clusterHelp.textContent = found.length ? `${found.length} found in ${where}.` : `No cluster in ${where}.`;
    } catch (e) {
      clusterHelp.textContent = `Clusters could not be listed: ${e.message}`;
    }
  };
  account.addEventListener('change', () => { offerRegions(); findClusters(); });
  region.addEventListener('change', findClusters);
  get('/providers').then(p => { providers = p; offerRegions(); }).catch(() => {});
  const form = h('form', { class: 'card', id: 'create-space' },
    h('h2', null, 'Register a space'),
    accounts.length ? null : h('p', { class: 'muted' }, 'Connect a cloud account first (zop accounts create).'),
    h('label', { for: 'space-account' }, 'Cloud account'), account,
    h('label', { for: 'space-name' }, 'Name'), name,
    h('label', { for: 'space-type' }, 'Space type'), type,
    h('label', null, 'Configuration (references only: no credentials)'), rows, regions,
    h('label', { for: 'space-cluster' }, 'Cluster'), cluster, clusterHelp,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => addRow('', '') }, 'Add setting'),
      h('button', { class: 'primary', type: 'submit', id: 'create-space-submit' }, 'Register space')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    const config = {};
    for (const row of rows.querySelectorAll('.config-row')) {
      const key = row.querySelector('.config-key').value.trim();
      const value = row.querySelector('.config-value').value.trim();
      if (key && value) config[key] = value;
    }
    if (cluster.value) config.clusterName = cluster.value;
    const chosen = account.selectedOptions[0];
    const body = { name: name.value.trim(), provider: chosen?.dataset.provider, cloudAccountId: account.value,
      spaceType: type.value, config };
    try {
      const space = await post('/spaces', body);
      showInfo(`Space ${space.name} registered.`);
      ctx.refresh();
    } catch (e) {
      // a required setting the form has no row for gets one, so the message sits beside it
      for (const field of e.fields || []) {
        const key = field.field.startsWith('config.') ? field.field.slice(7) : null;
        if (key && !form.querySelector(`[data-field="${CSS.escape(field.field)}"]`)) addRow(key, '');
      }
      showError(e, form);
    }
  });
  return form;
}

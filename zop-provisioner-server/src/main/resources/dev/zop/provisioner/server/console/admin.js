// Cloud accounts (with the reference to their credentials, never the credentials) and, for admins, the
// organisation's API tokens.
import { call, get, list, post } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { badge, confirmDialog, h, ident, kv, replace, table, when } from './dom.js';

export async function accountsPage(ctx) {
  const [accounts, providers, spaces] = await Promise.all([list('/cloud-accounts?limit=200').then(p => p.items),
    get('/providers'), list('/spaces?limit=200').then(p => p.items)]);
  const used = id => spaces.filter(s => s.cloudAccountId === id).length;
  const rows = accounts.map(a => h('tr', { 'data-account': a.name },
    h('th', { scope: 'row' }, a.name, h('div', null, ident(a.id))), h('td', null, a.provider),
    h('td', { class: 'mono' }, a.credentialsRef || h('span', { class: 'muted' }, 'the provider\'s default chain')),
    h('td', { class: 'optional' }, Object.entries(a.properties || {}).map(([k, v]) => h('div', { class: 'mono' }, `${k}=${v}`))),
    h('td', null, String(used(a.id))), h('td', { class: 'optional' }, when(a.createdAt))));
  return [
    h('h1', null, 'Cloud accounts'),
    h('p', { class: 'muted' }, 'An account names where its credentials are kept (a secret reference or a role), never'
      + ' the credentials themselves.'),
    rows.length ? table([['Account'], ['Provider'], ['Credentials reference'], ['Properties', 'optional'], ['Spaces'],
      ['Connected', 'optional']], rows, { id: 'accounts' }) : h('p', { class: 'muted' }, 'No accounts yet.'),
    ctx.can('space:create') ? accountForm(ctx, providers) : null,
  ];
}

function accountForm(ctx, providers) {
  const provider = h('select', { id: 'account-provider', 'data-field': 'provider' },
    providers.map(p => h('option', { value: p.id }, `${p.displayName} (${p.id})`)));
  const name = h('input', { id: 'account-name', 'data-field': 'name', autocomplete: 'off', required: true });
  const ref = h('input', { id: 'account-credentials', 'data-field': 'credentialsRef', autocomplete: 'off',
    'aria-describedby': 'account-credentials-help', spellcheck: 'false' });
  const region = h('input', { id: 'account-region', 'data-field': 'properties.region', autocomplete: 'off',
    'aria-describedby': 'account-region-help' });
  const form = h('form', { class: 'card', id: 'create-account' }, h('h2', null, 'Connect an account'),
    h('label', { for: 'account-provider' }, 'Provider'), provider,
    h('label', { for: 'account-name' }, 'Name'), name,
    h('label', { for: 'account-credentials' }, 'Credentials reference'), ref,
    h('p', { class: 'help', id: 'account-credentials-help' }, 'Where the credentials are: a secret manager reference'
      + ' or a role to assume. Left empty, the provider\'s default credential chain. Never paste a key here.'),
    h('label', { for: 'account-region' }, 'Home region'), region,
    h('p', { class: 'help', id: 'account-region-help' }, 'Optional; where discovery looks when no region is named.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Connect account')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    const body = { provider: provider.value, name: name.value.trim(), credentialsRef: ref.value.trim() || null,
      properties: region.value.trim() ? { region: region.value.trim() } : {} };
    try {
      const account = await post('/cloud-accounts', body);
      showInfo(`Account ${account.name} connected.`);
      ctx.refresh();
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

export async function tokensPage(ctx) {
  if (!ctx.me().roles.includes('admin')) {
    return [h('h1', null, 'API tokens'), h('p', null, 'Tokens are managed by the organisation\'s admins.')];
  }
  const tokens = (await list('/tokens?limit=200')).items;
  const issued = h('div', { id: 'issued-token', 'aria-live': 'polite' });
  const rows = tokens.map(t => {
    const state = t.revokedAt ? 'revoked' : t.expiresAt && new Date(t.expiresAt) < new Date() ? 'expired' : 'active';
    return h('tr', { 'data-token': t.id, 'data-state': state },
      h('th', { scope: 'row' }, t.actor, h('div', null, ident(t.id))), h('td', null, t.roles.join(', ')),
      h('td', null, badge(state)), h('td', { class: 'optional' }, when(t.createdAt)),
      h('td', { class: 'optional' }, t.expiresAt ? when(t.expiresAt) : 'never'),
      h('td', null, state === 'active' ? h('button', { type: 'button', class: 'danger', 'data-action': 'revoke',
        'aria-label': `Revoke the token of ${t.actor} (${t.id})`, onclick: async () => {
          if (!await confirmDialog(`Revoke the token of ${t.actor}?`, 'Calls made with it are refused from now on.',
            'Revoke token')) return;
          try {
            await call('DELETE', `/tokens/${encodeURIComponent(t.id)}`);
            showInfo(`The token of ${t.actor} is revoked.`);
            ctx.refresh();
          } catch (e) {
            showError(e);
          }
        } }, 'Revoke') : null));
  });
  const actor = h('input', { id: 'token-actor', 'data-field': 'actor', autocomplete: 'off', placeholder: 'alice@example.com' });
  const roles = h('select', { id: 'token-role', 'data-field': 'roles' },
    [['viewer', 'viewer: sees everything, changes nothing'], ['operator', 'operator: runs and changes jobs'],
      ['admin', 'admin: everything, tokens included']].map(([v, t]) => h('option', { value: v }, t)));
  const days = h('input', { id: 'token-days', 'data-field': 'expiresInDays', type: 'number', min: 1, max: 3650, value: 90,
    inputmode: 'numeric' });
  const form = h('form', { class: 'card', id: 'create-token' }, h('h2', null, 'Make a token'),
    h('label', { for: 'token-actor' }, 'For whom (the actor the audit log names)'), actor,
    h('label', { for: 'token-role' }, 'Role'), roles,
    h('label', { for: 'token-days' }, 'Expires after (days)'), days,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Make token')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      const made = await post('/tokens', { actor: actor.value.trim(), roles: [roles.value],
        expiresInDays: days.value ? Number(days.value) : null });
      // shown once: only its digest is kept
      replace(issued, h('section', { class: 'warning', role: 'status' }, h('h2', null, 'Copy the token now'),
        h('p', null, 'It is shown this once; the service keeps only its digest.'),
        kv([['Token', h('code', { id: 'new-token', class: 'mono' }, made.token)], ['For', made.principal.actor],
          ['Expires', made.expiresAt ? when(made.expiresAt) : 'never']])));
      actor.value = '';
    } catch (e) {
      showError(e, form);
    }
  });
  return [h('h1', null, 'API tokens'), issued,
    rows.length ? table([['Actor'], ['Roles'], ['State'], ['Made', 'optional'], ['Expires', 'optional'], ['']], rows,
      { id: 'tokens' }) : h('p', { class: 'muted' }, 'No tokens.'),
    form];
}

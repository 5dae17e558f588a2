// zop serve --demo only: the simulated cloud's faults, injected and lifted, so every failure screen can be seen.
// Nothing here touches a real cloud, and the page says so.
import { call, get, post } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { h, table } from './dom.js';

const KINDS = {
  access_denied: ['Access denied', 'an operation', 'needs your action: a permission to grant'],
  quota_exceeded: ['Quota exceeded', 'a resource type', 'needs your action: a quota to raise'],
  throttled: ['Throttling', 'an operation', 'transient: retried, then offered to retry'],
  unsupported: ['An unsupported API', 'an operation', 'system: recorded for follow-up'],
};

/** Whether this service runs a simulated cloud: only then does it serve the faults. */
export async function simulated() {
  try {
    await get('/simulation/faults');
    return true;
  } catch (e) {
    return false;
  }
}

export async function simulationPage(ctx) {
  const state = await get('/simulation/faults');
  const kind = h('select', { id: 'fault-kind', 'data-field': 'kind' },
    Object.entries(KINDS).map(([k, [label, , category]]) => h('option', { value: k }, `${label} (${category})`)));
  const target = h('input', { id: 'fault-target', 'data-field': 'target', list: 'fault-targets', autocomplete: 'off',
    spellcheck: 'false', 'aria-describedby': 'fault-target-help' });
  const targets = h('datalist', { id: 'fault-targets' });
  const help = h('p', { class: 'help', id: 'fault-target-help' });
  const offer = () => {
    const byType = kind.value === 'quota_exceeded';
    targets.replaceChildren(...(byType ? state.resourceTypes : state.operationsCalled).map(v => h('option', { value: v })));
    help.textContent = byType ? 'A resource type, such as kubernetes-cluster or db-instance.'
      : 'An operation, such as kubernetes:CreateNodegroup; the plan lists each step\'s operations.';
  };
  kind.addEventListener('change', offer);
  offer();
  const form = h('form', { class: 'card', id: 'inject-fault' }, h('h2', null, 'Break something'),
    h('label', { for: 'fault-kind' }, 'Fault'), kind, h('label', { for: 'fault-target' }, 'On'), target, targets, help,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'inject' }, 'Inject fault')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      await post('/simulation/faults', { kind: kind.value, target: target.value.trim() });
      showInfo(`${KINDS[kind.value][0]} on ${target.value.trim()} is in force; the next job that calls it fails.`);
      ctx.refresh();
    } catch (e) {
      showError(e, form);
    }
  });
  const rows = state.faults.map(f => h('tr', { 'data-fault': `${f.kind}:${f.target}` },
    h('td', null, KINDS[f.kind]?.[0] || f.kind), h('td', { class: 'mono' }, f.target),
    h('td', null, f.remaining == null ? 'until lifted' : `the next ${f.remaining} calls`)));
  return [
    h('h1', null, 'Simulation'),
    h('p', { class: 'warning', role: 'note', id: 'simulation-banner' }, h('strong', null, 'A simulated cloud. '),
      'This service runs provider sim (zop serve --demo): nothing real is created, and the faults below are make-believe,'
      + ' injected to show how each kind of failure looks and what to do about it.'),
    rows.length ? table([['Fault'], ['On'], ['For']], rows, { id: 'faults' })
      : h('p', { class: 'muted', id: 'faults' }, 'No fault is in force: the simulated cloud does what it is asked.'),
    rows.length ? h('div', { class: 'actions' }, h('button', { type: 'button', id: 'clear-faults', onclick: async () => {
      try {
        await call('DELETE', '/simulation/faults');
        showInfo('Every fault is lifted.');
        ctx.refresh();
      } catch (e) {
        showError(e);
      }
    } }, 'Lift every fault')) : null,
    form,
  ];
}

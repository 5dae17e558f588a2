// The new-job wizard: pick a space and a kind, fill the form the API's own OpenAPI document describes for that kind,
// review the plan (steps, the permissions each needs, the monthly cost, the provider's defaults), then submit.
import { post } from './api.js';
import { clearFieldErrors, clearNotice, showError } from './app.js';
import { h, replace, kv, table } from './dom.js';
import { allSpaces } from './spaces.js';

/** The schema of each kind's {@code config}, by name in the OpenAPI document's components. */
const KINDS = {
  kubernetes: 'KubernetesSpec', vm_pool: 'VmPoolSpec', datastore: 'DatastoreSpec', network: 'NetworkSpec',
  registry: 'RegistrySpec', load_balancer: 'LoadBalancerSpec',
};
/** Starting values: the product documents' examples, so a first job is a few clicks away. */
const EXAMPLES = {
  kubernetes: { name: 'platform-prod', version: '1.30',
    nodeGroups: [{ name: 'default', instanceType: 'm5.large', min: 2, max: 6 }] },
  datastore: { name: 'checkout-db', engine: 'postgres', version: '16.3', instanceClass: 'db.t3.medium',
    allocatedStorageGB: 50, multiAZ: true, backupRetentionDays: 7 },
  vm_pool: { name: 'checkout-edge', instanceType: 'm5.large', min: 2, max: 6, createLoadBalancer: true,
    listenerPorts: [80, 443] },
  network: { name: 'platform-net', cidr: '10.20.0.0/16',
    subnets: [{ name: 'private-a', cidr: '10.20.1.0/24' }] },
  registry: { name: 'checkout-images' },
  load_balancer: { name: 'checkout-lb', listenerPorts: [443] },
};

let schemas = null;

async function loadSchemas() {
  if (!schemas) {
    const response = await fetch('/openapi.json');
    schemas = (await response.json()).components.schemas;
  }
  return schemas;
}

/** A schema with references followed and the null alternative of a nullable one dropped. */
function resolve(schema) {
  for (let i = 0; schema && i < 10; i++) {
    if (schema.$ref) schema = schemas[schema.$ref.split('/').pop()];
    else if (schema.anyOf && schema.anyOf.length === 2 && schema.anyOf.some(s => s.type === 'null')) {
      schema = schema.anyOf.find(s => s.type !== 'null');
    } else break;
  }
  return schema || {};
}

const typeOf = schema => [schema.type].flat().find(t => t && t !== 'null')
  || (schema.enum ? 'string' : schema.properties ? 'object' : 'object');
const label = name => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ID(s?)$/, 'ID$1')
  .replace(/^./, c => c.toUpperCase());

/** One field of the form, built from its schema: the element and how to read its value back (undefined: unset). */
function field(schema, name, path, value) {
  schema = resolve(schema);
  const type = typeOf(schema);
  const id = 'f-' + path.replace(/[^A-Za-z0-9]+/g, '-');
  if (type === 'array') {
    const items = resolve(schema.items || {});
    if (typeOf(items) === 'object' && items.properties) return objectList(items, name, path, value || []);
    const input = h('input', { id, 'data-field': path, value: (value || []).join(', '), autocomplete: 'off' });
    const numbers = typeOf(items) === 'integer';
    return { el: [h('label', { for: id }, label(name), h('span', { class: 'muted' }, ' (comma-separated)')), input],
      read: () => {
        const parts = input.value.split(',').map(s => s.trim()).filter(Boolean);
        return parts.length ? parts.map(p => (numbers && /^-?\d+$/.test(p) ? Number(p) : p)) : undefined;
      } };
  }
  if (type === 'object' && schema.properties) {
    const parts = Object.entries(schema.properties).map(([k, s]) => [k, field(s, k, `${path}.${k}`, value?.[k])]);
    return { el: h('fieldset', null, h('legend', null, label(name)), parts.map(([, f]) => f.el)),
      read: () => collect(parts) };
  }
  if (type === 'object') {
    const text = Object.entries(value || {}).map(([k, v]) => `${k}=${v}`).join('\n');
    const area = h('textarea', { id, 'data-field': path, value: text });
    return { el: [h('label', { for: id }, label(name), h('span', { class: 'muted' }, ' (one key=value per line)')), area],
      read: () => {
        const out = {};
        for (const line of area.value.split('\n')) {
          const at = line.indexOf('=');
          if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
        }
        return Object.keys(out).length ? out : undefined;
      } };
  }
  if (schema.enum || type === 'boolean') {
    const options = schema.enum ? schema.enum.filter(v => v != null) : [true, false];
    const select = h('select', { id, 'data-field': path },
      h('option', { value: '' }, '(provider default)'),
      options.map(o => h('option', { value: String(o), selected: value != null && String(value) === String(o) },
        type === 'boolean' ? (o ? 'yes' : 'no') : String(o))));
    return { el: [h('label', { for: id }, label(name)), select],
      read: () => select.value === '' ? undefined : type === 'boolean' ? select.value === 'true' : select.value };
  }
  const numeric = type === 'integer' || type === 'number';
  const input = h('input', { id, 'data-field': path, type: numeric ? 'number' : 'text', value: value ?? '',
    autocomplete: 'off', step: type === 'integer' ? '1' : null });
  return { el: [h('label', { for: id }, label(name)), input],
    read: () => input.value.trim() === '' ? undefined : numeric ? Number(input.value) : input.value.trim() };
}

function objectList(items, name, path, values) {
  const entries = [];
  const list = h('div');
  const add = value => {
    const index = entries.length;
    const parts = Object.entries(items.properties)
      .map(([k, s]) => [k, field(s, k, `${path}[${index}].${k}`, value?.[k])]);
    const entry = { parts, el: null };
    entry.el = h('fieldset', { 'data-item': `${path}[${index}]` }, h('legend', null, `${label(name)} ${index + 1}`),
      parts.map(([, f]) => f.el),
      h('button', { type: 'button', onclick: () => { entry.removed = true; entry.el.remove(); } }, 'Remove'));
    entries.push(entry);
    list.append(entry.el);
  };
  values.forEach(add);
  return { el: h('fieldset', { id: `list-${path.replace(/[^A-Za-z0-9]+/g, '-')}` }, h('legend', null, label(name)), list,
    h('button', { type: 'button', onclick: () => add({}) }, `Add ${label(name).toLowerCase().replace(/s$/, '')}`)),
    read: () => {
      const out = entries.filter(e => !e.removed).map(e => collect(e.parts));
      return out.length ? out : undefined;
    } };
}

function collect(parts) {
  const out = {};
  for (const [k, f] of parts) {
    const v = f.read();
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

export async function wizardPage(ctx, params) {
  const [spaces] = await Promise.all([allSpaces(), loadSchemas()]);
  const active = spaces.filter(s => s.status === 'active');
  const steps = h('ol', { class: 'wizard-steps', 'aria-label': 'Wizard steps' },
    ['Space and kind', 'Configure', 'Review plan'].map((s, i) => h('li', { 'data-stage': i }, s)));
  const stage = n => steps.querySelectorAll('li').forEach((li, i) =>
    i === n ? li.setAttribute('aria-current', 'step') : li.removeAttribute('aria-current'));
  const space = h('select', { id: 'job-space', 'data-field': 'spaceID' },
    active.map(s => h('option', { value: s.id, selected: s.id === params.get('space') }, `${s.name} (${s.provider})`)));
  const kind = h('select', { id: 'job-kind', 'data-field': 'kind' },
    Object.keys(KINDS).map(k => h('option', { value: k, selected: k === params.get('kind') }, k.replace(/_/g, ' '))));
  const jobName = h('input', { id: 'job-name', 'data-field': 'name', autocomplete: 'off' });
  const configHolder = h('div', { id: 'job-config' });
  const planHolder = h('section', { id: 'plan', hidden: true });
  let config = null;
  const buildConfig = () => {
    config = field(schemas[KINDS[kind.value]], 'config', 'config', EXAMPLES[kind.value]);
    replace(configHolder, ...[config.el].flat());
  };
  kind.addEventListener('change', () => { buildConfig(); planHolder.hidden = true; stage(1); });
  buildConfig();
  const body = () => {
    const out = { spaceID: space.value, kind: kind.value, config: config.read() || {} };
    if (jobName.value.trim()) out.name = jobName.value.trim();
    return out;
  };
  const form = h('form', { class: 'card', id: 'wizard', novalidate: true },
    h('label', { for: 'job-space' }, 'Space'), space,
    h('label', { for: 'job-kind' }, 'What to provision'), kind,
    h('label', { for: 'job-name' }, 'Job name ', h('span', { class: 'muted' }, '(optional; the resource name by default)')),
    jobName,
    h('h2', null, 'Configuration'), configHolder,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'review-plan' }, 'Review plan')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      const plan = await post('/provisioning-jobs/plan', body());
      clearNotice();
      replace(planHolder, ...planView(ctx, plan, form, body, planHolder, stage));
      planHolder.hidden = false;
      form.hidden = true;
      stage(2);
      planHolder.querySelector('h2').focus();
    } catch (e) {
      showError(e, form);
    }
  });
  stage(active.length ? 1 : 0);
  return [h('h1', null, 'New provisioning job'), steps,
    active.length ? null : h('p', null, 'No active space yet: ', h('a', { href: '#/spaces' }, 'register one'), ' first.'),
    form, planHolder];
}

function planView(ctx, plan, form, body, holder, stage) {
  const money = v => v == null ? '—' : `$${Number(v).toFixed(2)}`;
  const submit = ctx.can('provisioning:create') ? h('button', { type: 'button', class: 'primary', id: 'submit-job',
    onclick: async event => {
      event.target.disabled = true;
      try {
        const job = await post('/provisioning-jobs', body());
        ctx.go(`#/jobs/${encodeURIComponent(job.id)}`);
      } catch (e) {
        event.target.disabled = false;
        showError(e);
      }
    } }, 'Submit job') : h('p', { class: 'muted' }, 'Your token may plan but not submit jobs.');
  return [
    h('h2', { tabindex: '-1' }, 'Plan'),
    plan.warnings?.length ? h('ul', { id: 'plan-warnings', class: 'warning', role: 'note' },
      plan.warnings.map(w => h('li', { 'data-code': w.code }, h('strong', null, 'Warning: '), w.message))) : null,
    kv([['Provider', plan.provider], ['Region', plan.region], ['Kind', plan.kind],
      ['Prices as of', plan.pricesAsOf]]),
    h('h3', null, 'Steps and the permissions each needs'),
    h('ol', { id: 'plan-steps' }, plan.steps.map(s => h('li', { 'data-step': s.name }, h('strong', null, s.name),
      s.permissions.length ? h('div', { class: 'mono muted' }, s.permissions.join(', ')) : null))),
    h('h3', null, 'Monthly cost'),
    table([['Component'], ['Quantity'], ['Unit price'], ['Monthly']], plan.costs.map(c => h('tr', null,
      h('td', null, c.name, c.note ? h('div', { class: 'muted' }, c.note) : null),
      h('td', null, `${c.quantity} ${c.unit}`), h('td', null, c.unitPrice == null ? '—' : `$${Number(c.unitPrice)}`), h('td', null, money(c.monthly)))),
    { id: 'plan-costs' }),
    h('p', null, h('strong', null, 'Total per month: ', h('span', { id: 'plan-total' }, money(plan.monthlyTotal))),
      plan.complete ? null : h('span', { class: 'muted' }, ' (some prices are unknown: the total is a lower bound)')),
    plan.defaults?.length ? [h('h3', null, 'Defaults the provider fills in'),
      h('ul', { id: 'plan-defaults' }, plan.defaults.map(d => h('li', null, h('span', { class: 'mono' }, d.field),
        ` = ${d.value}`, d.reason ? h('span', { class: 'muted' }, ` — ${d.reason}`) : null)))] : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'edit-config', onclick: () => { holder.hidden = true; form.hidden = false; stage(1); } },
        'Back to the form'),
      submit),
  ];
}

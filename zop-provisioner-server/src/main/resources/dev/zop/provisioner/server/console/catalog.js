// The component catalog and installing a component into a space's cluster.
import { post, get } from './api.js';
import { clearFieldErrors, showError } from './app.js';
import { h, replace } from './dom.js';
import { allSpaces } from './spaces.js';

export async function catalogPage(ctx) {
  const [components, spaces] = await Promise.all([get('/catalog/components'),
    ctx.can('service:create') ? allSpaces() : Promise.resolve([])]);
  const active = spaces.filter(s => s.status === 'active');
  return [h('h1', null, 'Component catalog'),
    components.length ? h('div', { id: 'catalog' }, components.map(c => h('section', { 'data-component': c.id, id: `component-${c.id}` },
      h('h2', null, c.name, ' ', h('span', { class: 'badge' }, c.category), ' ', h('span', { class: 'muted' }, c.version),
        c.status && c.status !== 'maintained' ? [' ', h('span', { class: `badge ${c.status}` }, c.status)] : null),
      h('p', null, c.description),
      c.status && c.status !== 'maintained' ? h('p', { class: 'warning', role: 'note', 'data-status': c.status },
        h('strong', null, `${c.status === 'retired' ? 'Retired' : 'Deprecated'} upstream: `), c.statusReason, '. ',
        c.replacement ? ['The catalog offers ', h('a', { href: `#component-${c.replacement}` }, c.replacement),
          ' instead; it still installs for clusters that depend on it.'] : 'It still installs for clusters that depend on it.')
        : null,
      c.provenance ? h('p', { class: 'muted' }, `Chart ${c.chart} ${c.version}`, c.appVersion ? ` (app ${c.appVersion})` : '',
        ` from ${c.provenance.sourceRepository} at ${c.provenance.releaseTag}`) : null,
      Object.keys(c.defaultValues || {}).length ? h('details', null, h('summary', null, 'Default values'),
        h('pre', { class: 'mono' }, JSON.stringify(c.defaultValues, null, 2))) : null,
      ctx.can('service:create') && active.length ? installForm(ctx, c, active) : null)))
      : h('p', { class: 'muted' }, 'No component installer is configured on this service.')];
}

function installForm(ctx, component, spaces) {
  const id = component.id.replace(/[^a-z0-9]+/gi, '-');
  const space = h('select', { id: `install-space-${id}`, 'data-field': 'spaceID' },
    spaces.map(s => h('option', { value: s.id }, s.name)));
  const namespace = h('input', { id: `install-ns-${id}`, 'data-field': 'namespace', autocomplete: 'off' });
  const values = h('textarea', { id: `install-values-${id}`, 'data-field': 'values',
    placeholder: 'controller.service.type=LoadBalancer' });
  const install = h('button', { type: 'submit', class: 'primary' }, 'Install');
  const warnings = h('ul', { class: 'warning', role: 'note', id: `install-warnings-${id}`, hidden: true });
  const form = h('form', { class: 'card' }, h('h3', null, `Install ${component.name}`),
    h('label', { for: space.id }, 'Space'), space,
    h('label', { for: namespace.id }, 'Namespace ', h('span', { class: 'muted' }, '(optional)')), namespace,
    h('label', { for: values.id }, 'Values ', h('span', { class: 'muted' }, '(one key=value per line)')), values,
    warnings,
    h('div', { class: 'actions' }, install));
  // what the plan warns of (a retired component, say) is shown before anything is installed: a second click installs
  let acknowledged = null;
  form.addEventListener('input', () => { acknowledged = null; warnings.hidden = true; install.textContent = 'Install'; });
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    const parsed = {};
    for (const line of values.value.split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) parsed[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    const body = { spaceID: space.value, componentID: component.id, values: parsed };
    if (namespace.value.trim()) body.namespace = namespace.value.trim();
    try {
      const asked = JSON.stringify(body);
      if (acknowledged !== asked) {
        const { spaceID, ...config } = body;
        const plan = await post('/provisioning-jobs/plan', { spaceID, kind: 'component', config });
        if (plan.warnings?.length) {
          replace(warnings, ...plan.warnings.map(w => h('li', { 'data-code': w.code }, h('strong', null, 'Warning: '), w.message)));
          warnings.hidden = false;
          install.textContent = 'Install anyway';
          acknowledged = asked;
          return;
        }
      }
      const job = await post('/provisioning-jobs/install-component', body);
      ctx.go(`#/jobs/${encodeURIComponent(job.id)}`);
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

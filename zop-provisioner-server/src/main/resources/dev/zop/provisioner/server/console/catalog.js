// The component catalog and installing a component into a space's cluster.
import { post, get } from './api.js';
import { clearFieldErrors, showError } from './notice.js';
import { h, replace } from './dom.js';
import { allSpaces } from './spaces.js';

export async function catalogPage(ctx) {
  const [components, spaces] = await Promise.all([get('/catalog/components'),
    ctx.can('service:create') ? allSpaces() : Promise.resolve([])]);
  const active = spaces.filter(s => s.status === 'active');
  const form = ctx.can('service:create') && active.length && components.length ? installForm(ctx, components, active) : null;
  return [h('h1', null, 'Component catalog'),
    components.length ? h('div', { id: 'catalog', class: 'catalog' }, components.map(c => h('section', { 'data-component': c.id, id: `component-${c.id}`,
      'aria-labelledby': `component-${c.id}-title` },
      h('h2', { id: `component-${c.id}-title` }, c.name, ' ', h('span', { class: 'badge' }, c.category), ' ', h('span', { class: 'muted' }, c.version),
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
      form ? h('div', { class: 'actions' }, h('button', { type: 'button', 'data-install': c.id,
        'aria-label': `Install ${c.name}`, onclick: () => form.choose(c.id) }, 'Install…')) : null)))
      : h('p', { class: 'muted' }, 'No component installer is configured on this service.'),
    form ? form.el : null];
}

/** The one install form: the component chosen from the list (or from a component's Install button), its space and values. */
function installForm(ctx, components, spaces) {
  const component = h('select', { id: 'install-component', 'data-field': 'componentID' },
    components.map(c => h('option', { value: c.id }, `${c.name} ${c.version}`)));
  const space = h('select', { id: 'install-space', 'data-field': 'spaceID' },
    spaces.map(s => h('option', { value: s.id }, s.name)));
  const namespace = h('input', { id: 'install-ns', 'data-field': 'namespace', autocomplete: 'off',
    'aria-describedby': 'install-ns-help' });
  const values = h('textarea', { id: 'install-values', 'data-field': 'values',
    placeholder: 'controller.service.type=LoadBalancer', 'aria-describedby': 'install-values-help' });
  const install = h('button', { type: 'submit', class: 'primary', id: 'install-submit' }, 'Install');
  const warnings = h('ul', { class: 'warning', role: 'note', id: 'install-warnings', hidden: true });
  const form = h('form', { class: 'card', id: 'install' }, h('h2', { tabindex: '-1' }, 'Install a component'),
    h('label', { for: component.id }, 'Component'), component,
    h('label', { for: space.id }, 'Into the cluster of space'), space,
    h('label', { for: namespace.id }, 'Namespace'), namespace,
    h('p', { class: 'help', id: 'install-ns-help' }, 'Optional; the component\'s own namespace by default.'),
    h('label', { for: values.id }, 'Values'), values,
    h('p', { class: 'help', id: 'install-values-help' }, 'One key=value per line, over the chart\'s defaults.'),
    warnings,
    h('div', { class: 'actions' }, install));
  // what the plan warns of (a retired component, say) is shown before anything is installed: a second click installs
  let acknowledged = null;
  form.addEventListener('input', () => { acknowledged = null; warnings.hidden = true; install.textContent = 'Install'; });
  form.addEventListener('change', () => { acknowledged = null; warnings.hidden = true; install.textContent = 'Install'; });
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    const parsed = {};
    for (const line of values.value.split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) parsed[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    const body = { spaceID: space.value, componentID: component.value, values: parsed };
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
  return { el: form, choose: id => {
    component.value = id;
    component.dispatchEvent(new Event('change', { bubbles: true }));
    form.querySelector('h2').focus();
    form.scrollIntoView({ block: 'start' });
  } };
}

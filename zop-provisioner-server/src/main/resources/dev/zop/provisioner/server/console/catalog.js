// The component catalog and installing a component into a space's cluster.
import { post, get } from './api.js';
import { clearFieldErrors, showError } from './app.js';
import { h } from './dom.js';
import { allSpaces } from './spaces.js';

export async function catalogPage(ctx) {
  const [components, spaces] = await Promise.all([get('/catalog/components'),
    ctx.can('service:create') ? allSpaces() : Promise.resolve([])]);
  const active = spaces.filter(s => s.status === 'active');
  return [h('h1', null, 'Component catalog'),
    components.length ? h('div', { id: 'catalog' }, components.map(c => h('section', { 'data-component': c.id },
      h('h2', null, c.name, ' ', h('span', { class: 'badge' }, c.category), ' ', h('span', { class: 'muted' }, c.version)),
      h('p', null, c.description),
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
  const form = h('form', { class: 'card' }, h('h3', null, `Install ${component.name}`),
    h('label', { for: space.id }, 'Space'), space,
    h('label', { for: namespace.id }, 'Namespace ', h('span', { class: 'muted' }, '(optional)')), namespace,
    h('label', { for: values.id }, 'Values ', h('span', { class: 'muted' }, '(one key=value per line)')), values,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Install')));
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
      const job = await post('/provisioning-jobs/install-component', body);
      ctx.go(`#/jobs/${encodeURIComponent(job.id)}`);
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

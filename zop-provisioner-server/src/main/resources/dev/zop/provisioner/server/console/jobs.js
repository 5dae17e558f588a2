// Provisioning jobs: the list with filters and paging, and a job's page with its live step timeline, outputs,
// failure, retry, teardown, and the databases and connections of a datastore.
import { call, get, list, post, query, streamEvents } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { badge, changesTable, confirmDialog, duration, h, ident, replace, kv, table, when } from './dom.js';
import { allSpaces } from './spaces.js';

const STATUSES = ['pending', 'running', 'awaiting_user', 'succeeded', 'failed', 'cancelled', 'deleting', 'deleted'];
const path = id => `/provisioning-jobs/${encodeURIComponent(id)}`;

export async function jobsPage(ctx, params) {
  const status = params.get('status') || '';
  const space = params.get('space') || '';
  const cursor = params.get('cursor') || '';
  const [page, spaces] = await Promise.all([
    list('/provisioning-jobs' + query({ status, spaceID: space, cursor, limit: 20 })), allSpaces()]);
  const names = Object.fromEntries(spaces.map(s => [s.id, s.name]));
  // a filter applies as soon as it is chosen, and the address keeps it (a link to the page is the filtered list)
  const apply = () => ctx.go('#/jobs' + query({ status: filters.status.value, space: filters.space.value }));
  const filters = h('form', { class: 'actions', id: 'job-filters', role: 'search', 'aria-label': 'Filter jobs' },
    h('label', { for: 'filter-status' }, 'Status'),
    h('select', { id: 'filter-status', name: 'status', onchange: apply }, h('option', { value: '' }, 'any'),
      STATUSES.map(s => h('option', { value: s, selected: s === status }, s.replace(/_/g, ' ')))),
    h('label', { for: 'filter-space' }, 'Space'),
    h('select', { id: 'filter-space', name: 'space', onchange: apply }, h('option', { value: '' }, 'any'),
      spaces.map(s => h('option', { value: s.id, selected: s.id === space }, s.name))),
    h('label', { for: 'filter-text' }, 'Find'),
    h('input', { id: 'filter-text', type: 'search', autocomplete: 'off', placeholder: 'name, kind or id',
      'aria-controls': 'jobs', oninput: event => narrow(event.target.value) }));
  filters.addEventListener('submit', event => { event.preventDefault(); apply(); });
  // the page's rows that hold what is typed, as it is typed
  const narrow = text => {
    const wanted = text.trim().toLowerCase();
    let shown = 0;
    for (const row of document.querySelectorAll('#jobs tbody tr')) {
      row.hidden = wanted !== '' && !row.dataset.find.includes(wanted);
      if (!row.hidden) shown++;
    }
    const note = document.getElementById('filter-count');
    if (note) note.textContent = wanted ? `${shown} of this page's jobs hold "${text.trim()}"` : '';
  };
  const rows = page.items.map(job => h('tr', { 'data-job': job.name,
    'data-find': [job.name, job.kind, job.id, names[job.spaceId] || ''].join(' ').toLowerCase() },
    h('td', null, h('a', { href: `#/jobs/${encodeURIComponent(job.id)}` }, job.name), h('div', null, ident(job.id))),
    h('td', null, job.kind.replace(/_/g, ' ')), h('td', null, badge(job.status)),
    h('td', { class: 'optional' }, spaceLink(job.spaceId, names)),
    h('td', { class: 'optional' }, when(job.createdAt)),
    h('td', { class: 'optional' }, duration(job.createdAt, job.finishedAt))));
  return [
    h('div', { class: 'title-row' }, h('h1', null, 'Provisioning jobs'),
      ctx.can('provisioning:create') ? h('a', { class: 'button primary', id: 'new-job',
        href: '#/new' + query({ space }) }, 'New job') : null),
    filters,
    h('p', { class: 'muted', id: 'filter-count', role: 'status' }),
    rows.length ? table([['Job'], ['Kind'], ['Status'], ['Space', 'optional'], ['Started', 'optional'],
      ['Took', 'optional']], rows, { id: 'jobs' }) : h('p', { class: 'muted' }, 'No jobs match.'),
    h('div', { class: 'actions' },
      cursor ? h('a', { href: '#/jobs' + query({ status, space }) }, 'First page') : null,
      page.nextCursor ? h('a', { id: 'next-page', href: '#/jobs' + query({ status, space, cursor: page.nextCursor }) },
        'Next page') : null),
  ];
}

/** A space by its name, linking to its jobs; a space since deleted by its id, said to be gone. */
export function spaceLink(spaceId, names) {
  if (!spaceId) return '';
  const name = names[spaceId];
  return name ? h('a', { href: `#/jobs?space=${encodeURIComponent(spaceId)}`, 'data-space-link': spaceId }, name)
    : h('span', { class: 'muted', title: spaceId }, 'a deleted space');
}

/**
 * Outputs once each, in name order: a provider that writes a value under two spellings (clusterName and
 * cluster.name) is shown under the first.
 */
export function outputRows(outputs) {
  const seen = new Map();
  for (const [name, value] of Object.entries(outputs || {}).sort(([a], [b]) => a.localeCompare(b))) {
    const key = name.toLowerCase().replace(/[^a-z0-9]/g, '') + '=' + value;
    // of two spellings, the one without dots: the name the product documents use
    if (!seen.has(key) || (seen.get(key)[0].includes('.') && !name.includes('.'))) seen.set(key, [name, value]);
  }
  return [...seen.values()];
}

/** What the job page shows of a job: all of it but the time of its last write. */
const fingerprint = job => JSON.stringify({ ...job, updatedAt: null });

export async function jobPage(ctx, id) {
  let job = await get(path(id));
  const names = Object.fromEntries((await allSpaces()).map(s => [s.id, s.name]));
  const root = h('div', { id: 'job', 'data-job-id': id });
  // focusable, so its scrolled-away events are reached from the keyboard too
  const events = h('ol', { class: 'events card', id: 'events', 'aria-live': 'polite', 'aria-label': 'Progress',
    tabindex: '0' });
  const extra = h('div', { id: 'job-extra' });
  let loading = null;
  let again = false;

  const draw = () => {
    const focused = root.contains(document.activeElement);
    replace(root, ...jobView(ctx, job, reload, names), h('h2', null, 'Progress'), events, extra);
    // a redraw that took away the focused control (the teardown button, say) leaves the focus on the job's title
    if (focused && !root.contains(document.activeElement)) root.querySelector('#job-title').focus({ preventScroll: true });
  };
  async function reload() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        const next = await get(path(id));
        // a step polling the cloud writes an event per poll without changing what the page shows: redraw only on
        // a change, so the page holds still (and keeps its focus) while a job waits
        const changed = fingerprint(next) !== fingerprint(job);
        job = next;
        if (changed) draw();
        // events that keep coming are read in one request at most every quarter second
        if (again) await new Promise(resolve => setTimeout(resolve, 250));
      } while (again);
    })().catch(showError).finally(() => { loading = null; });
    return loading;
  }
  const seen = new Set();
  const addEvent = event => {
    if (seen.has(event.seq)) return;
    seen.add(event.seq);
    const what = event.type === 'status' ? `status ${String(event.status).replace(/_/g, ' ')}` : event.type.replace(/_/g, ' ');
    // the time of day: a list of events reads as a log
    const at = h('time', { datetime: event.at }, new Date(event.at).toLocaleTimeString());
    events.append(h('li', { 'data-event': event.type, 'data-status': event.status }, at, ' ', h('strong', null, what),
      event.stepName ? ` · ${event.stepName}` : '', event.message ? ` — ${event.message}` : ''));
    events.scrollTop = events.scrollHeight;
  };
  (await get(path(id) + '/events?after=0')).forEach(addEvent);
  draw();
  ctx.onLeave(streamEvents(id, event => {
    addEvent(event);
    reload();
  }));
  if (job.status === 'succeeded' && job.kind !== 'component') {
    extra.append(await driftSection(ctx, job));
  }
  if (job.kind === 'datastore') {
    extra.append(await datastoreSection(ctx, job));
  }
  return root;
}

/**
 * Drift: the job's kept report (a check on request or on its space's schedule), a check now, and the plan that puts
 * back what drifted, applied as a reconcile revision.
 */
async function driftSection(ctx, job) {
  const base = path(job.id);
  const section = h('section', { id: 'drift', 'aria-labelledby': 'drift-title' });
  const planHolder = h('div', { id: 'reconcile-plan' });
  const afterReconcile = () => replace(section, h('h2', { id: 'drift-title' }, 'Drift'), h('p', { id: 'drift-status',
    'data-status': 'reconciling' }, 'Putting back what drifted: its steps are in the progress above.'));
  const draw = report => {
    const check = ctx.can('provisioning:update') ? h('button', { type: 'button', id: 'check-drift', onclick: async event => {
      event.target.disabled = true;
      try {
        draw(await post(base + '/drift-checks'));
      } catch (e) {
        event.target.disabled = false;
        showError(e);
      }
    } }, 'Check now') : null;
    const reconcile = report?.status === 'drifted' ? h('button', { type: 'button', id: 'plan-reconcile',
      onclick: async () => {
        try {
          replace(planHolder, ...reconcileView(ctx, job, await post(base + '/reconcile/plan'), afterReconcile));
        } catch (e) {
          showError(e);
        }
      } }, 'Plan putting it back') : null;
    replace(section, h('h2', { id: 'drift-title' }, 'Drift'),
      report ? h('p', { id: 'drift-status', 'data-status': report.status }, badge(report.status), ' checked ',
        when(report.checkedAt), report.checkedBy ? ` by ${report.checkedBy}` : '', ` · ${report.cloudCalls} cloud calls`)
        : h('p', { class: 'muted', id: 'drift-status' }, 'Not checked yet: a check reads every resource the job made'
          + ' back from the cloud and compares it with the config; nothing changes.'),
      report?.drifts?.length ? h('ul', { id: 'drifts' }, report.drifts.map(d => h('li', { class: 'mono',
        'data-resource': d.resource, 'data-field': d.field ?? '' }, d.field == null ? `${d.resource}: missing from the cloud`
        : `${d.resource} ${d.field}: the config says ${d.expected ?? '—'}, the cloud has ${d.actual ?? '(none)'}`)))
        : null,
      h('div', { class: 'actions' }, check, reconcile), planHolder);
  };
  let report = null;
  try {
    report = await get(base + '/drift');
  } catch (e) {
    if (e.status !== 404) {
      replace(section, h('h2', { id: 'drift-title' }, 'Drift'), h('p', { class: 'section-error', role: 'status' },
        `The drift report could not be read: ${e.message} (${e.code}).`));
      return section;
    }
  }
  draw(report);
  return section;
}

/** A reconcile's plan: each field from the cloud's value back to the config's, and the button that does it. */
function reconcileView(ctx, job, plan, after) {
  const apply = ctx.can('provisioning:update') && plan.changes.length ? h('button', { type: 'button', class: 'primary',
    id: 'apply-reconcile', onclick: async event => {
      event.target.disabled = true;
      try {
        await post(path(job.id) + '/reconcile');
        showInfo(`Putting back what drifted on ${job.name}.`);
        after();
      } catch (e) {
        event.target.disabled = false;
        showError(e);
      }
    } }, 'Put it back') : null;
  return [
    h('h3', null, 'Putting it back'),
    plan.changes.length ? changesTable(plan.changes, ['The cloud has', 'The config says'], 'reconcile-changes')
      : h('p', { id: 'reconcile-changes' }, 'Nothing to put back: the cloud matches the config now.'),
    h('div', { class: 'actions' }, apply),
  ];
}

/**
 * How long the job took, phase by phase: its creation from submission to the end of its create steps, and a
 * later change or teardown apart, so that a revision made days later is not counted as the creation's time.
 */
function timing(job) {
  const steps = job.steps || [];
  const ends = phase => steps.filter(s => s.phase === phase).map(s => s.finishedAt).filter(Boolean).sort();
  if (job.phase === 'create') {
    return [[job.finishedAt ? 'Took' : 'Running for', duration(job.createdAt, job.finishedAt)]];
  }
  const created = ends('create').pop();
  const current = steps.filter(s => s.phase === job.phase);
  const began = current.map(s => s.startedAt).filter(Boolean).sort()[0];
  const what = job.phase === 'teardown' ? 'Teardown' : 'Last change';
  return [['Creation took', created ? duration(job.createdAt, created) : '—'],
    [job.finishedAt ? `${what} took` : `${what} running for`, began ? duration(began, job.finishedAt) : '—']];
}

function jobView(ctx, job, reload, names) {
  const out = [
    h('h1', { id: 'job-title', tabindex: '-1' }, job.name, ' ', h('span', { id: 'job-status' }, badge(job.status))),
    h('section', null, kv([['Kind', job.kind.replace(/_/g, ' ')], ['Phase', job.phase],
      ['Space', h('span', { id: 'job-space' }, spaceLink(job.spaceId, names))],
      ['Started by', job.createdBy], ['Started', when(job.createdAt)], ...timing(job),
      ['Job id', ident(job.id)],
      ['Tags', Object.entries(job.tags || {}).map(([k, v]) => `${k}=${v}`).join(', ')],
      // the job's config is the one last applied; a revision being applied, or one that failed, stands beside it
      ...(job.revision ? [['Revision', h('span', { id: 'job-revision' }, `${job.revision.number} ${job.revision.status}:`
        + ' the resources keep the config last applied until it is applied')]] : [])])),
  ];
  if (job.lastFailure && job.status === 'failed') out.push(failureView(ctx, job, reload));
  const actions = h('div', { class: 'actions' });
  if (ctx.can('provisioning:update') && job.status === 'succeeded' && job.kind !== 'component') {
    actions.append(h('a', { class: 'button', id: 'change-job', href: `#/jobs/${encodeURIComponent(job.id)}/change` },
      'Change'));
  }
  if (ctx.can('provisioning:delete') && !['deleting', 'deleted'].includes(job.status)) {
    actions.append(h('button', { type: 'button', class: 'danger', id: 'teardown', onclick: async () => {
      const ok = await confirmDialog(`Tear down ${job.name}?`, 'Everything this job created is deleted in the'
        + ' cloud, in reverse order. This cannot be undone.', 'Tear down', job.name);
      if (!ok) return;
      try {
        await call('DELETE', path(job.id));
        showInfo(`Teardown of ${job.name} started.`);
        reload();
      } catch (e) {
        showError(e);
      }
    } }, 'Tear down'));
  }
  if (actions.childElementCount) out.push(actions);
  out.push(h('h2', null, 'Steps'), stepsView(job.steps || []));
  const outputs = outputRows(job.outputs);
  if (job.status === 'deleted') {
    // what the outputs named (a space the cluster registered, its endpoint) is gone with the teardown
    out.push(h('p', { class: 'muted', id: 'torn-down' }, 'Everything this job made has been deleted in the cloud.'));
  } else if (outputs.length) {
    out.push(h('h2', null, 'Outputs'), table([['Name'], ['Value']],
      outputs.map(([k, v]) => h('tr', { 'data-output': k }, h('th', { scope: 'row' }, k), h('td', { class: 'mono' }, v))),
      { id: 'outputs' }),
    h('p', { class: 'muted' }, 'Secrets are never outputs: they stay in the cloud\'s secret store, named by reference.'));
  }
  return out;
}

/** The failure as the product documents render it: by who has to act. */
function failureView(ctx, job, reload) {
  const retry = label => ctx.can('provisioning:update') ? h('button', { type: 'button', class: 'primary', id: 'retry',
    onclick: async event => {
      event.target.disabled = true;
      try {
        await post(path(job.id) + '/retry');
        showInfo(`${job.name} resumes at the failed step.`);
        reload();
      } catch (e) {
        event.target.disabled = false;
        showError(e);
      }
    } }, label) : null;
  return failurePanel(job.lastFailure, {
    userAction: retry('Retry after fixing'),
    transient: retry('Retry'),
    transientNote: 'This is usually throttling or eventual consistency; the job resumes at the failed step.',
  });
}

/**
 * A failure by category: {@code user_action} with its fix hint and a link to the cloud's console,
 * {@code transient} with the action that tries again, {@code system} recorded for follow-up.
 */
export function failurePanel(failure, { userAction, transient, transientNote }) {
  const common = [h('p', { class: 'failure-message' }, failure.message),
    h('p', { class: 'muted' }, `code ${failure.code}`, failure.providerRequestId
      ? ` · provider request ${failure.providerRequestId}` : '')];
  const panel = (title, ...content) => h('section', { class: `failure ${failure.category}`, id: 'failure',
    'data-category': failure.category }, h('h2', null, title), ...common, ...content);
  if (failure.category === 'user_action') {
    return panel('Needs your action',
      failure.fixHint ? h('p', { class: 'fix-hint' }, h('strong', null, 'How to fix: '), failure.fixHint) : null,
      failure.consoleUrl ? h('p', null, h('a', { id: 'console-link', href: failure.consoleUrl, target: '_blank',
        rel: 'noopener noreferrer' }, 'Open the cloud console')) : null,
      h('div', { class: 'actions' }, userAction));
  }
  if (failure.category === 'transient') {
    return panel('The cloud failed for a while', h('p', null, transientNote), h('div', { class: 'actions' }, transient));
  }
  return panel('Recorded for follow-up',
    h('p', null, 'This failure is ours or an unsupported cloud API; trying again would fail the same way.'));
}

function stepsView(steps) {
  const phases = [...new Set(steps.map(s => s.phase))];
  return h('div', { id: 'steps' }, phases.map(phase => [
    h('h3', null, phase === 'teardown' ? 'Teardown' : 'Create'),
    h('ol', { class: 'timeline' }, steps.filter(s => s.phase === phase).sort((a, b) => a.position - b.position)
      .map(step => h('li', { class: step.status, 'data-step': step.name, 'data-status': step.status },
        h('strong', null, step.name), ' ', badge(step.status),
        step.attempts > 1 ? h('span', { class: 'muted' }, ` · ${step.attempts} attempts`) : null,
        step.startedAt ? h('div', { class: 'muted' }, 'started ', when(step.startedAt), ' · ',
          duration(step.startedAt, step.finishedAt)) : null,
        step.failure ? h('div', { class: 'field-error' }, step.failure.message) : null,
        step.permissions?.length ? h('details', null, h('summary', null, 'Permissions'),
          h('ul', null, step.permissions.map(p => h('li', { class: 'mono' }, p)))) : null))),
  ]));
}

async function datastoreSection(ctx, job) {
  const base = path(job.id);
  const section = h('section', { id: 'databases' });
  async function draw() {
    const [databases, connections] = (await Promise.all([list(base + '/databases?limit=100'),
      list(base + '/connections?limit=100')])).map(p => p.items);
    const rows = await Promise.all(databases.map(async db => {
      const dbPath = `${base}/databases/${encodeURIComponent(db.id)}`;
      const dbConnections = (await list(dbPath + '/connections?limit=100')).items;
      const newConnection = ctx.can('provisioning:create') ? h('button', { type: 'button',
        'data-action': 'new-connection', onclick: () => act(() => post(dbPath + '/connections')) }, 'New connection')
        : null;
      const drop = ctx.can('provisioning:delete') ? h('button', { type: 'button', class: 'danger',
        'data-action': 'drop-database', onclick: async () => {
          if (await confirmDialog(`Drop ${db.name}?`, 'The database and its user are dropped on the server.',
            'Drop database', db.name)) act(() => call('DELETE', dbPath));
        } }, 'Drop') : null;
      return h('tr', { 'data-database': db.name },
        h('td', null, h('strong', null, db.name), h('div', { class: 'mono muted' }, db.id)),
        h('td', null, db.owner), h('td', null, badge(db.status)),
        h('td', { class: 'mono optional' }, `${db.host}:${db.port}`),
        h('td', { class: 'mono' }, db.secretRef),
        h('td', null, dbConnections.map(c => h('div', { class: 'mono', 'data-connection': c.id },
          `${c.user}@${c.host} · ${c.secretRef}`)), h('div', { class: 'actions' }, newConnection, drop)));
    }));
    const form = ctx.can('provisioning:create') ? databaseForm(base, draw) : null;
    replace(section,
      h('h2', null, 'Databases'),
      rows.length ? table([['Database'], ['Owner'], ['Status'], ['Server', 'optional'], ['Secret reference'],
        ['Connections']], rows) : h('p', { class: 'muted' }, 'No databases on this server yet.'),
      form,
      h('h2', null, 'Connections shared by the whole server'),
      connections.length ? h('ul', { id: 'server-connections' }, connections.map(c => h('li',
        { class: 'mono', 'data-connection': c.id }, `${c.user}@${c.host}:${c.port} · ${c.secretRef}`)))
        : h('p', { class: 'muted' }, 'None.'),
      ctx.can('provisioning:create') ? h('button', { type: 'button', id: 'new-server-connection',
        onclick: () => act(() => post(base + '/connections')) }, 'New server-wide connection') : null,
      h('p', { class: 'muted' }, 'Passwords are never shown here: each connection names its secret by reference.'));
  }
  async function act(action) {
    try {
      await action();
      await draw();
    } catch (e) {
      showError(e);
    }
  }
  if (job.status === 'succeeded') {
    try {
      await draw();
    } catch (e) {
      // one section that cannot be read (a server the service cannot reach, say) leaves the rest of the page
      replace(section, h('h2', null, 'Databases'), h('p', { class: 'section-error', id: 'databases-unavailable',
        role: 'status' }, `The databases could not be read: ${e.message} (${e.code}).`));
    }
  }
  return section;
}

function databaseForm(base, after) {
  const name = h('input', { id: 'db-name', 'data-field': 'name', autocomplete: 'off' });
  const owner = h('input', { id: 'db-owner', 'data-field': 'owner', autocomplete: 'off' });
  const form = h('form', { class: 'card', id: 'create-database' }, h('h3', null, 'Create a database'),
    h('label', { for: 'db-name' }, 'Name'), name, h('label', { for: 'db-owner' }, 'Owner (its user)'), owner,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create database')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      await post(base + '/databases', { name: name.value.trim(), owner: owner.value.trim() });
      await after();
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

// The console's shell: the token, who is signed in, the sections and the hash router.
import { ApiError, get, session } from './api.js';
import { append, h } from './dom.js';
import { jobPage, jobsPage } from './jobs.js';
import { wizardPage } from './wizard.js';
import { spacesPage } from './spaces.js';
import { remediationPage, remediationsPage } from './remediations.js';
import { catalogPage } from './catalog.js';

const view = document.getElementById('view');
const notice = document.getElementById('notice');
let me = null;
let stops = [];

/** What each page gets: the principal, a policy check and a place to register what to stop on leaving. */
const context = {
  me: () => me,
  /** Buttons follow the token's policies: the API grants a policy through a role of the same name or admin. */
  can: policy => !!me && (me.roles.includes('admin') || me.roles.includes(policy)),
  onLeave: stop => stops.push(stop),
  go: hash => { location.hash = hash; },
  refresh: () => render(),
};

export function showError(error, form) {
  if (form) clearFieldErrors(form);
  const message = error instanceof ApiError ? error.message : String(error?.message || error);
  const unplaced = [];
  if (error instanceof ApiError && form) {
    for (const field of error.fields) {
      const input = form.querySelector(`[data-field="${CSS.escape(field.field)}"]`);
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        const note = h('div', { class: 'field-error', 'data-error-for': field.field }, field.message);
        input.insertAdjacentElement('afterend', note);
      } else {
        unplaced.push(field);
      }
    }
  }
  notice.className = '';
  notice.replaceChildren();
  append(notice, [h('strong', null, message),
    error instanceof ApiError ? h('span', { class: 'muted' }, ` (${error.code})`) : null,
    unplaced.length ? h('ul', null, unplaced.map(f => h('li', null, `${f.field}: ${f.message}`))) : null]);
  if (error instanceof ApiError && error.status === 401) {
    session.clear();
    me = null;
    render();
  }
}

export function showInfo(text) {
  notice.className = 'info';
  notice.replaceChildren(text);
}

export function clearNotice() {
  notice.className = '';
  notice.replaceChildren();
}

export function clearFieldErrors(form) {
  form.querySelectorAll('.field-error').forEach(e => e.remove());
  form.querySelectorAll('[aria-invalid]').forEach(e => e.removeAttribute('aria-invalid'));
}

function signIn() {
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true,
    'data-field': 'token' });
  const form = h('form', { class: 'card', id: 'sign-in' },
    h('h1', null, 'Sign in with a token'),
    h('p', { class: 'muted' }, 'Paste a bearer token made with ', h('code', null, 'zop tokens create'),
      '. It is kept in this tab only, until you sign out or close it.'),
    h('label', { for: 'token' }, 'Token'), input,
    h('div', { class: 'actions' }, h('button', { class: 'primary', type: 'submit' }, 'Sign in')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    session.save(input.value.trim());
    try {
      me = await get('/me');
      clearNotice();
      if (!location.hash || location.hash === '#/') location.hash = '#/jobs';
      render();
    } catch (e) {
      session.clear();
      showError(e, form);
    }
  });
  return form;
}

const routes = [
  [/^#\/spaces$/, () => spacesPage(context)],
  [/^#\/new$/, params => wizardPage(context, params)],
  [/^#\/jobs$/, params => jobsPage(context, params)],
  [/^#\/jobs\/([^/]+)$/, (params, id) => jobPage(context, id)],
  [/^#\/remediations$/, () => remediationsPage(context)],
  [/^#\/remediations\/([^/]+)$/, (params, id) => remediationPage(context, id)],
  [/^#\/catalog$/, () => catalogPage(context)],
];

async function render() {
  stops.forEach(stop => stop());
  stops = [];
  const nav = document.getElementById('nav');
  const who = document.getElementById('who');
  if (!session.token()) {
    nav.hidden = true;
    who.replaceChildren();
    view.replaceChildren(signIn());
    return;
  }
  if (!me) {
    try {
      me = await get('/me');
    } catch (e) {
      session.clear();
      view.replaceChildren(signIn());
      showError(e);
      return;
    }
  }
  nav.hidden = false;
  who.replaceChildren(h('span', { id: 'actor' }, `${me.actor} · ${me.orgId}`),
    h('button', { type: 'button', id: 'sign-out', onclick: () => { session.clear(); me = null; clearNotice(); render(); } },
      'Sign out'));
  const [path, search] = (location.hash || '#/jobs').split('?');
  const params = new URLSearchParams(search || '');
  for (const link of nav.querySelectorAll('a')) {
    if (path.startsWith(link.getAttribute('href'))) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const match = routes.map(([pattern, page]) => [path.match(pattern), page]).find(([m]) => m);
  if (!match) {
    location.hash = '#/jobs';
    return;
  }
  const [groups, page] = match;
  view.dataset.route = '';
  view.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const content = await page(params, ...groups.slice(1).map(decodeURIComponent));
    view.replaceChildren();
    append(view, content);
    // which page is drawn: what tests (and scripts) wait on after navigating
    view.dataset.route = location.hash;
  } catch (e) {
    view.replaceChildren(h('p', { class: 'muted' }, 'This page could not be shown.'));
    view.dataset.route = location.hash;
    showError(e);
  }
}

window.addEventListener('hashchange', () => { clearNotice(); render(); });
render();

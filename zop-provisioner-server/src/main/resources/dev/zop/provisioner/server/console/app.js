// The console's shell: the token, who is signed in, the sections and the hash router.
import { get, session } from './api.js';
import { append, h } from './dom.js';
import { SIGNED_OUT, clearNotice, showError } from './notice.js';
import { jobPage, jobsPage } from './jobs.js';
import { wizardPage } from './wizard.js';
import { spacesPage } from './spaces.js';
import { remediationPage, remediationsPage } from './remediations.js';
import { catalogPage } from './catalog.js';
import { guardrailsPage } from './guardrails.js';
import { homePage } from './home.js';
import { accountsPage, tokensPage } from './admin.js';
import { simulated, simulationPage } from './simulation.js';
import { changePage } from './change.js';

const view = document.getElementById('view');
let me = null;
let stops = [];
let simulation = null; // whether the service runs a simulated cloud, asked once a sign-in

/** What each page gets: the principal, a policy check and a place to register what to stop on leaving. */
const context = {
  me: () => me,
  /** Buttons follow the token's policies: the API grants a policy through a role of the same name or admin. */
  can: policy => !!me && (me.roles.includes('admin') || me.roles.includes(policy)),
  onLeave: stop => stops.push(stop),
  go: hash => { location.hash = hash; },
  refresh: () => render(),
};

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
      render();
    } catch (e) {
      session.clear();
      showError(e, form);
    }
  });
  return form;
}

const routes = [
  [/^#?\/?$/, () => homePage(context)],
  [/^#\/spaces$/, () => spacesPage(context)],
  [/^#\/accounts$/, () => accountsPage(context)],
  [/^#\/tokens$/, () => tokensPage(context)],
  [/^#\/simulation$/, () => simulationPage(context)],
  [/^#\/new$/, params => wizardPage(context, params)],
  [/^#\/jobs$/, params => jobsPage(context, params)],
  [/^#\/jobs\/([^/]+)$/, (params, id) => jobPage(context, id)],
  [/^#\/jobs\/([^/]+)\/change$/, (params, id) => changePage(context, id)],
  [/^#\/remediations$/, () => remediationsPage(context)],
  [/^#\/remediations\/([^/]+)$/, (params, id) => remediationPage(context, id)],
  [/^#\/catalog$/, () => catalogPage(context)],
  [/^#\/guardrails$/, () => guardrailsPage(context)],
];

let rendering = 0; // the newest render: one that finishes after a later one started is dropped

async function render() {
  const mine = ++rendering;
  stops.forEach(stop => stop());
  stops = [];
  const nav = document.getElementById('nav');
  const who = document.getElementById('who');
  if (!session.token()) {
    nav.hidden = true;
    who.replaceChildren();
    view.replaceChildren(signIn());
    // the one thing to do here: the keyboard starts in the token field
    document.getElementById('token').focus();
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
    h('button', { type: 'button', id: 'sign-out', onclick: () => { session.clear(); me = null; simulation = null;
      clearNotice(); render(); } }, 'Sign out'));
  if (simulation === null) simulation = me.roles.includes('admin') && await simulated();
  nav.querySelector('[data-admin]').hidden = !me.roles.includes('admin');
  nav.querySelector('[data-simulation]').hidden = !simulation;
  const [path, search] = (location.hash || '#/').split('?');
  const params = new URLSearchParams(search || '');
  for (const link of nav.querySelectorAll('a')) {
    const href = link.getAttribute('href');
    const here = link.hasAttribute('data-exact') ? (path === href || path === '' || path === '#')
      : path === href || path.startsWith(href + '/');
    if (here) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const match = routes.map(([pattern, page]) => [path.match(pattern), page]).find(([m]) => m);
  if (!match) {
    location.hash = '#/';
    return;
  }
  const [groups, page] = match;
  view.dataset.route = '';
  view.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const content = await page(params, ...groups.slice(1).map(decodeURIComponent));
    if (mine !== rendering) return; // the user went elsewhere while this page loaded
    view.replaceChildren();
    append(view, content);
    // which page is drawn: what tests (and scripts) wait on after navigating
    view.dataset.route = location.hash;
    keepFocus();
  } catch (e) {
    if (mine !== rendering) return;
    view.replaceChildren(h('p', { class: 'muted' }, 'This page could not be shown.'));
    view.dataset.route = location.hash;
    showError(e);
  }
}

/**
 * Where the element that had the focus is gone (a submitted form, a page redrawn), the focus goes to the new
 * page rather than falling to <body>, so that the keyboard and a screen reader carry on from there.
 */
function keepFocus() {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) view.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => { clearNotice(); render(); });
window.addEventListener(SIGNED_OUT, () => { me = null; render(); });
render();

// The home page: what needs a person (failed jobs waiting on a fix or a retry, workflows waiting for approval), what is running,
// and what each space costs a month.
import { get, list } from './api.js';
import { badge, duration, h, money, table, when } from './dom.js';
import { pending } from './remediations.js';
import { allSpaces } from './spaces.js';
import { spaceLink } from './jobs.js';

const ACTIVE = 'pending,running,awaiting_user,deleting';

export async function homePage(ctx) {
  const [failed, running, remediations, spaces] = await Promise.all([
    list('/provisioning-jobs?status=failed&limit=100'), list(`/provisioning-jobs?status=${ACTIVE}&limit=100`),
    list('/remediation-jobs?limit=100'), allSpaces()]);
  const names = Object.fromEntries(spaces.map(s => [s.id, s.name]));
  // every failed job waits on a person: a user_action one on a fix, a system one (or a transient one out of
  // retries) on a retry or a report
  const fixes = failed.items;
  const approvals = remediations.items.filter(job => pending(job));
  // every space's cost in one request: an organisation of many spaces is not asked once per space
  const byId = Object.fromEntries(spaces.map(s => [s.id, s]));
  const costs = (await get('/space-costs')).filter(cost => byId[cost.spaceId] && cost.jobs.length)
    .map(cost => [byId[cost.spaceId], cost]);
  const total = costs.reduce((sum, [, cost]) => sum + Number(cost.monthlyTotal), 0);
  const complete = costs.every(([, cost]) => cost.complete);

  const count = (id, n, label, href) => h('a', { class: 'count card', id, href, 'data-count': n },
    h('strong', null, String(n)), h('span', null, label));
  const jobLink = job => h('a', { href: `#/jobs/${encodeURIComponent(job.id)}` }, job.name);
  return [
    h('h1', null, 'Overview'),
    h('div', { class: 'counts' },
      count('count-action', fixes.length + approvals.length, 'need your action', '#needs-action'),
      count('count-running', running.items.length, 'running', `#/jobs?status=${ACTIVE}`),
      h('div', { class: 'count card', id: 'count-cost', 'data-amount': total.toFixed(2) },
        h('strong', null, money(total)), h('span', null, complete ? 'a month, at list prices' : 'a month at least'))),

    h('h2', null, 'Needs your action'),
    fixes.length || approvals.length ? table([['What'], ['Why'], ['Since']], [
      ...fixes.map(job => h('tr', { 'data-job': job.name, 'data-action': 'fix' }, h('td', null, jobLink(job),
        h('div', { class: 'muted' }, spaceLink(job.spaceId, names))),
      h('td', null, badge(job.lastFailure?.category || 'failed'), ' ', job.lastFailure?.message || 'failed',
        h('div', { class: 'muted' }, job.lastFailure?.fixHint || (job.lastFailure?.category === 'user_action' ? ''
          : 'Retry it from its page; if it fails again, report it with the job id.'))),
      h('td', null, when(job.finishedAt || job.updatedAt)))),
      ...approvals.map(job => h('tr', { 'data-remediation': job.id, 'data-action': 'approve' },
        h('td', null, h('a', { href: `#/remediations/${encodeURIComponent(job.id)}` }, job.templateId)),
        h('td', null, `Waiting for approval: ${pending(job).name} on ${job.subjectId}`), h('td', null, when(job.createdAt)))),
    ], { id: 'needs-action' }) : h('p', { class: 'muted', id: 'needs-action' }, 'Nothing is waiting for you.'),

    h('h2', null, 'Running'),
    running.items.length ? table([['Job'], ['Status'], ['Space', 'optional'], ['Running for']], running.items.map(job =>
      h('tr', { 'data-job': job.name }, h('td', null, jobLink(job), h('div', { class: 'muted' }, job.kind.replace(/_/g, ' '))),
        h('td', null, badge(job.status)), h('td', { class: 'optional' }, spaceLink(job.spaceId, names)),
        h('td', null, duration(job.createdAt, null)))), { id: 'running' })
      : h('p', { class: 'muted', id: 'running' }, 'Nothing is running.'),

    h('h2', null, 'Monthly cost by space'),
    costs.length ? table([['Space'], ['Jobs'], ['A month']], costs.map(([space, cost]) =>
      h('tr', { 'data-space': space.name }, h('td', null, spaceLink(space.id, names)), h('td', null, String(cost.jobs.length)),
        h('td', { class: 'num' }, money(cost.monthlyTotal), cost.complete ? null : h('span', { class: 'muted' }, ' at least')))),
    { id: 'space-costs' }) : h('p', { class: 'muted', id: 'space-costs' }, 'No space holds a succeeded job yet.'),
    h('p', { class: 'muted' }, 'Each succeeded job priced as its plan was, at the size it started at, from the providers\' '
      + 'list prices: an estimate, not a bill.'),
  ];
}

// Remediation workflows: pending approvals first, a workflow's steps with approve/reject and a reason, its audit
// timeline, and the form that starts one for a recommendation.
import { get, list, post } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { badge, confirmDialog, h, replace, kv, table, when } from './dom.js';
import { failurePanel } from './jobs.js';

const path = id => `/remediation-jobs/${encodeURIComponent(id)}`;
export const pending = job => job.status === 'awaiting_user'
  ? (job.steps || []).find(s => s.kind === 'approval' && s.status === 'waiting') : null;

export async function remediationsPage(ctx) {
  const page = await list('/remediation-jobs?limit=100');
  // what waits for a person comes first, then the newest
  const jobs = [...page.items].sort((a, b) => (pending(b) ? 1 : 0) - (pending(a) ? 1 : 0)
    || String(b.createdAt).localeCompare(String(a.createdAt)));
  const rows = jobs.map(job => h('tr', { 'data-remediation': job.id, 'data-pending': pending(job) ? 'true' : 'false' },
    h('td', null, h('a', { href: `#/remediations/${encodeURIComponent(job.id)}` }, job.templateId),
      h('div', { class: 'mono muted' }, job.id)),
    h('td', null, job.recommendationId), h('td', { class: 'mono optional' }, job.subjectId),
    h('td', null, badge(job.status), pending(job) ? h('div', null, h('strong', null, 'needs approval')) : null),
    h('td', { class: 'optional' }, when(job.createdAt))));
  return [
    h('h1', null, 'Remediations'),
    rows.length ? table([['Workflow'], ['Recommendation'], ['Subject', 'optional'], ['Status'], ['Started', 'optional']],
      rows, { id: 'remediations' }) : h('p', { class: 'muted' }, 'No remediation workflows yet.'),
    ctx.can('provisioning:create') ? startForm(ctx, await get('/recommendations')) : null,
  ];
}

function startForm(ctx, recommendations) {
  // a recommendation picked from the store; its resource is the subject unless another is named
  const recommendation = h('select', { id: 'rec-id', 'data-field': 'recommendationID' },
    h('option', { value: '' }, recommendations.length ? 'Choose a recommendation' : 'No recommendation is recorded'),
    recommendations.map(r => h('option', { value: r.id, 'data-subject': r.resourceID ?? r.resourceId },
      `${r.action} ${r.resourceType} ${r.resourceID ?? r.resourceId} (${r.provider}, ${r.region}) · ${r.id}`)));
  const subjectType = h('select', { id: 'subject-type', 'data-field': 'subjectType' },
    ['resource'].map(s => h('option', { value: s }, s)));
  const subject = h('input', { id: 'subject-id', 'data-field': 'subjectID', autocomplete: 'off',
    'aria-describedby': 'subject-id-help' });
  recommendation.addEventListener('change', () => {
    subject.value = recommendation.selectedOptions[0]?.dataset.subject || '';
  });
  const form = h('form', { class: 'card', id: 'start-remediation' }, h('h2', null, 'Remediate a recommendation'),
    h('label', { for: 'rec-id' }, 'Recommendation'), recommendation,
    h('label', { for: 'subject-type' }, 'Subject type'), subjectType,
    h('label', { for: 'subject-id' }, 'Subject (the resource id)'), subject,
    h('p', { class: 'help', id: 'subject-id-help' }, 'The recommendation\'s own resource, filled in when you pick it.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Start remediation')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      const job = await post('/remediation-jobs', { recommendationID: recommendation.value.trim() || null,
        subjectType: subjectType.value, subjectID: subject.value.trim() || null });
      ctx.go(`#/remediations/${encodeURIComponent(job.id)}`);
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

export async function remediationPage(ctx, id) {
  const root = h('div', { id: 'remediation' });
  // A decision is queued for the workflow's worker: until it takes it, the job still reads awaiting_user and the step
  // waiting. The page keeps following such a job, and does not offer the same decision twice.
  const decided = new Set();
  let awaitingDecided = false;
  async function draw() {
    const [job, audit] = await Promise.all([get(path(id)), get(path(id) + '/audit')]);
    const waiting = pending(job);
    awaitingDecided = Boolean(waiting && decided.has(waiting.id));
    replace(root,
      h('h1', null, job.templateId, ' ', h('span', { id: 'remediation-status' }, badge(job.status))),
      h('section', null, kv([['Recommendation', job.recommendationId], ['Subject', `${job.subjectType} ${job.subjectId}`],
        ['Template', `${job.templateId} v${job.templateVersion}`], ['Irreversible', job.irreversible ? 'yes' : 'no'],
        ['Started by', job.createdBy], ['Started', when(job.createdAt)]])),
      job.lastFailure && job.status === 'failed' ? failurePanel(job.lastFailure, {
        userAction: again(ctx, job, 'Remediate again after fixing'),
        transient: again(ctx, job, 'Remediate again'),
        transientNote: 'This is usually throttling; a new workflow for the same recommendation runs every step again.',
      }) : null,
      waiting && !awaitingDecided ? decision(ctx, job, waiting, () => { decided.add(waiting.id); return draw(); }) : null,
      awaitingDecided ? h('section', { id: 'approval' }, h('h2', null, `Decision recorded: ${waiting.name}`),
        h('p', { class: 'muted' }, 'The workflow picks it up in a moment.')) : null,
      h('h2', null, 'Steps'),
      h('ol', { class: 'timeline', id: 'remediation-steps' }, (job.steps || []).map(s =>
        h('li', { class: s.status, 'data-step': s.name, 'data-status': s.status }, h('strong', null, s.name),
          h('span', { class: 'muted' }, ` (${s.kind.replace(/_/g, ' ')}) `), badge(s.status),
          s.failure ? h('div', { class: 'field-error' }, s.failure.message) : null))),
      h('h2', null, 'Audit'),
      audit.length ? table([['When'], ['Step'], ['Event'], ['Actor'], ['Reason']], audit.map(a =>
        h('tr', { 'data-audit': a.eventType }, h('td', null, when(a.createdAt)), h('td', null, a.stepName),
          h('td', null, badge(a.eventType)), h('td', null, a.actor), h('td', null, a.reason || ''))), { id: 'audit' })
        : h('p', { class: 'muted' }, 'Nothing recorded yet.'),
      ['pending', 'running', 'awaiting_user'].includes(job.status) && ctx.can('provisioning:update')
        ? h('div', { class: 'actions' }, h('button', { type: 'button', class: 'danger', id: 'cancel', onclick: async () => {
          if (!await confirmDialog('Cancel this workflow?', 'Steps not yet run are skipped.', 'Cancel workflow')) return;
          try {
            await post(path(id) + '/cancel');
            await draw();
          } catch (e) {
            showError(e);
          }
        } }, 'Cancel workflow')) : null);
  }
  await draw();
  // the workflow moves on by itself after a decision: follow it until nothing is left to run
  let following = false; // one redraw at a time, so a slow one cannot land after a newer one
  const timer = setInterval(() => {
    if (following) return;
    const status = root.querySelector('#remediation-status [data-status]')?.dataset.status;
    if (['pending', 'running'].includes(status) || (status === 'awaiting_user' && awaitingDecided)) {
      following = true;
      draw().catch(showError).finally(() => { following = false; });
    }
  }, 1000);
  ctx.onLeave(() => clearInterval(timer));
  return root;
}

/** Starts a new workflow for the same recommendation and subject, as the product's wizard does. */
function again(ctx, job, label) {
  if (!ctx.can('provisioning:create')) return null;
  return h('button', { type: 'button', class: 'primary', id: 'remediate-again', onclick: async event => {
    event.target.disabled = true;
    try {
      const next = await post('/remediation-jobs', { recommendationID: job.recommendationId,
        subjectType: job.subjectType, subjectID: job.subjectId });
      ctx.go(`#/remediations/${encodeURIComponent(next.id)}`);
    } catch (e) {
      event.target.disabled = false;
      showError(e);
    }
  } }, label);
}

function decision(ctx, job, step, after) {
  if (!ctx.can('remediation:approve') || !ctx.can('provisioning:update')) {
    return h('section', { id: 'approval' }, h('h2', null, `Waiting for approval: ${step.name}`),
      h('p', { class: 'muted' }, 'An approver decides this step; your token may not.'));
  }
  const reason = h('textarea', { id: 'decision-reason', 'data-field': 'reason' });
  const decide = verb => async event => {
    event.target.disabled = true;
    try {
      await post(`${path(job.id)}/steps-by-id/${encodeURIComponent(step.id)}/${verb}`,
        { reason: reason.value.trim() || null });
      showInfo(verb === 'approve' ? `${step.name} approved.` : `${step.name} rejected; the workflow is cancelled.`);
      await after();
    } catch (e) {
      event.target.disabled = false;
      showError(e);
    }
  };
  return h('section', { id: 'approval' }, h('h2', null, `Waiting for your approval: ${step.name}`),
    job.irreversible ? h('p', null, h('strong', null, 'This workflow cannot be undone once it runs.')) : null,
    h('label', { for: 'decision-reason' }, 'Reason (recorded in the audit)'), reason,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', id: 'approve', onclick: decide('approve') }, 'Approve'),
      h('button', { type: 'button', class: 'danger', id: 'reject', onclick: decide('reject') }, 'Reject')));
}

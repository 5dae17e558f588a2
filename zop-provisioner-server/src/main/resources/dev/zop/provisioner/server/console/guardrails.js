// Guardrails: the jobs they hold for approval (approve or reject with a reason), the organisation's guardrails,
// and a new one written as its REST body, tried on recent changes and the jobs there are before it is saved.
import { get, list, post } from './api.js';
import { clearFieldErrors, showError, showInfo } from './notice.js';
import { badge, h, replace, table, when } from './dom.js';

const EXAMPLE = JSON.stringify({ name: 'node-cap', level: 'approval',
  rule: { type: 'max_count', max: 10 }, scope: { kinds: ['kubernetes'] } }, null, 2);

/** Each verdict on a plan, as the plan page and a trial show it. */
export function verdictsList(verdicts, id) {
  return h('ul', { id, class: 'verdicts' }, verdicts.map(v => h('li', { 'data-guardrail': v.name,
    'data-outcome': v.outcome }, h('strong', null, `${v.name} v${v.version}: `), badge(v.outcome),
  v.outcome === 'passed' ? null : [' ', v.field ? h('span', { class: 'mono' }, v.field) : null,
    h('div', null, v.message), v.fixHint ? h('div', { class: 'muted' }, `Fix: ${v.fixHint}`) : null,
    v.exemption ? h('div', { class: 'muted' }, `Exempted by ${v.exemption}`) : null])));
}

/** Whether the token may decide held jobs: an admin, or a holder of guardrail:approve or a grant under it. */
const decides = ctx => !!ctx.me() && ctx.me().roles.some(r => r === 'admin' || r.startsWith('guardrail:approve'));

export async function guardrailsPage(ctx) {
  const [held, guardrails] = await Promise.all([
    list('/provisioning-jobs?status=awaiting_approval&limit=100'), get('/guardrails')]);
  return [
    h('h1', null, 'Guardrails'),
    h('h2', null, 'Waiting for approval'),
    held.items.length ? table([['Job'], ['Kind'], ['Asked by'], ['Asked', 'optional'], ['Decision']],
      held.items.map(job => approvalRow(ctx, job)), { id: 'approvals' })
      : h('p', { class: 'muted', id: 'approvals' }, 'No job waits for approval.'),
    h('h2', null, 'In force'),
    guardrails.length ? table([['Name'], ['Level'], ['Rule'], ['Scope', 'optional'], ['Changed', 'optional']],
      guardrails.map(g => h('tr', { 'data-guardrail': g.name },
        h('td', null, h('strong', null, g.name), ` v${g.version}`, g.enabled ? null : h('div', { class: 'muted' },
          'disabled'), h('div', { class: 'mono muted' }, g.id)),
        h('td', null, badge(g.level)), h('td', { class: 'mono' }, ruleText(g.rule)),
        h('td', { class: 'optional' }, scopeText(g.scope)),
        h('td', { class: 'optional' }, g.createdBy, ' ', when(g.createdAt)))), { id: 'guardrails' })
      : h('p', { class: 'muted', id: 'guardrails' }, 'No guardrail yet: any plan a policy allows may be submitted.'),
    ctx.can('guardrail:manage') ? newGuardrail(ctx) : null,
  ];
}

function ruleText(rule) {
  const { type, ...fields } = rule;
  const shown = Object.entries(fields).filter(([, v]) => v != null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return `${type}${shown.length ? ' ' + shown.join(' ') : ''}`;
}

function scopeText(scope) {
  const parts = [['spaces', scope.spaces], ['providers', scope.providers], ['kinds', scope.kinds]]
    .filter(([, v]) => v && v.length).map(([k, v]) => `${k}: ${v.join(', ')}`);
  return parts.length ? parts.join('; ') : 'everywhere';
}

function approvalRow(ctx, job) {
  const reasonId = `reason-${job.id}`;
  const reason = h('input', { id: reasonId, 'data-field': 'reason', autocomplete: 'off' });
  const decide = verb => async () => {
    try {
      await post(`/provisioning-jobs/${encodeURIComponent(job.id)}/${verb}`, { reason: reason.value.trim() || null });
      showInfo(`${job.name}: ${verb === 'approve' ? 'approved' : 'rejected'}`);
      ctx.refresh();
    } catch (e) {
      showError(e);
    }
  };
  return h('tr', { 'data-job': job.id },
    h('td', null, h('a', { href: `#/jobs/${encodeURIComponent(job.id)}` }, job.name),
      h('div', { class: 'mono muted' }, job.id)),
    h('td', null, job.kind.replace(/_/g, ' ')), h('td', null, job.createdBy),
    h('td', { class: 'optional' }, when(job.createdAt)),
    decides(ctx) ? h('td', null, h('label', { for: reasonId }, `Reason for ${job.name}`), reason,
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'primary', 'data-approve': job.id, onclick: decide('approve') }, 'Approve'),
        h('button', { type: 'button', class: 'danger', 'data-reject': job.id, onclick: decide('reject') }, 'Reject')))
      : h('td', { class: 'muted' }, 'Someone holding the guardrail\'s approver grant decides.'));
}

function newGuardrail(ctx) {
  const body = h('textarea', { id: 'guardrail-body', 'data-field': 'body', rows: 10, spellcheck: 'false',
    'aria-describedby': 'guardrail-body-help' }, EXAMPLE);
  const results = h('section', { id: 'trial', 'aria-live': 'polite' });
  const form = h('form', { class: 'card', id: 'new-guardrail' }, h('h2', null, 'New guardrail'),
    h('label', { for: 'guardrail-body' }, 'The guardrail, as the REST body'), body,
    h('p', { class: 'help', id: 'guardrail-body-help' }, 'name, level (advisory, approval or deny), rule with its type',
      ' and fields, and optionally scope and approverGrant. Try it first: nothing is saved until you save it.'),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'try-guardrail', onclick: async () => {
        clearFieldErrors(form);
        try {
          const trial = await post('/guardrails/try?lastPlans=100', parsed(body));
          replace(results, trialView(trial));
        } catch (e) {
          showError(e, form);
        }
      } }, 'Try it'),
      h('button', { type: 'submit', class: 'primary', id: 'save-guardrail' }, 'Save guardrail')),
    results);
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    try {
      const made = await post('/guardrails', parsed(body));
      showInfo(`Guardrail ${made.name} saved at version ${made.version}`);
      ctx.refresh();
    } catch (e) {
      showError(e, form);
    }
  });
  return form;
}

/** The textarea's JSON, or an error that says where it is not JSON. */
function parsed(body) {
  try {
    return JSON.parse(body.value);
  } catch (e) {
    throw new Error(`The guardrail is not JSON: ${e.message}`);
  }
}

function trialView(trial) {
  const rows = findings => findings.map(f => h('tr', { 'data-job': f.jobId || '', 'data-outcome': f.verdict.outcome },
    h('td', { class: 'mono' }, f.jobId || '(refused, no job)'), h('td', null, f.action),
    h('td', null, badge(f.verdict.outcome)), h('td', null, f.verdict.message), h('td', { class: 'optional' }, when(f.at))));
  const headers = [['Job'], ['Change'], ['Would be'], ['Why'], ['When', 'optional']];
  return [
    h('h3', null, 'Recent changes'),
    h('p', { id: 'trial-plans-summary' }, `${trial.plans.length} of ${trial.plansChecked} would not pass.`),
    trial.plans.length ? table(headers, rows(trial.plans), { id: 'trial-plans' }) : null,
    h('h3', null, 'Jobs as they are today'),
    h('p', { id: 'trial-jobs-summary' }, `${trial.jobs.length} of ${trial.jobsChecked} break it.`),
    trial.jobs.length ? table(headers, rows(trial.jobs), { id: 'trial-jobs' }) : null,
  ];
}

// Changing what a job made: its form filled with the job's config, then the revision's plan — each field's change
// and how the cloud carries it out (in place, or made anew), the cost before and after, the steps and their
// permissions — and only then the change itself.
import { get, post } from './api.js';
import { clearFieldErrorOnChange, clearFieldErrors, clearNotice, showError } from './notice.js';
import { changesTable, h, money, replace, table } from './dom.js';
import { allSpaces } from './spaces.js';
import { kindForm, kinds } from './wizard.js';

const jobPath = id => `/provisioning-jobs/${encodeURIComponent(id)}`;

export async function changePage(ctx, id) {
  const [job, spaces] = await Promise.all([get(jobPath(id)), allSpaces()]);
  const space = spaces.find(s => s.id === job.spaceId);
  const back = h('p', null, h('a', { href: `#/jobs/${encodeURIComponent(id)}` }, `Back to ${job.name}`));
  if (!space || job.status !== 'succeeded' || !kinds().includes(job.kind) || !ctx.can('provisioning:update')) {
    return [h('h1', null, `Change ${job.name}`), h('p', null, job.status !== 'succeeded'
      ? `Only a job that succeeded can be changed; this one is ${job.status.replace(/_/g, ' ')}.`
      : 'This job cannot be changed from here.'), back];
  }
  const fields = await kindForm(job.kind, space, job.config);
  const planHolder = h('section', { id: 'revision-plan', hidden: true, 'aria-labelledby': 'revision-title' });
  const form = h('form', { class: 'card', id: 'change', novalidate: true, 'aria-label': `Change ${job.name}` },
    ...[fields.el].flat(),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'review-change' }, 'Review the change')));
  clearFieldErrorOnChange(form);
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clearFieldErrors(form);
    const config = fields.read();
    try {
      const plan = await post(jobPath(id) + '/revisions/plan', { kind: job.kind, config });
      clearNotice();
      replace(planHolder, ...revisionView(ctx, job, plan, config, form, planHolder));
      planHolder.hidden = false;
      form.hidden = true;
      planHolder.querySelector('h2').focus();
    } catch (e) {
      showError(e, form);
      form.querySelectorAll('[aria-invalid="true"]').forEach(f => { const d = f.closest('details'); if (d) d.open = true; });
    }
  });
  return [h('h1', null, `Change ${job.name}`), back,
    h('p', { class: 'muted' }, 'The form holds what the job has now. Nothing changes in the cloud until you apply the'
      + ' change after reading its plan.'), form, planHolder];
}

function revisionView(ctx, job, plan, config, form, holder) {
  // the service leaves the difference out (null) where a line without a price changed: it is not known
  const delta = plan.monthlyDelta == null ? null : Number(plan.monthlyDelta);
  const sign = delta == null ? '' : delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const total = cost => cost.complete ? money(cost.monthlyTotal) : `at least ${money(cost.monthlyTotal)}`;
  const apply = h('button', { type: 'button', class: 'primary', id: 'apply-change', disabled: !plan.changes.length,
    onclick: async event => {
      event.target.disabled = true;
      try {
        await post(jobPath(job.id) + '/revisions', { kind: job.kind, config });
        ctx.go(`#/jobs/${encodeURIComponent(job.id)}`);
      } catch (e) {
        event.target.disabled = false;
        showError(e);
      }
    } }, plan.changes.length ? `Apply revision ${plan.revision}` : 'Nothing to apply');
  return [
    h('h2', { tabindex: '-1', id: 'revision-title' }, 'What the change does'),
    plan.changes.length ? changesTable(plan.changes, ['Now', 'After'], 'revision-changes')
      : h('p', { id: 'revision-changes' }, 'Nothing changes: the form holds what the job has now.'),
    plan.warnings.length ? h('ul', { id: 'revision-warnings' },
      plan.warnings.map(w => h('li', { 'data-warning': w.code }, w.message))) : null,
    h('div', { class: 'cost-cards', id: 'revision-cost' },
      h('div', { class: 'cost' }, h('div', { class: 'muted' }, 'A month now'), h('strong', { id: 'cost-before' }, total(plan.before))),
      h('div', { class: 'cost' }, h('div', { class: 'muted' }, 'A month after'), h('strong', { id: 'cost-after' }, total(plan.after))),
      h('div', { class: 'cost' }, h('div', { class: 'muted' }, 'Difference'),
        h('strong', { id: 'cost-delta' }, delta == null ? 'unknown' : `${sign}${money(Math.abs(delta))}`),
        delta == null ? h('div', { class: 'muted' }, 'a price the table does not hold changes') : null)),
    unpricedLines(plan.after),
    plan.steps.length ? [h('h3', null, 'Steps, and the permissions each needs'),
      h('ol', { id: 'revision-steps' }, plan.steps.map(s => h('li', { 'data-step': s.name }, h('strong', null, s.name),
        s.permissions.length ? h('div', { class: 'mono muted' }, s.permissions.join(', ')) : null)))] : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'edit-change', onclick: () => { holder.hidden = true; form.hidden = false; } },
        'Back to the form'), apply),
  ];
}

/** The lines of a cost without a price, each with why, so "at least" and "unknown" say what they leave out. */
function unpricedLines(cost) {
  const unknown = cost.costs.filter(c => c.monthly == null);
  return unknown.length ? h('ul', { id: 'unpriced-lines', class: 'muted' },
    unknown.map(c => h('li', null, `${c.name}: ${c.note}`))) : null;
}

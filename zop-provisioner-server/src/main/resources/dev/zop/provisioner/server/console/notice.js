// The banner over every page and the messages beside a form's fields: what pages import to say what happened,
// so that no page imports the shell (app.js) that imports them.
import { ApiError, session } from './api.js';
import { append, h } from './dom.js';

const notice = document.getElementById('notice');

/** Sent on window when an answer says the token is no longer good; the shell shows the sign-in. */
export const SIGNED_OUT = 'zop:signed-out';

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
  const placed = error instanceof ApiError && form ? error.fields.length - unplaced.length : 0;
  if (placed > 0 && unplaced.length === 0) {
    // every message sits beside its field: the banner only says where to look
    append(notice, h('strong', null, placed === 1 ? 'One field needs your attention; it is marked below.'
      : `${placed} fields need your attention; they are marked below.`));
  } else {
    append(notice, [h('strong', null, message),
      error instanceof ApiError && error.status !== 400 ? h('span', { class: 'muted' }, ` (${error.code})`) : null,
      unplaced.length ? h('ul', null, unplaced.map(f => h('li', null, `${f.field}: ${f.message}`))) : null]);
  }
  if (error instanceof ApiError && error.status === 401) {
    // the token is no longer good: the shell signs out (it listens for this)
    session.clear();
    window.dispatchEvent(new CustomEvent(SIGNED_OUT));
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

/** Once a field is changed, its message is out of date: it goes, the others stay until the next answer. */
export function clearFieldErrorOnChange(form) {
  const clear = event => {
    const path = event.target.dataset?.field || event.target.closest('[data-field]')?.dataset.field;
    if (!path) return;
    form.querySelectorAll(`[data-error-for="${CSS.escape(path)}"]`).forEach(e => e.remove());
    form.querySelectorAll(`[data-field="${CSS.escape(path)}"][aria-invalid]`).forEach(e => e.removeAttribute('aria-invalid'));
  };
  form.addEventListener('input', clear);
  form.addEventListener('change', clear);
}

export function clearFieldErrors(form) {
  form.querySelectorAll('.field-error').forEach(e => e.remove());
  form.querySelectorAll('[aria-invalid]').forEach(e => e.removeAttribute('aria-invalid'));
}

// Elements built from data: text is always set as text, never parsed as markup, so nothing the API returns runs.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'value' && (tag === 'input' || tag === 'textarea' || tag === 'select')) el.value = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replaces an element's content; unset parts (null, false) are left out, as in {@link h}. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function badge(status) {
  return h('span', { class: `badge ${status}`, 'data-status': status }, String(status).replace(/_/g, ' '));
}

/** An instant as how long ago it was ("3 min ago"), the exact time on hover and for assistive technology. */
export function when(instant) {
  if (!instant) return '';
  const d = new Date(instant);
  return h('time', { datetime: instant, title: d.toLocaleString() }, ago(d));
}

export function ago(date, now = Date.now()) {
  const seconds = Math.round((now - date.getTime()) / 1000);
  if (seconds < 0) return date.toLocaleString();
  if (seconds < 45) return 'just now';
  return `${span(seconds)} ago`;
}

/** A length of time in words: "42 s", "3 min", "2 h 5 min", "4 days". */
export function span(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/** How long something took, from two instants; while it runs, how long it has been running. */
export function duration(from, to) {
  if (!from) return '';
  const end = to ? new Date(to).getTime() : Date.now();
  const seconds = Math.max(0, Math.round((end - new Date(from).getTime()) / 1000));
  return h('span', { class: 'duration', title: to ? 'took' : 'running for' }, to ? span(seconds) : `${span(seconds)} so far`);
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2,
  maximumFractionDigits: 2 });
const unitDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2,
  maximumFractionDigits: 4 });

/** Money as the plan and the home page show it: US dollars, cents always; an unknown amount as a dash. */
export function money(value) {
  return value == null ? '—' : dollars.format(Number(value));
}

/** A unit price: cents always, and up to four decimals where a price has them ($0.096). */
export function unitMoney(value) {
  return value == null ? '—' : unitDollars.format(Number(value));
}

/** A quantity with its unit, plural where it is more than one: "730 hours", "1 GB-month". */
export function quantity(amount, unit) {
  const n = Number(amount);
  const text = Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return `${text} ${unit}${n === 1 || /s$|-month$/.test(unit) ? '' : 's'}`;
}

/** An id shown whole on one line (never broken mid-string), cut with an ellipsis where space runs out. */
export function ident(value) {
  return h('span', { class: 'mono ident', title: value }, value);
}

export function table(headers, rows, attrs) {
  return h('div', { class: 'scroll' }, h('table', attrs,
    h('thead', null, h('tr', null, headers.map(([text, cls]) => h('th', { scope: 'col', class: cls }, text)))),
    h('tbody', null, rows)));
}

export function kv(entries) {
  return h('dl', { class: 'kv' }, entries.filter(([, v]) => v != null && v !== '')
    .map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

/**
 * A confirmation in a modal dialog; resolves to true when the user confirms. Focus starts on Cancel, never on the
 * destructive button, and goes back where it was. With {@code typed}, the user types it (a job's or a space's
 * name) before the button can be pressed, as AWS and Argo CD ask before deleting.
 */
export function confirmDialog(title, text, confirmLabel, typed) {
  return new Promise(resolve => {
    const opener = document.activeElement;
    const confirm = h('button', { class: 'danger', type: 'button', 'data-confirm': '', onclick: () => done(true) },
      confirmLabel);
    const cancel = h('button', { type: 'button', onclick: () => done(false) }, 'Cancel');
    let input = null;
    if (typed != null) {
      input = h('input', { id: 'confirm-typed', autocomplete: 'off', spellcheck: 'false', autofocus: '' });
      confirm.disabled = true;
      input.addEventListener('input', () => { confirm.disabled = input.value !== typed; });
      input.addEventListener('keydown', event => {
        if (event.key === 'Enter' && !confirm.disabled) done(true);
      });
    } else {
      cancel.setAttribute('autofocus', '');
    }
    const dialog = h('dialog', { 'aria-label': title },
      h('h2', null, title), h('p', null, text),
      input ? h('label', { for: 'confirm-typed' }, 'Type ', h('strong', { class: 'mono' }, typed), ' to confirm')
        : null, input,
      h('div', { class: 'actions' }, confirm, cancel));
    function done(answer) {
      dialog.close();
      dialog.remove();
      if (opener && opener.isConnected) opener.focus();
      resolve(answer);
    }
    dialog.addEventListener('cancel', () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** A revision's changes field by field: the value before and after (under these headers), in place or made anew. */
export function changesTable(changes, [before, after], id) {
  return table([['Field'], [before], [after], ['How']], changes.map(c =>
    h('tr', { 'data-field': c.field, 'data-effect': c.effect }, h('th', { scope: 'row', class: 'mono' }, c.field),
      h('td', { class: 'mono' }, c.from ?? '—'), h('td', { class: 'mono' }, c.to ?? '—'),
      h('td', null, c.effect === 'replace' ? h('strong', null, 'made anew') : 'in place',
        c.note ? h('div', { class: 'muted' }, c.note) : null))), { id });
}

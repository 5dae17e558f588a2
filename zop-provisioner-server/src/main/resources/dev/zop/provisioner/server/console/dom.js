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

export function when(instant) {
  if (!instant) return '';
  const d = new Date(instant);
  return h('time', { datetime: instant, title: instant }, d.toLocaleString());
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

/** A confirmation in a modal dialog; resolves to true when the user confirms. */
export function confirmDialog(title, text, confirmLabel) {
  return new Promise(resolve => {
    const dialog = h('dialog', { 'aria-label': title },
      h('h2', null, title), h('p', null, text),
      h('div', { class: 'actions' },
        h('button', { class: 'danger', type: 'button', 'data-confirm': '', onclick: () => done(true) }, confirmLabel),
        h('button', { type: 'button', onclick: () => done(false) }, 'Cancel')));
    function done(answer) {
      dialog.close();
      dialog.remove();
      resolve(answer);
    }
    dialog.addEventListener('cancel', () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

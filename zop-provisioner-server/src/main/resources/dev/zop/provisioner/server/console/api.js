// The REST API, called with the token the user pasted. The token lives in this tab's session storage only.
const TOKEN = 'zop.token';

export const session = {
  token: () => sessionStorage.getItem(TOKEN),
  save: token => sessionStorage.setItem(TOKEN, token),
  clear: () => sessionStorage.removeItem(TOKEN),
};

/** A refusal from the API, in its own words: status, machine-readable code, message and the fields at fault. */
export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `the service answered ${status}`);
    this.status = status;
    this.code = error?.code || 'http_' + status;
    this.fields = error?.fields || [];
    this.requestId = error?.requestId;
  }
}

function headers(extra) {
  const out = { Accept: 'application/json', ...extra };
  const token = session.token();
  if (token) out.Authorization = 'Bearer ' + token;
  return out;
}

/** Calls the API and answers the response's {@code data}; a refusal is thrown as an {@link ApiError}. */
export async function call(method, path, body) {
  return (await request(method, path, body))?.data ?? null;
}

/** A page of a list: the API sends its items as {@code data} and the cursor of the next page beside it. */
export async function list(path) {
  const json = await request('GET', path);
  return { items: json?.data || [], nextCursor: json?.nextCursor || null };
}

async function request(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { code: 'unreachable', message: 'the service could not be reached: ' + e.message });
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = null;
  }
  if (!response.ok) throw new ApiError(response.status, json?.error);
  return json;
}

export const get = path => call('GET', path);
export const post = (path, body) => call('POST', path, body);

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}

/**
 * A job's events as they happen, over the API's Server-Sent Events. EventSource cannot send a bearer token, so the
 * stream is read with fetch; it resumes after the last event seen when the connection drops, until stopped.
 */
export function streamEvents(jobId, onEvent) {
  const controller = new AbortController();
  let last = 0;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`/provisioning-jobs/${encodeURIComponent(jobId)}/events/stream?after=${last}`,
          { headers: headers({ Accept: 'text/event-stream' }), signal: controller.signal });
        if (!response.ok || !response.body) {
          return;
        }
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5).trim()).join('\n');
            if (data) {
              const event = JSON.parse(data);
              last = Math.max(last, event.seq);
              onEvent(event);
            }
          }
        }
      } catch (e) {
        if (controller.signal.aborted) return;
      }
      // the stream ended (the server restarted or a proxy cut it): wait a moment, then resume after `last`
      await new Promise(resolve => setTimeout(resolve, 1000));
    }
  })();
  return () => controller.abort();
}

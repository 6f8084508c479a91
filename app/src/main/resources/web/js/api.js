// The REST client: one place that knows the JSON error shape and the WebSocket URLs.
// The browser authenticates by the server's HttpOnly cookie (set when the page was first opened
// with ?token=…): fetches, images, downloads and WebSockets of this origin all carry it, so no
// script here ever sees or sends the token.

/** An API error with the server's {code, message}. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const listeners = new Set();
/** Called with every ApiError, so the shell can say when the sign-in is no longer valid (401). */
export function onApiError(fn) { listeners.add(fn); }

export async function api(method, path, body) {
  const headers = { 'Accept': 'application/json' };
  const init = { method, headers, credentials: 'same-origin' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'offline', 'The agentdesk server did not answer. Is `agentdesk serve` still running?');
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!res.ok) {
    const err = new ApiError(res.status, data && data.code || 'http_' + res.status,
        data && data.message || res.statusText);
    listeners.forEach(fn => fn(err));
    throw err;
  }
  return data;
}

export const get = (p) => api('GET', p);
export const post = (p, b) => api('POST', p, b === undefined ? {} : b);
export const del = (p) => api('DELETE', p);
export const put = (p, b) => api('PUT', p, b === undefined ? {} : b);

export function wsUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return proto + '//' + location.host + path;
}

export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') u.set(k, v);
  }
  const s = u.toString();
  return s ? '?' + s : '';
}

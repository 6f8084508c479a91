// The REST client: one place that knows the token, the JSON error shape and the WebSocket URLs.

const TOKEN_KEY = 'agentdesk.token';

/** Takes ?token= from the address bar once, keeps it for this tab, and removes it from the URL. */
export function adoptTokenFromUrl() {
  const url = new URL(location.href);
  const t = url.searchParams.get('token');
  if (t) {
    sessionStorage.setItem(TOKEN_KEY, t);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setToken(t) {
  if (t) sessionStorage.setItem(TOKEN_KEY, t);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** An API error with the server's {code, message}. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const listeners = new Set();
/** Called with every ApiError, so the shell can ask for a token on 401. */
export function onApiError(fn) { listeners.add(fn); }

export async function api(method, path, body) {
  const headers = { 'Accept': 'application/json' };
  const t = token();
  if (t) headers['Authorization'] = 'Bearer ' + t;
  const init = { method, headers };
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

/** A URL the browser fetches by itself (img src, download link): the token rides in the query. */
export function authedUrl(path) {
  const t = token();
  if (!t) return path;
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(t);
}

export function wsUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return proto + '//' + location.host + authedUrl(path);
}

export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') u.set(k, v);
  }
  const s = u.toString();
  return s ? '?' + s : '';
}

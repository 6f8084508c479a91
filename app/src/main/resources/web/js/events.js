// The global event stream (/ws/events): one socket for the whole page, reconnecting with backoff.
import { wsUrl } from './api.js';

const handlers = new Map();   // type -> Set<fn>
const statusHandlers = new Set();
let socket = null;
let retryMs = 500;
let stopped = false;

export function on(type, fn) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(fn);
  return () => handlers.get(type).delete(fn);
}

export function onStatus(fn) { statusHandlers.add(fn); }

function setStatus(s) { statusHandlers.forEach(fn => fn(s)); }

export function connect() {
  stopped = false;
  if (socket && socket.readyState <= 1) return;
  setStatus('connecting');
  socket = new WebSocket(wsUrl('/ws/events'));
  socket.onopen = () => { retryMs = 500; setStatus('live'); };
  socket.onmessage = (m) => {
    let ev;
    try { ev = JSON.parse(m.data); } catch { return; }
    (handlers.get(ev.type) || []).forEach(fn => fn(ev));
    (handlers.get('*') || []).forEach(fn => fn(ev));
  };
  socket.onclose = () => {
    setStatus('offline');
    if (!stopped) {
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10000);
    }
  };
}

export function reconnect() {
  if (socket) { stopped = true; socket.close(); }
  socket = null;
  connect();
}

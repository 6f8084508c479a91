// A sandbox's live screen on a canvas: /ws/sandboxes/{id}/screen sends state messages (text) and
// screen patches (binary: u32 LE header length, JSON header, then the images back to back; a
// keyframe image, then tiles painted over it in place; a piece may say it is jpeg, a large change
// sent lossy — docs/sandbox.md, "Live view"). Input goes back on the same socket as act messages,
// in order: clicks, drags (mouse_down, moves, mouse_up), pointer moves and scrolls mapped from the
// canvas's CSS box to screen pixels, printable text as type, other keys as key combos with ACI key
// names, and a paste as clipboard_set (then ctrl+v in the sandbox).
import { wsUrl } from '../api.js';

// Browser KeyboardEvent.key → the ACI key verb's names (agentdesk runtime's Keysyms).
const KEY_NAMES = {
  Enter: 'Return', Tab: 'Tab', Escape: 'Escape', Backspace: 'BackSpace', Delete: 'Delete',
  ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right', Home: 'Home', End: 'End',
  PageUp: 'Page_Up', PageDown: 'Page_Down', Insert: 'Insert', ContextMenu: 'Menu', ' ': 'space',
};
for (let i = 1; i <= 12; i++) KEY_NAMES['F' + i] = 'F' + i;
const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'NumLock', 'OS', 'Super', 'Hyper']);

/** The ACI key combo for a keydown, or null when it is printable text (or a lone modifier). */
export function keyCombo(e) {
  if (MODIFIER_KEYS.has(e.key)) return null;
  const mods = [];
  if (e.ctrlKey) mods.push('ctrl');
  if (e.altKey) mods.push('alt');
  if (e.metaKey) mods.push('super');
  const printable = [...e.key].length === 1;
  if (printable && !mods.length) return null;
  const name = printable ? (e.key === ' ' ? 'space' : e.key) : KEY_NAMES[e.key];
  if (!name) return undefined; // a key the runtime has no name for (Dead, Unidentified, …)
  // A single character carries its shift already (ctrl+C is ctrl+shift+c for the runtime).
  if (e.shiftKey && !printable) mods.push('shift');
  return [...mods, name].join('+');
}

/**
 * Opens the live view of sandbox `id` on `canvas`. hooks.onState({state, message, screen}) on every
 * state change (connecting, live, reconnecting, gone, removed, offline); hooks.onActed(reply)
 * after each action; hooks.lossless: ask for png only (no jpeg for large changes). Returns
 * {act(body) → Promise, stats, close()}.
 */
export function openLiveView(id, canvas, hooks = {}) {
  const g = canvas.getContext('2d');
  const stats = { bytes: 0, patches: 0, lastSeq: -1, lastDrawnAt: 0, state: 'connecting' };
  canvas.liveStats = stats; // read by the tests and ./bench sandbox-live
  let ws = null;
  let closed = false;
  let retry = 0;
  let timer = null;
  let screen = null;
  let drawing = Promise.resolve();
  let nextId = 1;
  const waiting = new Map();

  const setState = (s) => {
    stats.state = s.state;
    if (s.screen) screen = s.screen;
    hooks.onState && hooks.onState(s);
  };

  function connect() {
    ws = new WebSocket(wsUrl('/ws/sandboxes/' + encodeURIComponent(id) + '/screen' + (hooks.lossless ? '?lossless=1' : '')));
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => { retry = 0; };
    ws.onmessage = (e) => {
      if (typeof e.data !== 'string') {
        stats.bytes += e.data.byteLength;
        const buf = e.data;
        drawing = drawing.then(() => draw(buf)).catch((err) => {
          console.warn('live view: a screen patch did not draw; asking for the whole picture', err);
          send({ type: 'keyframe' });
        });
        return;
      }
      const m = JSON.parse(e.data);
      if (m.type === 'state') {
        setState(m);
        if (m.state === 'removed') { closed = true; ws.close(); }
      } else if (m.type === 'acted' || m.type === 'error') {
        const w = waiting.get(m.id);
        if (w) { waiting.delete(m.id); m.type === 'acted' ? w.resolve(m) : w.reject(new Error(m.message)); }
        else if (m.type === 'error') console.warn('live view:', m.message);
        if (m.type === 'acted' && hooks.onActed) hooks.onActed(m);
      }
    };
    ws.onclose = () => {
      for (const w of waiting.values()) w.reject(new Error('the connection to the server dropped'));
      waiting.clear();
      if (closed) return;
      setState({ state: 'offline', message: 'The connection to the agentdesk server dropped; reconnecting…' });
      timer = setTimeout(connect, Math.min(5000, 250 * 2 ** retry++));
    };
  }

  async function draw(buf) {
    const view = new DataView(buf);
    const headerLen = view.getUint32(0, true);
    const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, headerLen)));
    const base = 4 + headerLen;
    const type = (p) => ((p.format || head.format) === 'jpeg' ? 'image/jpeg' : 'image/png');
    const pieces = head.image ? [{ x: 0, y: 0, ...head.image }] : [];
    pieces.push(...head.tiles);
    // Decode everything first, then paint in one go: a frame never shows half drawn.
    const images = await Promise.all(pieces.map(p =>
        createImageBitmap(new Blob([new Uint8Array(buf, base + p.off, p.len)], { type: type(p) }))));
    if (head.image && (canvas.width !== head.w || canvas.height !== head.h)) {
      canvas.width = head.w;
      canvas.height = head.h;
    }
    pieces.forEach((p, i) => { g.drawImage(images[i], p.x, p.y); images[i].close(); });
    if (pieces.some(p => type(p) === 'image/jpeg')) stats.lossy = (stats.lossy || 0) + 1;
    stats.patches++;
    stats.lastSeq = head.seq;
    stats.lastDrawnAt = Date.now();
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  /** Sends one action; resolves with the server's reply, rejects with its error message. */
  function act(body) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    const msgId = String(nextId++);
    return new Promise((resolve, reject) => {
      waiting.set(msgId, { resolve, reject });
      ws.send(JSON.stringify({ type: 'act', id: msgId, ...body }));
    });
  }

  // ---- input ----
  /** A pointer event's place in screen pixels: the canvas's CSS box scaled to the screen. */
  function toScreen(e) {
    const r = canvas.getBoundingClientRect();
    const w = screen ? screen.w : canvas.width;
    const h = screen ? screen.h : canvas.height;
    const x = Math.floor((e.clientX - r.left) * w / r.width);
    const y = Math.floor((e.clientY - r.top) * h / r.height);
    return { x: Math.max(0, Math.min(w - 1, x)), y: Math.max(0, Math.min(h - 1, y)) };
  }
  const report = (p) => p.catch((err) => hooks.onError && hooks.onError(err));
  // Text still being collected goes first: input reaches the runtime in the order it was given.
  const input = (body) => { flushTyped(); report(act(body)); };
  // A press and release in place goes on as a click, as from a real mouse: two in quick succession
  // are the application's double click, judged by its own timing. A press that moves more than
  // DRAG_PX becomes a drag: mouse_down where it was pressed, moves as the pointer goes, mouse_up
  // where it is released. Moves (with or without a button) keep at most one in flight; the latest
  // point waits and older ones are dropped, so a fast pointer never queues up behind the runtime.
  const DRAG_PX = 4;
  let press = null;
  let moveBusy = false;
  let moveNext = null;
  function sendMove(p) {
    if (moveBusy) { moveNext = p; return; }
    moveBusy = true;
    act({ verb: 'move', ...p }).catch(() => {}).finally(() => {
      moveBusy = false;
      if (moveNext) { const n = moveNext; moveNext = null; sendMove(n); }
    });
  }
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    canvas.focus();
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
    press = { ...toScreen(e), cx: e.clientX, cy: e.clientY, dragging: false };
  });
  canvas.addEventListener('pointermove', (e) => {
    if (press && !press.dragging && Math.hypot(e.clientX - press.cx, e.clientY - press.cy) > DRAG_PX) {
      press.dragging = true;
      moveNext = null;
      input({ verb: 'mouse_down', x: press.x, y: press.y });
    }
    const at = toScreen(e);
    if (press) press.last = at;
    sendMove(at);
  });
  const release = (e) => {
    if (!press || e.button !== 0) return;
    const p = press;
    press = null;
    moveNext = null;
    if (p.dragging) input({ verb: 'mouse_up', ...toScreen(e) });
    else input({ verb: 'click', x: p.x, y: p.y });
  };
  canvas.addEventListener('pointerup', release);
  // A cancelled pointer (its button is -1) must still let go of a held button in the sandbox.
  canvas.addEventListener('pointercancel', () => {
    const p = press;
    press = null;
    moveNext = null;
    if (p && p.dragging) input({ verb: 'mouse_up', ...(p.last || { x: p.x, y: p.y }) });
  });
  canvas.addEventListener('contextmenu', (e) => { e.preventDefault(); canvas.focus(); input({ verb: 'right_click', ...toScreen(e) }); });
  let wheel = null;
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1; // lines, pages → pixels
    if (!wheel) {
      wheel = { ...toScreen(e), dx: 0, dy: 0 };
      setTimeout(() => {
        const w = wheel; wheel = null;
        if (w.dx || w.dy) input({ verb: 'scroll', x: w.x, y: w.y, dx: w.dx, dy: w.dy });
      }, 60);
    }
    wheel.dx += e.deltaX * unit;
    wheel.dy += e.deltaY * unit;
  }, { passive: false });
  let typed = '';
  let typeTimer = null;
  function flushTyped() {
    clearTimeout(typeTimer); typeTimer = null;
    if (typed) { const t = typed; typed = ''; report(act({ verb: 'type', text: t })); }
  }
  canvas.addEventListener('keydown', (e) => {
    const combo = keyCombo(e);
    // The browser's paste shortcut is left to the browser: its paste event carries the text.
    if (combo === 'ctrl+v' || combo === 'shift+Insert' || combo === 'super+v') return;
    if (combo === null && MODIFIER_KEYS.has(e.key)) return;
    e.preventDefault();
    if (combo === undefined) return;
    if (combo === null) {
      typed += e.key;
      if (!typeTimer) typeTimer = setTimeout(flushTyped, 15);
      return;
    }
    input({ verb: 'key', key: combo });
  });

  // A paste while the canvas has the focus puts the text on the sandbox's clipboard and pastes it
  // there (clipboard_set, then ctrl+v in the sandbox).
  const onPaste = (e) => {
    if (document.activeElement !== canvas) return;
    e.preventDefault();
    const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
    if (text) input({ verb: 'clipboard_set', text, paste: true });
  };
  document.addEventListener('paste', onPaste);

  // A page going away (or into the back/forward cache) closes its socket at once, so the server
  // stops feeding it; a page brought back from that cache connects again.
  const onHide = () => { if (ws) { ws.onclose = null; ws.close(); ws = null; } };
  const onShow = (e) => { if (e.persisted && !closed) connect(); };
  window.addEventListener('pagehide', onHide);
  window.addEventListener('pageshow', onShow);

  connect();
  return {
    act: (body) => { flushTyped(); return act(body); }, stats,
    close() {
      closed = true;
      clearTimeout(timer);
      flushTyped();
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      document.removeEventListener('paste', onPaste);
      if (ws) ws.close();
    },
  };
}

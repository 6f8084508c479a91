// Draws the server's VT screen (rows of styled spans) and turns keystrokes into input messages.
// The browser does no terminal emulation: the server's engine decides every cell.
import { h, clear } from '../dom.js';

const KEYS = {
  Enter: 'enter', Tab: 'tab', Backspace: 'backspace', Escape: 'escape', Delete: 'delete',
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Home: 'home', End: 'end', PageUp: 'pageup', PageDown: 'pagedown', Insert: 'insert',
  F1: 'f1', F2: 'f2', F3: 'f3', F4: 'f4', F5: 'f5', F6: 'f6', F7: 'f7', F8: 'f8', F9: 'f9', F10: 'f10', F11: 'f11', F12: 'f12',
};

export class Screen {
  constructor() {
    this.el = h('div.screen#screen', { tabindex: 0, role: 'textbox', 'aria-label': 'Terminal screen' });
    this.rows = [];
    this.cursor = null;
    this.onKey = () => {};
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.el.addEventListener('paste', (e) => {
      e.preventDefault();
      const text = e.clipboardData.getData('text');
      if (text) this.onKey({ type: 'input', text });
    });
  }

  focus() { this.el.focus(); }

  key(e) {
    if (e.metaKey) return;
    let msg = null;
    if (e.ctrlKey && !e.altKey && e.key.length === 1 && /[a-z@\[\]\\^_ ]/i.test(e.key)) {
      msg = { type: 'key', key: 'ctrl-' + e.key.toLowerCase() };
    } else if (KEYS[e.key]) {
      msg = { type: 'key', key: (e.shiftKey && e.key === 'Tab' ? 'shift-' : '') + KEYS[e.key] };
    } else if (e.key.length === 1 && !e.ctrlKey) {
      msg = { type: 'input', text: e.altKey ? '\u001b' + e.key : e.key };
    }
    if (msg) {
      e.preventDefault();
      this.onKey(msg);
    }
  }

  /** A full frame ({type: 'screen'}) or changed rows ({type: 'rows'}). */
  apply(msg) {
    if (msg.type === 'screen') {
      this.rows = new Array(msg.rows).fill(null).map(() => h('div.row'));
      clear(this.el).append(...this.rows);
    }
    for (const r of msg.lines) {
      const row = this.rows[r.row];
      if (!row) continue;
      clear(row).append(...r.spans.map(span));
    }
    this.cursor = msg.cursor;
    this.drawCursor();
  }

  drawCursor() {
    this.el.querySelectorAll('.cursor').forEach(c => c.classList.remove('cursor'));
    const c = this.cursor;
    if (!c || !c.visible || !this.rows[c.row]) return;
    // Split the span under the cursor so exactly one cell is highlighted.
    const row = this.rows[c.row];
    let col = 0;
    for (const s of Array.from(row.children)) {
      const text = s.textContent;
      const len = [...text].length;
      if (c.col < col + len) {
        const chars = [...text];
        const at = c.col - col;
        const before = chars.slice(0, at).join(''), mid = chars[at], after = chars.slice(at + 1).join('');
        const mk = (t, cls) => { const n = s.cloneNode(false); n.textContent = t; if (cls) n.classList.add(cls); return n; };
        const parts = [before && mk(before), mk(mid, 'cursor'), after && mk(after)].filter(Boolean);
        s.replaceWith(...parts);
        return;
      }
      col += len;
    }
    // Past the end of the row's text: pad with a span (not a text node, which has no classList).
    if (c.col > col) row.append(h('span', ' '.repeat(c.col - col)));
    row.append(h('span.cursor', ' '));
  }
}

function span(s) {
  const el = document.createElement('span');
  el.textContent = s.text;
  if (s.b) el.classList.add('b');
  if (s.i) el.classList.add('i');
  if (s.u) el.classList.add('u');
  if (s.d) el.classList.add('d');
  if (s.s) el.classList.add('s');
  let fg = s.fg, bg = s.bg;
  if (s.inv) { const t = fg || '#d0d7de'; fg = bg || '#0a0c10'; bg = t; }
  if (fg) el.style.color = fg;
  if (bg) el.style.backgroundColor = bg;
  return el;
}

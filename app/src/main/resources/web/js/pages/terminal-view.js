// The browser terminal: xterm.js (bundled in the jar under /vendor/) fed the program's own bytes.
// The server sends {type: 'reset', cols, rows}, then a repaint of its VT engine's screen (the
// scrollback from the durable log, both screens, modes) as one binary message, then every chunk
// the program writes, and {type: 'resize'} where the size changes. Keys, paste and mouse reports
// go back as input; the fit addon sizes the PTY to the box.
import { Terminal } from '/vendor/xterm.js';
import { FitAddon } from '/vendor/addon-fit.js';
import { WebLinksAddon } from '/vendor/addon-web-links.js';
import { Unicode11Addon } from '/vendor/addon-unicode11.js';
import { h } from '../dom.js';
import { wsUrl } from '../api.js';

// The server's limits on a terminal's size (TerminalsArea).
const MIN_COLS = 20, MAX_COLS = 500, MIN_ROWS = 5, MAX_ROWS = 200;
// Text messages carry at most this many characters (the server takes 64 Ki); a long paste is split.
const CHUNK = 16 * 1024;

// The 16 ANSI colours, tuned to read on the dashboard's dark background.
const THEME = {
  background: '#0a0c10', foreground: '#d0d7de', cursor: '#c9d1d9', cursorAccent: '#0a0c10',
  selectionBackground: '#2f4a6d',
  black: '#1b1f24', red: '#f85149', green: '#3fb950', yellow: '#d29922',
  blue: '#58a6ff', magenta: '#bc8cff', cyan: '#39c5cf', white: '#b1bac4',
  brightBlack: '#6e7681', brightRed: '#ff7b72', brightGreen: '#56d364', brightYellow: '#e3b341',
  brightBlue: '#79c0ff', brightMagenta: '#d2a8ff', brightCyan: '#56d4dd', brightWhite: '#f0f6fc',
};

/** Opens a link the program printed in a new tab that cannot reach back into this page. */
function openLink(event, uri) {
  let url;
  try { url = new URL(uri); } catch { return; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  window.open(url.href, '_blank', 'noopener,noreferrer');
}

export class TerminalView {
  /**
   * send(message) puts a JSON message or an ArrayBuffer (raw bytes) on the terminal's socket.
   * options.autoFit: size the PTY to this box whenever the box changes (the Terminals page, where
   * the viewer is the terminal's user). Off for an agent's terminal: its size is the one it was
   * started with, since the agent draws for that width and the parser reads those rows; a viewer
   * follows it (the box scrolls) and sizes it only on purpose, with fitToBox() (docs/agents.md).
   */
  constructor(send, options = {}) {
    this.send = send;
    this.autoFit = options.autoFit !== false;
    this.el = h('div.term-host#screen');
    this.term = new Terminal({
      scrollback: 10000, // as many rows as the server's durable log keeps
      allowProposedApi: true, // the Unicode 11 width table
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
      fontSize: 14,
      theme: THEME,
      cursorBlink: false,
    });
    this.fit = new FitAddon();
    this.term.loadAddon(this.fit);
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11'; // the widths the server's engine uses, nearly
    this.term.loadAddon(new WebLinksAddon(openLink));
    // Keys, paste (bracketed when the program asked for it) and SGR/UTF-8 mouse reports.
    this.term.onData((data) => {
      let i = 0;
      while (i < data.length) {
        let end = Math.min(data.length, i + CHUNK);
        const last = data.charCodeAt(end - 1);
        if (end < data.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
        this.send({ type: 'input', text: data.slice(i, end) });
        i = end;
      }
    });
    // Mouse reports in the default (X10) encoding are bytes, not text.
    this.term.onBinary((data) => {
      const bytes = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
      this.send(bytes.buffer);
    });
    this.el.xterm = this.term; // the browser tests read the buffer through this
    this.opened = false;
    this.live = false;
  }

  /** Puts the terminal in the page; call once the element is in the document. */
  open() {
    this.term.open(this.el);
    this.opened = true;
    if (this.autoFit) {
      this.observer = new ResizeObserver(() => {
        clearTimeout(this.fitTimer);
        this.fitTimer = setTimeout(() => this.fitToBox(), 80);
      });
      this.observer.observe(this.el);
    }
    this.term.focus();
  }

  /** Asks the server to size the PTY to the box; xterm.js follows when the server says resize. */
  fitToBox() {
    if (!this.live) return;
    // A terminal that is not fitted is as wide as its columns; measure the box it sits in instead.
    if (!this.autoFit) this.el.classList.add('fitting');
    const d = this.fit.proposeDimensions();
    if (!this.autoFit) this.el.classList.remove('fitting');
    if (!d || !isFinite(d.cols) || !isFinite(d.rows)) return;
    const cols = Math.max(MIN_COLS, Math.min(MAX_COLS, d.cols));
    const rows = Math.max(MIN_ROWS, Math.min(MAX_ROWS, d.rows));
    if (cols !== this.term.cols || rows !== this.term.rows) this.send({ type: 'resize', cols, rows });
  }

  /** A (re)connected socket: forget everything, take the server's size; the repaint follows. */
  reset(cols, rows) {
    this.term.reset();
    this.term.resize(cols, rows);
    this.live = true;
    if (this.autoFit) this.fitToBox();
  }

  resize(cols, rows) {
    this.term.resize(cols, rows);
  }

  write(bytes) {
    this.term.write(bytes);
  }

  /** The socket closed; input waits for the next one. */
  offline() {
    this.live = false;
  }

  dispose() {
    clearTimeout(this.fitTimer);
    if (this.observer) this.observer.disconnect();
    this.term.dispose();
  }
}

/**
 * Connects {@code screen} to the terminal {@code id}'s socket and keeps it connected (a closed
 * socket is reopened after a second) until close(). on.size(cols, rows), on.state(terminal),
 * on.exit(code) and on.event(event) receive the socket's other messages. Returns {send, close};
 * send takes what a TerminalView sends (a JSON message or an ArrayBuffer of raw bytes).
 */
export function attachTerminal(id, screen, on = {}) {
  let socket = null;
  let closed = false;
  const open = () => {
    socket = new WebSocket(wsUrl('/ws/terminals/' + id));
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (m) => {
      if (typeof m.data !== 'string') { screen.write(new Uint8Array(m.data)); return; }
      const msg = JSON.parse(m.data);
      if (msg.type === 'reset') { screen.reset(msg.cols, msg.rows); on.size && on.size(msg.cols, msg.rows); }
      else if (msg.type === 'resize') { screen.resize(msg.cols, msg.rows); on.size && on.size(msg.cols, msg.rows); }
      else if (msg.type === 'state') { on.state && on.state(msg.terminal); }
      else if (msg.type === 'exit') { on.exit && on.exit(msg.exit_code); }
      else if (msg.type === 'event') { on.event && on.event(msg.event); }
    };
    socket.onclose = () => { screen.offline(); if (!closed) setTimeout(open, 1000); };
  };
  open();
  return {
    send: (msg) => {
      if (!socket || socket.readyState !== 1) return;
      socket.send(msg instanceof ArrayBuffer ? msg : JSON.stringify(msg));
    },
    close: () => { closed = true; if (socket) socket.close(); },
  };
}

#!/usr/bin/env node
// Reference renderer for agentdesk's VT engine: feeds byte streams through @xterm/headless
// (with the Unicode 11 width table, the one our engine's table is compared with) and reports
// the visible screen.
//
//   node render.js serve            one request per stdin line -> one reply line per request
//        request: ID COLS ROWS BASE64-BYTES
//        reply:   ID CURSOR_ROW CURSOR_COL ALT(0|1) WRAPPED(0/1 per row) BASE64(title) BASE64(row)...
//                 or "ID ERR" when xterm.js itself threw
//        (plain tokens so that the Java side needs no JSON library)
//   node render.js json COLS ROWS FILE   prints the final screen of FILE as one JSON object
//   node render.js bench COLS ROWS SECONDS FILE...
//        prints one JSON line per file: {"file":f,"bytes":n,"mb_per_s":x}
//   node render.js text COLS ROWS FILE   streams FILE through xterm.js in 1 MiB reads and prints
//        the final screen as `agentdesk term render` does (rows right-trimmed, trailing blank
//        rows dropped): the whole-program peer of `./bench vt`
'use strict';
const { Terminal } = require('@xterm/headless');
const { Unicode11Addon } = require('@xterm/addon-unicode11');
const readline = require('readline');
const fs = require('fs');

function newTerminal(cols, rows) {
  const term = new Terminal({ cols, rows, scrollback: 10000, allowProposedApi: true });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  let title = '';
  term.onTitleChange((t) => { title = t; });
  return { term, title: () => title };
}

function screenOf(t) {
  const term = t.term;
  const buf = term.buffer.active;
  const lines = [];
  const wrapped = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    lines.push(line ? line.translateToString(true) : '');
    wrapped.push(line ? line.isWrapped : false);
  }
  return {
    lines,
    wrapped,
    cursor: { row: buf.cursorY, col: buf.cursorX },
    alt_screen: buf.type === 'alternate',
    title: t.title(),
  };
}

function serve() {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const queue = [];
  let busy = false;
  const next = () => {
    if (busy || queue.length === 0) return;
    busy = true;
    const [id, cols, rows, b64] = queue.shift().trim().split(' ');
    let answered = false;
    const t = newTerminal(Number(cols), Number(rows));
    const data = Buffer.from(b64 || '', 'base64');
    const fail = (err) => {
      if (answered) return;
      answered = true;
      process.stderr.write('render.js: xterm.js failed: ' + String(err && err.message || err).slice(0, 200) + '\n');
      process.stdout.write(id + ' ERR\n');
      busy = false;
      next();
    };
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', fail);
    // xterm.js can also swallow its own exception and never call back: do not wait forever.
    const timer = setTimeout(() => fail(new Error('no write callback within 5 s; input ' + b64.slice(0, 300))), 5000);
    t.term.write(new Uint8Array(data), () => {
      clearTimeout(timer);
      if (answered) return;
      answered = true;
      const s = screenOf(t);
      const enc = (x) => Buffer.from(x, 'utf8').toString('base64') || '-';
      const parts = [id, s.cursor.row, s.cursor.col, s.alt_screen ? 1 : 0,
        s.wrapped.map((w) => (w ? '1' : '0')).join(''), enc(s.title), ...s.lines.map(enc)];
      process.stdout.write(parts.join(' ') + '\n');
      t.term.dispose();
      busy = false;
      next();
    });
  };
  rl.on('line', (line) => { if (line.trim()) { queue.push(line); next(); } });
}

async function bench(cols, rows, seconds, files) {
  for (const file of files) {
    const data = new Uint8Array(fs.readFileSync(file));
    const t = newTerminal(cols, rows);
    const feed = () => new Promise((resolve) => t.term.write(data, resolve));
    for (let i = 0; i < 3; i++) await feed(); // warm-up
    let bytes = 0;
    const start = process.hrtime.bigint();
    const limit = BigInt(Math.round(seconds * 1e9));
    while (process.hrtime.bigint() - start < limit) {
      await feed();
      bytes += data.length;
    }
    const ns = Number(process.hrtime.bigint() - start);
    process.stdout.write(JSON.stringify({ file, bytes, mb_per_s: bytes / 1e6 / (ns / 1e9) }) + '\n');
    t.term.dispose();
  }
}

async function text(cols, rows, file) {
  const t = newTerminal(cols, rows);
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    // The callback runs once xterm.js has parsed the chunk: then the buffer can be reused.
    await new Promise((resolve) => t.term.write(buf.subarray(0, n), resolve));
  }
  fs.closeSync(fd);
  const lines = screenOf(t).lines.map((l) => l.replace(/ +$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (lines.length) process.stdout.write(lines.join('\n') + '\n');
  t.term.dispose();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'serve') {
  serve();
} else if (mode === 'json') {
  const [cols, rows, file] = args;
  const t = newTerminal(Number(cols), Number(rows));
  t.term.write(new Uint8Array(fs.readFileSync(file)), () => {
    process.stdout.write(JSON.stringify(screenOf(t)) + '\n');
    t.term.dispose();
  });
} else if (mode === 'text') {
  const [cols, rows, file] = args;
  text(Number(cols), Number(rows), file);
} else if (mode === 'bench') {
  const [cols, rows, seconds, ...files] = args;
  bench(Number(cols), Number(rows), Number(seconds), files);
} else {
  process.stderr.write('usage: render.js serve | json COLS ROWS FILE | text COLS ROWS FILE | bench COLS ROWS SECONDS FILE...\n');
  process.exit(2);
}

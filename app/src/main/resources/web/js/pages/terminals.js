// Terminals: the grid with state badges, and one terminal you can type into.
import { get, post, del } from '../api.js';
import { h, clear, put, notice } from '../dom.js';
import * as events from '../events.js';
import { stateBadges, updateCountdowns, choiceButtons, prLinks } from './badges.js';
import { TerminalView, attachTerminal } from './terminal-view.js';
import { autoResumeCard } from './auto-resume.js';

const AGENTS = ['', 'claude', 'codex', 'aider', 'gemini', 'copilot', 'opencode', 'goose', 'none'];

function unavailable(view) {
  clear(view).append(notice('Terminals are not available in this build',
      h('p', 'This server was built without the terminal supervision pillar, so it cannot start or watch terminals yet.')));
}

/** Splits a command line the way a shell would for plain words and quotes (no expansion). */
export function splitArgs(line) {
  const out = [];
  let cur = '', inWord = false, quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") { quote = c; inWord = true; }
    else if (c === '\\' && i + 1 < line.length) { cur += line[++i]; inWord = true; }
    else if (/\s/.test(c)) { if (inWord) { out.push(cur); cur = ''; inWord = false; } }
    else { cur += c; inWord = true; }
  }
  if (inWord) out.push(cur);
  return out;
}

export async function terminalsPage(view, health) {
  if (!health.features.terminals) return unavailable(view);
  const grid = h('div.grid#terminal-grid');
  const err = h('p.error-text');
  const cmd = h('input#new-command', { placeholder: 'command, e.g. claude  or  bash', size: 36, required: true });
  const agent = h('select#new-agent', AGENTS.map(a => h('option', { value: a }, a || 'detect agent')));
  const cwd = h('input#new-cwd', { placeholder: 'folder (default: server’s)', size: 24 });
  const cols = h('input#new-cols', { type: 'number', value: 120, min: 20, max: 500, style: 'width:80px' });
  const rows = h('input#new-rows', { type: 'number', value: 36, min: 5, max: 200, style: 'width:70px' });
  const form = h('form.card.form-row#new-terminal', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      const argv = splitArgs(cmd.value.trim());
      try {
        const t = await post('/api/terminals', { argv, agent: agent.value || null, cwd: cwd.value.trim() || null,
          cols: parseInt(cols.value, 10), rows: parseInt(rows.value, 10) });
        location.hash = '#/terminals/' + t.id;
      } catch (ex) { err.textContent = ex.message; }
    }
  }, h('label', 'Command', cmd), h('label', 'Agent', agent), h('label', 'Folder', cwd),
     h('label', 'Cols', cols), h('label', 'Rows', rows), h('button.primary', { type: 'submit' }, 'Start terminal'), err);
  view.append(h('div.page-head', h('h1', 'Terminals')), form, h('div', { style: 'height:14px' }), grid);

  const cards = new Map();
  const renderCard = (t) => {
    const sendKey = (key) => post('/api/terminals/' + t.id + '/key', { key }).catch(() => {});
    const card = h('div.card.term-card', { dataset: { id: t.id } },
        h('div.form-row', h('a.title', { href: '#/terminals/' + t.id, title: t.argv.join(' ') }, t.title),
            h('span.muted.small', t.agent && t.agent !== 'none' ? t.agent : '')),
        stateBadges(t),
        choiceButtons(t, sendKey),
        h('pre.preview', (t.preview || []).join('\n')),
        prLinks(t),
        h('div.form-row', h('a', { href: '#/terminals/' + t.id }, 'Open'),
            h('span.muted.small', t.cwd || '')));
    const old = cards.get(t.id);
    if (old) old.replaceWith(card); else grid.append(card);
    cards.set(t.id, card);
  };
  const refreshAll = async () => {
    const list = await get('/api/terminals');
    for (const [id, el] of cards) if (!list.some(t => t.id === id)) { el.remove(); cards.delete(id); }
    list.forEach(renderCard);
    if (list.length === 0 && !grid.querySelector('.notice')) {
      grid.append(notice('No terminals yet', h('p', 'Start one above: an agent such as ', h('code', 'claude'),
          ' or ', h('code', 'codex'), ', or any program. Its state, questions and PR links show up here.')));
    } else if (list.length) grid.querySelectorAll('.notice').forEach(n => n.remove());
  };
  await refreshAll();
  const refreshOne = async (id) => {
    try { renderCard(await get('/api/terminals/' + id)); } catch (e) { if (e.status === 404) { cards.get(id)?.remove(); cards.delete(id); } }
  };
  const offs = [
    events.on('terminal-state', (ev) => {
      if (!cards.has(ev.terminal_id)) { refreshAll(); return; }
      refreshOne(ev.terminal_id);
    }),
    events.on('terminal-removed', (ev) => { cards.get(ev.terminal_id)?.remove(); cards.delete(ev.terminal_id); }),
  ];
  const tick = setInterval(() => updateCountdowns(grid), 1000);
  const poll = setInterval(() => refreshAll().catch(() => {}), 5000);
  return () => { offs.forEach(f => f()); clearInterval(tick); clearInterval(poll); };
}

export async function terminalPage(view, id, health) {
  if (!health.features.terminals) return unavailable(view);
  let t = await get('/api/terminals/' + id);
  let conn = null;
  const send = (msg) => conn && conn.send(msg);
  const sendKey = (key) => send({ type: 'key', key });
  const screen = new TerminalView(send);
  const badges = h('div#term-badges');
  const choices = h('div#term-choices');
  const links = h('div#term-links');
  const log = h('div.events#term-events');
  const captureBox = h('div.form-row');
  const size = h('span#term-size.small.muted');
  const status = h('p.muted.small#term-status');

  const renderState = () => {
    put(badges, stateBadges(t));
    put(choices, choiceButtons(t, sendKey));
    put(links, prLinks(t));
  };
  const renderSize = (cols, rows) => { size.textContent = cols + ' × ' + rows; };
  const renderCapture = () => {
    const on = t.capture && t.capture.active;
    put(captureBox,
        h('button', { onclick: async () => { t.capture = on ? await del('/api/terminals/' + id + '/capture') : await post('/api/terminals/' + id + '/capture'); renderCapture(); } },
            on ? 'Stop capture' : 'Start capture'),
        t.capture && t.capture.bytes > 0 ? h('a', { href: '/api/terminals/' + id + '/capture.tcap', download: id + '.tcap' }, 'Download .tcap') : null);
  };

  const resumeCard = autoResumeCard(id);
  view.append(
      h('div.page-head', h('h1', t.title), h('a', { href: '#/terminals' }, '← All terminals')),
      h('div.term-layout',
          h('div', screen.el, status),
          h('div.side',
              h('div.card', h('h3', 'State'), badges, h('div', { style: 'height:8px' }), choices, links),
              resumeCard.el,
              h('div.card', h('h3', 'Terminal'),
                  h('div.small.muted', t.argv.join(' ')),
                  h('div.small.muted', t.cwd || ''),
                  h('div.small.muted', 'Size ', size, ' (follows this box)'),
                  h('div', { style: 'height:8px' }), captureBox,
                  h('div.form-row', { style: 'margin-top:8px' },
                      h('a', { href: '/api/terminals/' + id + '/snapshot?format=text', target: '_blank', rel: 'noopener' }, 'Text snapshot'),
                      h('button.danger#kill', { onclick: async () => { await del('/api/terminals/' + id); location.hash = '#/terminals'; } }, 'Kill'))),
              h('div.card', h('h3', 'Events'), log))));
  renderState();
  renderCapture();
  renderSize(t.cols, t.rows);
  status.textContent = 'Click the terminal and type: keys, paste and the mouse go to the program. Links open in a new tab.';
  screen.open();

  conn = attachTerminal(id, screen, {
    size: renderSize,
    state: (terminal) => { t = terminal; renderState(); },
    exit: (code) => { status.textContent = 'The program exited with status ' + code + '.'; },
    event: (ev) => {
      log.prepend(h('div', h('strong', ev.type), ' ', h('span.muted', summarize(ev))));
      while (log.childElementCount > 200) log.lastChild.remove();
    },
  });
  const tick = setInterval(() => updateCountdowns(badges), 1000);
  return () => { conn.close(); clearInterval(tick); screen.dispose(); resumeCard.dispose(); };
}

function summarize(ev) {
  const { type, ...rest } = ev;
  const s = JSON.stringify(rest);
  return s.length > 160 ? s.slice(0, 157) + '…' : s;
}

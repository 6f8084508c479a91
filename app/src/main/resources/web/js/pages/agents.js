// Agents: every agent session (awaiting input first) and "New agent"; one page per session with the
// live terminal beside the transcript tailing live, the parsed state, the worktree's diff and the
// actions (send, answer, stop, resume, merge, discard).
import { get, post, del } from '../api.js';
import { h, put, clear, notice, fmtTime, fmtNumber } from '../dom.js';
import * as events from '../events.js';
import { TerminalView, attachTerminal } from './terminal-view.js';
import { renderEntry } from './history.js';
import { autoResumeCard } from './auto-resume.js';

const AGENTS = ['claude', 'codex', 'gemini', 'aider', 'opencode', 'copilot', 'command'];

function unavailable(view) {
  clear(view).append(notice('Agent sessions are not available in this build',
      h('p', 'This server was built without the agents module.')));
}

function phaseBadge(a) {
  const p = a.status.phase;
  const cls = { awaiting_input: 'badge.awaiting', rate_limited: 'badge.rate-limited', busy: 'badge.busy', idle: 'badge.idle',
    ended: 'badge.exited', worktree_missing: 'badge.error' }[p] || 'badge';
  return h('span.' + cls + '.phase', { dataset: { phase: p } }, p.replace('_', ' '));
}

function tokensText(a) {
  const t = a.tokens;
  if (!t) return '—';
  // Cache writes are billed (1.25× input on Anthropic's 5-minute cache): they belong on the line.
  return 'in ' + fmtNumber(t.input) + ' · out ' + fmtNumber(t.output) + ' · cache read ' + fmtNumber(t.cache_read)
      + ' · cache write ' + fmtNumber(t.cache_creation || 0);
}

function costText(a) {
  const ours = a.cost_usd === null || a.cost_usd === undefined ? '—' : '$' + a.cost_usd.toFixed(4);
  // The agent's own figure beside ours (Claude Code records one when it exits): a difference shows at once.
  return a.agent_cost_usd === null || a.agent_cost_usd === undefined ? ours
      : ours + ' (agent says $' + a.agent_cost_usd.toFixed(4) + ')';
}

export async function agentsPage(view, health) {
  if (!health.features.agents) return unavailable(view);
  const err = h('p.error-text#new-agent-error');
  const agent = h('select#agent-kind', AGENTS.map(n => h('option', { value: n }, n)));
  const repo = h('input#agent-repo', { placeholder: '/path/to/repository', size: 32, required: true });
  const name = h('input#agent-worktree', { placeholder: 'worktree name (optional)', size: 18 });
  const base = h('input#agent-base', { placeholder: 'base ref (default HEAD)', size: 14 });
  const inPlace = h('input#agent-in-place', { type: 'checkbox' });
  const command = h('input#agent-command', { placeholder: 'command (optional)', size: 16 });
  const prompt = h('input#agent-prompt', { placeholder: 'first prompt (optional)', size: 40 });
  const form = h('form.card#new-agent', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      const body = { agent: agent.value, repo: repo.value.trim() };
      if (name.value.trim()) body.worktree = name.value.trim();
      if (base.value.trim()) body.base = base.value.trim();
      if (inPlace.checked) body.in_place = true;
      if (command.value.trim()) body.command = command.value.trim();
      if (prompt.value.trim()) body.prompt = prompt.value;
      try {
        const a = await post('/api/agents', body);
        location.hash = '#/agents/' + a.id;
      } catch (ex) { err.textContent = ex.message; }
    }
  }, h('h3', 'New agent'),
     h('div.form-row', h('label', 'Agent', agent), h('label', 'Repository', repo), h('label', 'Worktree', name),
         h('label', 'Base', base), h('label', inPlace, ' in place')),
     h('div.form-row', h('label', 'Prompt', prompt), h('label', 'Command', command),
         h('button.primary#start-agent', { type: 'submit' }, 'Start')), err);
  const list = h('div#agent-list');
  view.append(h('div.page-head', h('h1', 'Agents')), form, h('div', { style: 'height:14px' }), list);

  const render = async () => {
    const agents = await get('/api/agents');
    if (!agents.length) {
      put(list, h('p.muted#agents-empty', 'No agent sessions yet. Start one above: it gets its own git worktree on a new branch agentdesk/NAME.'));
      return;
    }
    put(list, h('table.list#agents',
        h('thead', h('tr', ['Agent', 'State', 'Repository', 'Branch', 'Tokens', 'Cost', 'Last activity'].map(c => h('th', c)))),
        h('tbody', agents.map(a => h('tr', { dataset: { id: a.id } },
            h('td', h('a', { href: '#/agents/' + a.id }, a.agent + ' · ' + a.name)),
            h('td', phaseBadge(a), a.status.question ? h('div.small.muted', a.status.question) : null),
            h('td', h('code', a.repo)), h('td', h('code', a.branch)),
            h('td.small', tokensText(a)), h('td.small', costText(a)),
            h('td.small', fmtTime(a.last_activity_at || a.created_at)))))));
  };
  await render();
  let pending = null;
  const refresh = () => { clearTimeout(pending); pending = setTimeout(render, 150); };
  const offs = [events.on('agent', refresh), events.on('agent-removed', refresh)];
  return () => offs.forEach(off => off());
}

export async function agentPage(view, id, health) {
  if (!health.features.agents) return unavailable(view);
  let a = await get('/api/agents/' + id);
  const head = h('div.page-head', h('h1#agent-title'), h('a', { href: '#/agents' }, '← All agents'));
  const meta = h('div.card#agent-meta');
  const state = h('div.card#agent-state');
  const actions = h('div.card#agent-actions');
  const transcript = h('div.entries#agent-transcript');
  const diff = h('div#agent-diff');
  // The agent's PTY keeps the size it was started with; "Fit to window" resizes it on purpose.
  const screen = new TerminalView((msg) => term && term.send(msg), { autoFit: false });
  const fit = h('button.small#agent-fit', { type: 'button', title: 'Resize the agent\'s terminal to this box',
    onclick: () => screen.fitToBox() }, 'Fit to window');
  const termBox = h('div#agent-terminal', h('div.term-tools', fit), h('div.term-scroll', screen.el));
  let term = null;

  const renderMeta = () => {
    put(head.firstChild, a.agent + ' · ' + a.name, ' ', phaseBadge(a));
    put(meta, h('dl.meta',
        h('dt', 'Repository'), h('dd', h('code', a.repo)),
        h('dt', 'Worktree'), h('dd', h('code', a.worktree)),
        h('dt', 'Branch'), h('dd', h('code', a.branch), ' from ', h('code', a.base)),
        h('dt', 'Transcript'), h('dd#agent-transcript-link', a.transcript
            ? h('a', { href: '#/history/sessions/' + encodeURIComponent(a.transcript.session_id) }, a.transcript.provider + ' ' + a.transcript.session_id)
            : a.transcript_status),
        h('dt', 'Tokens'), h('dd#agent-tokens', tokensText(a)),
        h('dt', 'Cost'), h('dd', costText(a)),
        h('dt', 'Started'), h('dd', fmtTime(a.created_at)),
        h('dt', 'Last activity'), h('dd', fmtTime(a.last_activity_at || a.created_at))));
  };
  // A parsed event links to the transcript entry it corresponds to: the last one whose text, or
  // whose tool call's input, contains the event's text.
  let entries = [];
  const jumpTo = (text) => {
    if (!text) return null;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      const hay = (e.text || '') + (e.type === 'tool_call' ? JSON.stringify(e.input || '') : '');
      if (hay.includes(text)) {
        const ref = e.uuid || e.id;
        if (!ref) return null;
        return h('a.small.jump', { href: '#', dataset: { ref }, onclick: (ev) => {
          ev.preventDefault();
          const el = [...transcript.querySelectorAll('[data-ref]')].find(x => x.dataset.ref === ref);
          if (el) { if (el.tagName === 'DETAILS') el.open = true; el.classList.add('target'); el.scrollIntoView({ block: 'center' }); }
        } }, ' in transcript');
      }
    }
    return null;
  };
  const renderState = () => {
    const st = a.status;
    const s = a.state || {};
    put(state, h('h3', 'State'),
        st.question ? h('p#agent-question', h('strong', 'Asks: '), st.question, jumpTo(st.question)) : null,
        st.choice ? h('div.form-row#agent-choices', st.choice.options.map(o =>
            h('button' + (o.destructive ? '.danger' : ''), { dataset: { option: o.index },
              onclick: () => post('/api/agents/' + id + '/input', { answer: o.index }).catch(showError) },
              o.index + '. ' + o.label))) : null,
        s.rate_limited_until ? h('p', 'Rate limited until ', fmtTime(s.rate_limited_until), s.rate_limit_text ? ' — ' + s.rate_limit_text : '') : null,
        (s.pr_urls || []).length ? h('p', 'Pull requests: ', s.pr_urls.map(p => [h('a', { href: p.url, target: '_blank', rel: 'noopener' }, p.number ? '#' + p.number : p.url), jumpTo(p.url), ' '])) : null,
        s.last_api_error ? h('p.error-text', 'API error: ', s.last_api_error.text, jumpTo(s.last_api_error.text)) : null,
        h('p.small.muted', 'evidence: ' + st.evidence + (st.cleared_by_transcript ? ' · the transcript cleared a terminal question' : '')));
  };
  const actionErr = h('p.error-text#agent-action-error');
  function showError(e) { actionErr.textContent = e.message; }
  const sendBox = h('input#agent-send', { placeholder: 'prompt', size: 40 });
  const renderActions = () => {
    const running = a.lifecycle === 'running';
    put(actions, h('h3', 'Actions'),
        h('form.form-row', { onsubmit: (e) => { e.preventDefault(); const text = sendBox.value; if (!text) return;
            post('/api/agents/' + id + '/input', { text }).then(() => { sendBox.value = ''; }).catch(showError); } },
          sendBox, h('button', { type: 'submit', disabled: running ? null : true }, 'Send')),
        h('div.form-row', { style: 'margin-top:8px' },
          running ? h('button#agent-stop', { onclick: () => post('/api/agents/' + id + '/stop').catch(showError) }, 'Stop')
                  : h('button#agent-resume', { onclick: () => post('/api/agents/' + id + '/resume').then(connectTerminal).catch(showError) }, 'Resume'),
          a.in_place ? null : h('button.primary#agent-merge', { onclick: async () => {
            try { const m = await post('/api/agents/' + id + '/merge'); actionErr.textContent = '';
              put(mergeNote, 'Merged into ' + m.base_branch + ' (' + m.kind.replace('_', '-') + ', ' + m.commit.slice(0, 10) + ').'); loadDiff(); }
            catch (e) { showError(e); } } }, 'Merge into ' + (a.base_branch || a.base)),
          h('button.danger#agent-discard', { onclick: async () => {
            if (!confirm(a.in_place ? 'Forget this session? The repository stays as it is.'
                : 'Discard the worktree ' + a.worktree + ' and the branch ' + a.branch + '? Its changes are lost.')) return;
            try { await del('/api/agents/' + id + '?discard=true'); location.hash = '#/agents'; } catch (e) { showError(e); } } },
            a.in_place ? 'Forget' : 'Discard')),
        mergeNote, actionErr);
  };
  const mergeNote = h('p.small#agent-merge-note');

  const loadDiff = async () => {
    try {
      const d = await get('/api/agents/' + id + '/diff');
      put(diff, d.files.length ? h('table.list#diff-files', h('tbody', d.files.map(f => h('tr',
              h('td', h('span.badge', f.status)), h('td', h('code', f.path)),
              h('td.added', '+' + f.added), h('td.removed', '−' + f.removed))))) : h('p.muted', 'No changes against ' + d.base + ' yet.'),
          renderPatch(d.patch));
    } catch (e) { put(diff, h('p.muted', e.message)); }
  };
  let shown = -1;
  let loads = 0;
  const loadTranscript = async () => {
    if (!a.transcript) { put(transcript, h('p.muted', 'Transcript: ' + a.transcript_status + '.')); return; }
    const mine = ++loads;
    try {
      const d = await get('/api/agents/' + id + '/transcript');
      if (mine !== loads || d.entries.length === shown) return; // a later load is under way, or nothing new
      shown = d.entries.length;
      entries = d.entries;
      const atEnd = transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - 20;
      put(transcript, d.entries.map(renderEntry));
      if (atEnd) transcript.scrollTop = transcript.scrollHeight;
      renderState();
    } catch (e) { put(transcript, h('p.muted', e.message)); }
  };

  const resumeCard = autoResumeCard(id);
  view.append(head,
      h('div.agent-layout',
          h('div.agent-main', termBox, h('h2', 'Transcript'), transcript),
          h('div.side', state, resumeCard.el, actions, meta, h('div.card', h('h3', 'Changes'), diff))));
  renderMeta(); renderState(); renderActions();
  screen.open();
  function connectTerminal() {
    if (term) term.close();
    term = a.terminal_id ? attachTerminal(a.terminal_id, screen, {}) : null;
  }
  connectTerminal();
  await Promise.all([loadDiff(), loadTranscript()]);

  const offAgent = events.on('agent', (ev) => {
    if (ev.agent.id !== id) return;
    const newTerminal = ev.agent.terminal_id !== a.terminal_id;
    const grew = ev.agent.transcript_bytes_read !== a.transcript_bytes_read;
    a = ev.agent;
    renderMeta(); renderState(); renderActions();
    if (newTerminal) { connectTerminal(); resumeCard.reload(); }
    if (grew) loadTranscript();
  });
  const offRemoved = events.on('agent-removed', (ev) => { if (ev.agent_id === id) location.hash = '#/agents'; });
  // The transcript follows the file as it grows: the server reads new lines within a quarter of a
  // second and says so in an agent event (transcript_bytes_read), which refetches it above. The slow
  // poll only covers events lost while the socket reconnects.
  const poll = setInterval(() => { loadTranscript(); }, 3000);
  const diffPoll = setInterval(loadDiff, 3000);
  return () => { offAgent(); offRemoved(); clearInterval(poll); clearInterval(diffPoll); if (term) term.close(); screen.dispose(); resumeCard.dispose(); };
}

/** The unified diff, one line per row, coloured by its first character. */
function renderPatch(patch) {
  if (!patch) return null;
  return h('pre.patch#diff-patch', patch.split('\n').map(line => {
    const cls = line.startsWith('+++') || line.startsWith('---') ? 'file' : line.startsWith('@@') ? 'hunk'
        : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('diff ') ? 'file' : 'ctx';
    return h('span.line.' + cls, line + '\n');
  }));
}

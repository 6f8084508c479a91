// History: session list with filters and paging, search with highlighted snippets, session detail.
import { get, post, qs } from '../api.js';
import { h, clear, notice, fmtTime, fmtNumber } from '../dom.js';
import * as events from '../events.js';
import { costText } from './usage.js';
import { importStatus, onImportStatus } from './import-status.js';

const PAGE = 50;
const KIND = { message: 'message', tool_input: 'tool call', tool_output: 'tool result' };

function unavailable(view) {
  clear(view).append(notice('History is not available in this build',
      h('p', 'This server was built without the transcript history pillar, so there is nothing to list yet.')));
}

export async function historyPage(view, params, health) {
  if (!health.features.history) return unavailable(view);
  const q = params.get('q') || '';
  const provider = params.get('provider') || '';
  const project = params.get('project') || '';
  const offset = Math.max(0, parseInt(params.get('offset') || '0', 10) || 0);

  const [facets, status] = await Promise.all([get('/api/history/facets'), get('/api/history/import')]);
  const searchInput = h('input#history-search', { type: 'search', placeholder: 'Search messages and tool calls…', value: q, size: 40 });
  const providerSel = h('select#filter-provider', h('option', { value: '' }, 'All providers'),
      facets.providers.map(p => h('option', { value: p, selected: p === provider }, p)));
  const projectSel = h('select#filter-project', h('option', { value: '' }, 'All projects'),
      facets.projects.map(p => h('option', { value: p, selected: p === project }, p)));
  const go = (over) => {
    const next = { q: searchInput.value.trim(), provider: providerSel.value, project: projectSel.value, ...over };
    location.hash = '#/history' + qs(next);
  };
  providerSel.onchange = () => go({ offset: 0 });
  projectSel.onchange = () => go({ offset: 0 });
  const form = h('form.filters', { onsubmit: (e) => { e.preventDefault(); go({ offset: 0 }); } },
      h('label', searchInput), providerSel, projectSel,
      h('button.primary#search-button', { type: 'submit' }, 'Search'),
      q || provider || project ? h('a', { href: '#/history' }, 'Clear') : null);
  const body = h('div#history-body');
  view.append(h('div.page-head', h('h1', q ? 'Search' : 'History'),
      h('button#reimport', {
        title: 'Import what is new in the history folders now',
        onclick: async (e) => {
          const b = e.target;
          b.disabled = true;
          try { await post('/api/history/import'); b.textContent = 'Rescan requested'; }
          catch (ex) { b.textContent = ex.code === 'conflict' ? 'Import is off (--no-import)' : 'Rescan failed'; b.title = ex.message; }
          setTimeout(() => { b.disabled = false; b.textContent = 'Rescan folders'; }, 3000);
        }
      }, 'Rescan folders')), form, body);

  const render = async () => {
    if (q) return renderHits(body, await get('/api/history/search' + qs({ q, provider, project, limit: 50 })), q);
    const page = await get('/api/history/sessions' + qs({ provider, project, limit: PAGE, offset }));
    if (page.total === 0 && !provider && !project) return renderEmpty(body, importStatus() || status);
    renderList(body, page, (o) => go({ offset: o }));
  };
  await render();
  let pending = null;
  const offChanged = events.on('history-changed', () => {
    // Coalesce bursts from the tailer into one refresh a second.
    if (!pending) pending = setTimeout(() => { pending = null; render().catch(() => {}); }, 1000);
  });
  const offStatus = onImportStatus((s) => {
    if (body.querySelector('#history-empty')) renderEmpty(body, s);
  });
  return () => { offChanged(); offStatus(); clearTimeout(pending); };
}

function renderEmpty(body, s) {
  const roots = s.roots.map(r => h('li', h('code', r.path), ' — ', r.provider, ': ',
      r.exists ? h('span', 'found') : h('span.muted', 'not found on this machine')));
  const busy = s.phase === 'scanning' || s.phase === 'importing';
  clear(body).append(h('section.notice#history-empty',
      h('h2', busy ? 'Importing your history…' : 'No sessions yet'),
      s.phase === 'idle'
        ? h('p', 'This server was started with --no-import, so it does not read the history folders:')
        : h('p', 'agentdesk reads the session files of Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor, OpenCode, pi and Aider from these folders, imports them in the background and keeps watching them:'),
      h('ul', roots),
      busy ? h('p', 'Imported ' + s.files_done + ' of ' + s.files_total + ' files so far.') :
        s.phase === 'idle' ? null : h('p', 'New sessions appear here by themselves as soon as an agent writes them.'),
      h('p', 'To import files from other folders, restart the server with them, or import them from a shell:'),
      h('pre', 'agentdesk serve --claude DIR --codex DIR --gemini DIR --opencode DIR --copilot DIR --cursor DIR --pi DIR --aider DIR\nagentdesk history import --claude DIR --codex DIR … --db ' + s.database),
      s.last_error ? h('p.error-text', 'Last import problem: ' + s.last_error) : null));
}

function renderList(body, page, goOffset) {
  const rows = page.items.map(s => h('tr',
      h('td', h('a', { href: '#/history/sessions/' + encodeURIComponent(s.id) }, s.title || s.id)),
      h('td', h('span.badge.provider', s.source)),
      h('td', s.project || ''),
      h('td.num', fmtNumber(s.message_count)),
      h('td', fmtTime(s.started_at))));
  const from = page.total === 0 ? 0 : page.offset + 1;
  const to = page.offset + page.items.length;
  clear(body).append(h('div',
      h('table.list#sessions', h('thead', h('tr', h('th', 'Session'), h('th', 'Provider'), h('th', 'Project'),
          h('th', 'Messages'), h('th', 'Started'))), h('tbody', rows)),
      page.total === 0 ? h('p.muted', 'No session matches these filters.') : null,
      h('div.pager', h('button', { disabled: page.offset === 0, onclick: () => goOffset(Math.max(0, page.offset - page.limit)) }, '← Newer'),
          h('span.muted', from + '–' + to + ' of ' + page.total),
          h('button', { disabled: to >= page.total, onclick: () => goOffset(page.offset + page.limit) }, 'Older →'))));
}

function renderHits(body, result, q) {
  clear(body);
  if (result.hits.length === 0) {
    body.append(h('p.muted#no-hits', 'Nothing matches “' + q + '”.'));
    return;
  }
  body.append(h('p.muted', result.hits.length + (result.hits.length === 1 ? ' match' : ' matches') + ' for “' + q + '”'),
      h('div.hits#hits', result.hits.map(hit => h('div.hit',
          h('div', h('a.hit-link', { href: '#/history/sessions/' + encodeURIComponent(hit.session_id) + (hit.ref ? '?ref=' + encodeURIComponent(hit.ref) : '') },
              hit.session_title || hit.session_id), ' ', hit.source ? h('span.badge.provider', hit.source) : null,
              ' ', h('span.muted.small', [hit.project, KIND[hit.kind] || hit.kind, fmtTime(hit.timestamp)].filter(Boolean).join(' · '))),
          h('div.snippet', hit.snippet.map(part => part.hit ? h('mark', part.text) : part.text))))));
}

export async function sessionPage(view, idAndQuery, health) {
  if (!health.features.history) return unavailable(view);
  const [id, query] = idAndQuery.split('?');
  const ref = new URLSearchParams(query || '').get('ref');
  const sid = decodeURIComponent(id);
  const [detail, cost] = await Promise.all([
    get('/api/history/sessions/' + encodeURIComponent(sid)),
    get('/api/history/usage' + qs({ by: 'model', session: sid })).catch(() => null),
  ]);
  const s = detail.session;
  const u = s.usage || {};
  view.append(
      h('div.page-head', h('h1', s.title || s.id), h('a', { href: '#/history' }, '← All sessions')),
      h('div.card', h('dl.meta',
          h('dt', 'Provider'), h('dd', s.source),
          h('dt', 'Project'), h('dd', s.project || '—'),
          h('dt', 'Folder'), h('dd', h('code', s.cwd || '—')),
          s.git_branch ? [h('dt', 'Branch'), h('dd', s.git_branch)] : null,
          h('dt', 'When'), h('dd', fmtTime(s.started_at) + (s.ended_at ? ' → ' + fmtTime(s.ended_at) : '')),
          h('dt', 'Messages'), h('dd', String(s.message_count)),
          h('dt', 'Tokens'), h('dd', 'in ' + fmtNumber(u.input_tokens) + ' · out ' + fmtNumber(u.output_tokens) +
              ' · cache read ' + fmtNumber(u.cache_read_tokens) + ' · cache write ' + fmtNumber(u.cache_creation_tokens)),
          cost ? [h('dt', 'Cost'), h('dd#session-cost', costText(cost.total),
              cost.rows.length > 1 || cost.total.unpriced_responses > 0
                ? h('span.muted', ' (' + cost.rows.map(r => r.key + ' ' + costText(r)).join(', ') + ')') : null)] : null,
          h('dt', 'ID'), h('dd', h('code', s.id)))),
      h('div.entries#entries', detail.entries.map(renderEntry)));
  if (ref) {
    const target = [...view.querySelectorAll('[data-ref]')].find(el => el.dataset.ref === ref);
    if (target) {
      if (target.tagName === 'DETAILS') target.open = true;
      target.classList.add('target');
      target.scrollIntoView({ block: 'center' });
    }
  }
}

/** One entry of a session detail (message, thinking, tool call, …); the agent page uses it too. */
export function renderEntry(e) {
  switch (e.type) {
    case 'message':
      return h('div.entry', { class: 'entry message ' + (e.is_meta ? 'meta-entry' : e.role), dataset: { ref: e.uuid || '' } },
          h('div.who', h('strong', e.is_meta ? 'meta' : e.role), e.model ? h('span', e.model) : null,
              h('span', fmtTime(e.timestamp))),
          h('div.text', e.text || ''));
    case 'thinking': {
      const text = e.text || (Array.isArray(e.blocks) ? e.blocks.map(b => b.text || '').join('\n\n') : '');
      return h('details.entry.thinking', { dataset: { ref: e.uuid || '' } }, h('summary', 'Thinking' + (text ? '' : ' (not readable: encrypted or signature only)')),
          text ? h('div.text', text) : null);
    }
    case 'tool_call': {
      const r = e.result;
      return h('details.entry.tool', { open: r && r.is_error ? true : null, dataset: { ref: e.id || '' } },
          h('summary', h('strong', e.name), ' ', h('span.muted', e.presentation || ''),
              r ? (r.is_error ? h('span.badge.error', 'error') : null) : h('span.muted', ' (no result)')),
          h('pre.input', typeof e.input === 'string' ? e.input : JSON.stringify(e.input, null, 2)),
          r ? h('div.result', { class: 'result' + (r.is_error ? ' error' : '') }, h('pre', stringify(r.content))) : null,
          e.subagent ? renderSubagent(e.subagent) : null,
          e.workflow ? renderWorkflow(e.workflow) : null);
    }
    case 'summary':
      return h('div.entry.meta-entry', h('div.who', h('strong', 'summary')), h('div.text', e.text || e.summary || ''));
    default:
      return h('div.entry.meta-entry', h('div.who', h('strong', e.type)), h('pre', JSON.stringify(e, null, 2)));
  }
}

function stringify(v) {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

function renderSubagent(sa) {
  const body = h('div.subagent-entries');
  const box = h('details.subagent', {
    ontoggle: async () => {
      if (!box.open || body.dataset.loaded || !sa.session_id) return;
      body.dataset.loaded = '1';
      try {
        const d = await get('/api/history/sessions/' + encodeURIComponent(sa.session_id));
        clear(body).append(...d.entries.map(renderEntry));
      } catch (e) {
        clear(body).append(h('p.muted', 'The subagent transcript is not in the history: ' + e.message));
      }
    }
  }, h('summary', h('strong', 'Subagent'), ' ', [sa.type, sa.description].filter(Boolean).join(' — '),
        sa.duration_ms ? ' · ' + Math.round(sa.duration_ms / 1000) + ' s' : '',
        sa.total_tokens ? ' · ' + fmtNumber(sa.total_tokens) + ' tokens' : ''),
     sa.session_id ? body
       : Array.isArray(sa.entries) && sa.entries.length
         ? h('div.subagent-entries', h('p.muted', 'The subagent\'s thread, written into this session\'s file:'),
             ...sa.entries.map(renderEntry))
         : h('p.muted', 'No transcript was recorded for this subagent.'));
  return box;
}

function renderWorkflow(wf) {
  return h('div.subagent',
      h('div.who', h('strong', 'Workflow'), h('span', wf.status || ''), wf.run_id ? h('code', wf.run_id) : null),
      Array.isArray(wf.agents) ? wf.agents.map(a => h('div.small', [a.type || a.name, a.status].filter(Boolean).join(' · '))) : null);
}

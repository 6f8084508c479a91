// Usage: cost and tokens by day, cost by period (day, week, month in the browser's time zone), the
// 5-hour blocks with the active one as a gauge beside each provider's latest known usage windows
// (/api/history/limits), cost by model and by project, drawn as SVG from /api/history/usage. A model without a price is named as unpriced (cost_usd null), never drawn as $0.
import { get, qs } from '../api.js';
import { h, clear, notice, fmtNumber } from '../dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const KINDS = [
  { key: 'input_tokens', label: 'input', color: '#5aa9ff' },
  { key: 'output_tokens', label: 'output', color: '#3fb950' },
  { key: 'cache_creation_tokens', label: 'cache write', color: '#d29922' },
  { key: 'cache_read_tokens', label: 'cache read', color: '#a371f7' },
];

function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  kids.forEach(k => el.append(k));
  return el;
}

export async function usagePage(view, params, health) {
  if (!health.features.history) {
    return clear(view).append(notice('Usage is not available in this build',
        h('p', 'Usage comes from the transcript history, which this build does not include.')));
  }
  const days = Math.min(365, Math.max(1, parseInt(params.get('days') || '30', 10) || 30));
  const withCacheReads = params.get('cache_reads') === '1';
  const period = ['day', 'week', 'month'].includes(params.get('period')) ? params.get('period') : 'day';
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const since = new Date(Date.now() - 7 * 86400000).toISOString().slice(0, 10);
  const [byDay, byModel, byProject, byPeriod, byBlock, limits] = await Promise.all([
    get('/api/history/usage' + qs({ by: 'day' })),
    get('/api/history/usage' + qs({ by: 'model' })),
    get('/api/history/usage' + qs({ by: 'project' })),
    get('/api/history/usage' + qs({ by: period, timezone, order: 'desc', days: period === 'day' ? days : '' })),
    get('/api/history/usage' + qs({ by: 'block', timezone, since, order: 'desc' })),
    get('/api/history/limits').catch(() => ({ limits: [] })),
  ]);
  const kinds = KINDS.filter(k => withCacheReads || k.key !== 'cache_read_tokens');
  const daysSel = h('select#usage-days', [7, 30, 90, 365].map(d => h('option', { value: d, selected: d === days }, 'last ' + d + ' days')));
  const cacheBox = h('input#usage-cache-reads', { type: 'checkbox', checked: withCacheReads });
  const periodSel = h('select#usage-period', ['day', 'week', 'month'].map(p => h('option', { value: p, selected: p === period }, 'by ' + p)));
  const go = () => { location.hash = '#/usage' + qs({ days: daysSel.value, cache_reads: cacheBox.checked ? 1 : '', period: periodSel.value === 'day' ? '' : periodSel.value }); };
  daysSel.onchange = go;
  cacheBox.onchange = go;
  periodSel.onchange = go;
  view.append(h('div.page-head', h('h1', 'Usage'), daysSel, periodSel, h('label.muted', cacheBox, ' include cache reads')));
  if (byModel.rows.length === 0) {
    view.append(notice('No token usage yet', h('p', 'Usage is counted from imported sessions, each model response once. ',
        h('a', { href: '#/history' }, 'The history page'), ' says where agentdesk looks for them.')));
    return;
  }
  const warnings = byModel.warnings || [];
  if (warnings.length) {
    view.append(h('div.card.usage-warnings#usage-warnings', warnings.map(w => h('p.muted', '⚠ ' + w))));
  }
  // --mode auto (the API's default): the agents' own figure where they recorded one; both and the difference beside
  const t = byModel.total;
  const recorded = t.recorded_cost_usd === null || t.recorded_cost_usd === undefined ? null
      : h('p.muted#usage-recorded', 'Recorded by the agents themselves (Claude Code, OpenCode) for part of it: ' + fmtUsd(t.recorded_cost_usd)
          + ', where agentdesk calculates ' + fmtUsd(t.recorded_cost_usd - t.cost_difference_usd) + ' (difference '
          + (t.cost_difference_usd < 0 ? '−' : '+') + fmtUsd(Math.abs(t.cost_difference_usd)) + '); calculated in all: '
          + fmtUsd(t.calculated_cost_usd) + '.');
  view.append(h('div.card#usage-total', h('strong', 'Total cost: '), h('span#usage-total-cost', costText(byModel.total)),
      h('span.muted', ' · ' + byModel.total.responses.toLocaleString() + ' responses · prices: ' + pricesText(byModel.prices)),
      recorded || ''),
      h('h2', 'Cost by day'), costDayChart(byDay.rows, days),
      h('h2', { style: 'margin-top:18px' }, 'Tokens by day'), dayChart(byDay.rows, kinds, days),
      h('div.usage-side',
          h('div', h('h2', { style: 'margin-top:18px' }, '5-hour blocks (last 7 days, ' + timezone + ')'), blocksView(byBlock)),
          h('div', h('h2', { style: 'margin-top:18px' }, 'Usage limits (latest known)'), limitsView(limits))),
      h('h2', { style: 'margin-top:18px' }, 'Cost by ' + period + ' (' + timezone + ')'), periodTable(byPeriod, period),
      h('h2', { style: 'margin-top:18px' }, 'By model (all time)'), modelChart(byModel.rows, kinds),
      h('h2', { style: 'margin-top:18px' }, 'Cost by project (all time)'), projectTable(byProject.rows));
}

/** "$1.23", "$0.0042", "unpriced", or a "+" when part of the group had no price. */
export function costText(r) {
  if (!r || r.cost_usd === null || r.cost_usd === undefined) return r && r.responses > 0 ? 'unpriced' : '—';
  return fmtUsd(r.cost_usd) + (r.unpriced_responses > 0 ? '+' : '');
}

export function fmtUsd(v) {
  return v >= 1 ? '$' + v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : '$' + v.toFixed(4);
}

function pricesText(p) {
  if (!p) return '—';
  const src = (p.source || '').startsWith('@pydantic') ? 'genai-prices' : p.source;
  return src + ' ' + p.version + (p.published ? ' (' + p.published + ')' : '');
}

function unpricedNote(r) {
  return r.unpriced_models && r.unpriced_models.length ? h('span.muted.small', ' unpriced: ' + r.unpriced_models.join(', ')) : null;
}

function costDayChart(rows, days) {
  const end = new Date(); end.setUTCHours(0, 0, 0, 0);
  const dayList = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(new Date(end.getTime() - i * 86400000).toISOString().slice(0, 10));
  const byDay = new Map(rows.map(r => [r.key, r]));
  const peak = Math.max(0, ...dayList.map(d => (byDay.get(d) || {}).cost_usd || 0));
  if (peak === 0) {
    return h('div.chart#usage-cost-chart', h('p.muted', 'No priced usage in the last ' + days + ' days.'));
  }
  const max = peak * 1.1;
  const W = 1000, H = 200, L = 70, B = 28, T = 10;
  const bw = (W - L - 10) / dayList.length;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Cost per day', id: 'usage-cost-chart' });
  for (let i = 0; i <= 4; i++) {
    const y = T + (H - T - B) * (1 - i / 4);
    svg.append(s('line', { x1: L, x2: W - 10, y1: y, y2: y, stroke: '#2b313c' }),
        s('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmtUsd(max * i / 4)));
  }
  const every = Math.ceil(dayList.length / 10);
  dayList.forEach((d, i) => {
    const r = byDay.get(d);
    const x = L + i * bw + bw * 0.15;
    const v = r && r.cost_usd ? r.cost_usd : 0;
    if (v > 0) {
      const bh = (H - T - B) * v / max;
      svg.append(s('rect', { x, y: H - B - bh, width: Math.max(1, bw * 0.7), height: bh, fill: '#f0883e', class: 'cost-bar' },
          s('title', {}, `${d}: ${costText(r)}`)));
    }
    if (i % every === 0) svg.append(s('text', { x: x + bw * 0.35, y: H - 8, 'text-anchor': 'middle' }, d.slice(5)));
  });
  return h('div.chart', svg);
}

function projectTable(rows) {
  const sorted = [...rows].sort((a, b) => (b.cost_usd || 0) - (a.cost_usd || 0));
  return h('table.list#usage-project-table',
      h('thead', h('tr', h('th', 'Project'), h('th', 'Responses'), h('th', 'Input'), h('th', 'Output'), h('th', 'Cost'))),
      h('tbody', sorted.map(r => h('tr', h('td', r.key), h('td.num', r.responses.toLocaleString()),
          h('td.num', r.input_tokens.toLocaleString()), h('td.num', r.output_tokens.toLocaleString()),
          h('td.num', costText(r), unpricedNote(r))))));
}

function dayChart(rows, kinds, days) {
  const end = new Date(); end.setUTCHours(0, 0, 0, 0);
  const dayList = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(new Date(end.getTime() - i * 86400000).toISOString().slice(0, 10));
  const byDay = new Map(rows.map(r => [r.key, r]));
  const total = (r) => r ? kinds.reduce((a, k) => a + r[k.key], 0) : 0;
  const peak = Math.max(0, ...dayList.map(d => total(byDay.get(d))));
  if (peak === 0) {
    const latest = rows.map(r => r.key).filter(k => k !== 'unknown').sort().pop();
    return h('div.chart#usage-day-chart', h('p.muted', 'No tokens in the last ' + days + ' days.' +
        (latest ? ' The latest usage is from ' + latest + '; choose a longer period.' : '')));
  }
  const max = niceCeil(peak);
  const W = 1000, H = 260, L = 56, B = 28, T = 10;
  const bw = (W - L - 10) / dayList.length;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Tokens per day', id: 'usage-day-chart' });
  for (let i = 0; i <= 4; i++) {
    const y = T + (H - T - B) * (1 - i / 4);
    svg.append(s('line', { x1: L, x2: W - 10, y1: y, y2: y, stroke: '#2b313c' }),
        s('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmtNumber(Math.round(max * i / 4))));
  }
  const every = Math.ceil(dayList.length / 10);
  dayList.forEach((d, i) => {
    const r = byDay.get(d);
    const x = L + i * bw + bw * 0.15;
    let y = H - B;
    for (const k of kinds) {
      const v = r ? r[k.key] : 0;
      if (!v) continue;
      const bh = (H - T - B) * v / max;
      y -= bh;
      svg.append(s('rect', { x, y, width: Math.max(1, bw * 0.7), height: bh, fill: k.color },
          s('title', {}, `${d} · ${k.label}: ${v.toLocaleString()} tokens`)));
    }
    if (i % every === 0) svg.append(s('text', { x: x + bw * 0.35, y: H - 8, 'text-anchor': 'middle' }, d.slice(5)));
  });
  return h('div.chart', svg, legend(kinds));
}

/** The smallest 1, 2 or 5 × 10^n that is at least v, so the four grid lines get round labels. */
function niceCeil(v) {
  const step = v / 4;
  const p = Math.pow(10, Math.floor(Math.log10(step)));
  const m = [1, 2, 5, 10].find(x => x * p >= step);
  return Math.max(4, m * p * 4);
}

function modelChart(rows, kinds) {
  const total = (r) => kinds.reduce((a, k) => a + r[k.key], 0);
  const sorted = [...rows].sort((a, b) => total(b) - total(a));
  const max = Math.max(1, ...sorted.map(total));
  const rowH = 26, L = 220, W = 1000;
  const H = sorted.length * rowH + 10;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Tokens per model', id: 'usage-model-chart' });
  sorted.forEach((r, i) => {
    const y = 5 + i * rowH;
    svg.append(s('text', { x: L - 8, y: y + 16, 'text-anchor': 'end' }, r.key));
    let x = L;
    for (const k of kinds) {
      const w = (W - L - 90) * r[k.key] / max;
      if (w <= 0) continue;
      svg.append(s('rect', { x, y: y + 4, width: Math.max(1, w), height: rowH - 8, fill: k.color },
          s('title', {}, `${r.key} · ${k.label}: ${r[k.key].toLocaleString()} tokens`)));
      x += w;
    }
    svg.append(s('text', { x: x + 6, y: y + 16 }, fmtNumber(total(r))));
  });
  const table = h('table.list#usage-table', { style: 'margin-top:12px' },
      h('thead', h('tr', h('th', 'Model'), h('th', 'Responses'), h('th', 'Input'), h('th', 'Output'), h('th', 'Cache write'), h('th', 'Cache read'), h('th', 'Cost'))),
      h('tbody', sorted.map(r => h('tr', h('td', r.key), h('td.num', r.responses.toLocaleString()),
          h('td.num', r.input_tokens.toLocaleString()), h('td.num', r.output_tokens.toLocaleString()),
          h('td.num', r.cache_creation_tokens.toLocaleString()), h('td.num', r.cache_read_tokens.toLocaleString()),
          h('td.num', { class: r.cost_usd === null ? 'unpriced' : '' }, costText(r))))));
  return h('div', h('div.chart', svg, legend(kinds)), table);
}

function legend(kinds) {
  return h('div.legend', kinds.map(k => h('span', { style: '--c:' + k.color }, k.label)));
}

/** Each period's responses, tokens and cost, newest first; the total is the sum of the rows. */
function periodTable(report, period) {
  return h('table.list#usage-period-table',
      h('thead', h('tr', h('th', period[0].toUpperCase() + period.slice(1)), h('th', 'Responses'), h('th', 'Input'), h('th', 'Output'), h('th', 'Cost'))),
      h('tbody', report.rows.map(r => h('tr', h('td', r.key), h('td.num', r.responses.toLocaleString()),
          h('td.num', r.input_tokens.toLocaleString()), h('td.num', r.output_tokens.toLocaleString()),
          h('td.num', costText(r), unpricedNote(r))))),
      h('tfoot', h('tr', h('th', 'Total'), h('th.num', report.total.responses.toLocaleString()),
          h('th.num', report.total.input_tokens.toLocaleString()), h('th.num', report.total.output_tokens.toLocaleString()),
          h('th.num', costText(report.total)))));
}

/** The active block as a gauge (time gone of its 5 hours, burn rate, projection), then the recent blocks. */
function blocksView(report) {
  const blocks = report.blocks || [];
  const active = blocks.find(b => b.active);
  const fmtTime = (iso) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  let gauge;
  if (active) {
    const frac = Math.min(1, active.elapsed_minutes / 300);
    const W = 1000, H = 34;
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Active block', id: 'usage-block-gauge' },
        s('rect', { x: 0, y: 4, width: W, height: 26, rx: 4, fill: '#2b313c' }),
        s('rect', { x: 0, y: 4, width: Math.max(2, W * frac), height: 26, rx: 4, fill: active.over_limit ? '#f85149' : '#3fb950', class: 'gauge-fill' },
            s('title', {}, Math.round(frac * 100) + '% of the block gone')));
    const left = Math.floor(active.remaining_minutes / 60) + 'h' + String(active.remaining_minutes % 60).padStart(2, '0') + 'm';
    gauge = h('div.card#usage-active-block', svg,
        h('p', h('strong', 'Active block '), fmtTime(active.start) + ' – ' + fmtTime(active.end) + ': ',
            h('span#usage-block-left', left + ' left'), ' · ' + fmtNumber(Math.round(active.tokens_per_minute)) + ' tokens/min · ' +
            fmtUsd(active.usd_per_hour || 0) + '/h · projected ' + fmtNumber(active.projected_tokens) + ' tokens, ' +
            fmtUsd(active.projected_cost_usd || 0) + ' at its end'));
  } else {
    gauge = h('div.card#usage-active-block', h('p.muted', 'No active block: none of the last five hours had a response.'));
  }
  const table = h('table.list#usage-blocks',
      h('thead', h('tr', h('th', 'Block'), h('th', 'Responses'), h('th', 'Tokens'), h('th', 'Cost'), h('th', 'Models'))),
      h('tbody', blocks.map(b => h('tr', { class: b.active ? 'active' : '' }, h('td', fmtTime(b.start) + ' – ' + fmtTime(b.end) + (b.active ? ' (active)' : '')),
          h('td.num', b.responses.toLocaleString()), h('td.num', b.tokens.toLocaleString()),
          h('td.num', b.cost_usd === null ? 'unpriced' : fmtUsd(b.cost_usd)), h('td', b.models.join(', '))))));
  return h('div', gauge, blocks.length ? table : h('p.muted', 'No blocks in the last 7 days.'));
}

/** Each provider's latest known windows: how full (a bar), how long, when they reset. */
function limitsView(report) {
  const limits = (report && report.limits) || [];
  if (!limits.length) {
    return h('div.card#usage-limits', h('p.muted', 'No limits known yet. Codex writes its windows into its rollouts;'
        + ' supervised terminals add the usage and rate limits they show.'));
  }
  const fmtTime = (iso) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const span = (m) => m >= 1440 ? Math.floor(m / 1440) + 'd' + (m % 1440 >= 60 ? String(Math.floor((m % 1440) / 60)).padStart(2, '0') + 'h' : '')
      : Math.floor(m / 60) + 'h' + String(m % 60).padStart(2, '0') + 'm';
  const length = (m) => m === null ? '' : (m % 1440 === 0 ? m / 1440 + 'd' : m % 60 === 0 ? m / 60 + 'h' : m + ' min') + ' window';
  return h('div.card#usage-limits', limits.map(l => {
    const used = l.used_percent;
    const W = 300, H = 14;
    const bar = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', height: H, role: 'img', 'aria-label': l.provider + ' ' + l.window },
        s('rect', { x: 0, y: 0, width: W, height: H, rx: 3, fill: '#2b313c' }),
        used === null ? s('g', {}) : s('rect', { x: 0, y: 0, width: Math.max(2, W * Math.min(100, used) / 100), height: H, rx: 3,
          fill: l.has_reset ? '#6e7681' : used >= 90 ? '#f85149' : used >= 70 ? '#d29922' : '#3fb950', class: 'limit-fill' }));
    const reset = l.resets_at === null ? 'reset time not reported'
        : l.has_reset ? 'has reset (' + fmtTime(l.resets_at) + ')' : 'resets in ' + span(l.minutes_to_reset) + ' (' + fmtTime(l.resets_at) + ')';
    return h('div.usage-limit', { 'data-provider': l.provider, 'data-window': l.window },
        h('p', h('strong', l.provider + ' · ' + l.window), ' ', h('span.limit-used', used === null ? '' : Math.round(used) + '%'),
            h('span.muted', ' ' + length(l.window_minutes))),
        bar,
        h('p.muted', reset + ' · reported ' + fmtTime(l.observed_at) + ' by ' + (l.origin === 'terminal' ? 'a terminal' : 'its transcript')));
  }));
}

// Usage: tokens by day, stacked by model, drawn as SVG from /api/history/usage.
import { get, qs } from '../api.js';
import { h, clear, notice, fmtNumber } from '../dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#5aa9ff', '#3fb950', '#d29922', '#a371f7', '#f0883e', '#f85149', '#39c5cf', '#db61a2', '#8b949e'];
const METRICS = {
  io: { label: 'input + output tokens', f: r => r.input_tokens + r.output_tokens },
  output: { label: 'output tokens', f: r => r.output_tokens },
  all: { label: 'all tokens incl. cache', f: r => r.input_tokens + r.output_tokens + r.cache_read_tokens + r.cache_creation_tokens },
};

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
  const metric = METRICS[params.get('metric')] ? params.get('metric') : 'io';
  const data = await get('/api/history/usage' + qs({ by: 'day_model', days }));
  const daysSel = h('select#usage-days', [7, 30, 90, 365].map(d => h('option', { value: d, selected: d === days }, 'last ' + d + ' days')));
  const metricSel = h('select#usage-metric', Object.entries(METRICS).map(([k, m]) => h('option', { value: k, selected: k === metric }, m.label)));
  const go = () => { location.hash = '#/usage' + qs({ days: daysSel.value, metric: metricSel.value }); };
  daysSel.onchange = go;
  metricSel.onchange = go;
  view.append(h('div.page-head', h('h1', 'Usage'), daysSel, metricSel));
  if (data.rows.length === 0) {
    view.append(notice('No token usage in this period', h('p', 'Usage is counted from imported sessions. ',
        h('a', { href: '#/history' }, 'See the history page'), ' for where agentdesk looks.')));
    return;
  }
  view.append(chart(data.rows, METRICS[metric].f, days), totals(data.rows));
}

function chart(rows, f, days) {
  const models = [...new Set(rows.map(r => r.model || 'unknown'))].sort();
  const color = (m) => COLORS[models.indexOf(m) % COLORS.length];
  const end = new Date(); end.setUTCHours(0, 0, 0, 0);
  const dayList = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(new Date(end.getTime() - i * 86400000).toISOString().slice(0, 10));
  const byDay = new Map(dayList.map(d => [d, new Map()]));
  for (const r of rows) {
    if (!byDay.has(r.day)) continue;
    const m = byDay.get(r.day);
    m.set(r.model || 'unknown', (m.get(r.model || 'unknown') || 0) + f(r));
  }
  const totalsPerDay = dayList.map(d => [...byDay.get(d).values()].reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totalsPerDay);
  const W = 1000, H = 280, L = 56, B = 28, T = 10;
  const bw = (W - L - 10) / dayList.length;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Tokens per day by model', id: 'usage-chart' });
  for (let i = 0; i <= 4; i++) {
    const y = T + (H - T - B) * (1 - i / 4);
    svg.append(s('line', { x1: L, x2: W - 10, y1: y, y2: y, stroke: '#2b313c' }),
        s('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmtNumber(Math.round(max * i / 4))));
  }
  dayList.forEach((d, i) => {
    let y = H - B;
    const x = L + i * bw + bw * 0.15;
    for (const m of models) {
      const v = byDay.get(d).get(m) || 0;
      if (!v) continue;
      const bh = (H - T - B) * v / max;
      y -= bh;
      svg.append(s('rect', { x, y, width: Math.max(1, bw * 0.7), height: bh, fill: color(m), rx: 1 },
          s('title', {}, `${d} · ${m}: ${v.toLocaleString()} tokens`)));
    }
    const every = Math.ceil(dayList.length / 10);
    if (i % every === 0) svg.append(s('text', { x: x + bw * 0.35, y: H - 8, 'text-anchor': 'middle' }, d.slice(5)));
  });
  return h('div.chart', svg, h('div.legend', models.map(m => h('span', { style: '--c:' + color(m) }, m))));
}

function totals(rows) {
  const by = new Map();
  for (const r of rows) {
    const k = r.model || 'unknown';
    const t = by.get(k) || { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0 };
    for (const f of Object.keys(t)) t[f] += r[f] || 0;
    by.set(k, t);
  }
  return h('table.list#usage-table', { style: 'margin-top:14px' },
      h('thead', h('tr', h('th', 'Model'), h('th', 'Input'), h('th', 'Output'), h('th', 'Cache read'), h('th', 'Cache write'))),
      h('tbody', [...by.entries()].sort((a, b) => b[1].output_tokens - a[1].output_tokens).map(([m, t]) => h('tr',
          h('td', m), h('td.num', t.input_tokens.toLocaleString()), h('td.num', t.output_tokens.toLocaleString()),
          h('td.num', t.cache_read_tokens.toLocaleString()), h('td.num', t.cache_creation_tokens.toLocaleString())))));
}

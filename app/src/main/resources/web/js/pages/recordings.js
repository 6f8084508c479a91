// Recordings: the ACI recordings `serve` finds, and a player — the screen at a step with the current
// action drawn over it, a scrubber of every step with action markers, step/play at the recorded pace,
// the action list and the tree_text. Frames come composed from the server (one URL per frame, so
// steps that share a frame fetch it once); the step is in the URL (replaced, not pushed).
import { get, ApiError } from '../api.js';
import { h, clear, put, notice, fmtTime, fmtNumber } from '../dom.js';

const SPEEDS = [1, 2, 4, 8];
/** Play never waits longer than this for one recorded gap: a long idle stretch is not a hang. */
const MAX_GAP_MS = 2000;
const FRAME_CACHE = 48;

function unavailable(view) {
  clear(view).append(notice('Recordings are not available in this build',
      h('p', 'This server was built without the recording player.')));
}

export function fmtDuration(ms) {
  if (ms === null || ms === undefined) return '—';
  const s = ms / 1000;
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + ' s';
  const m = Math.floor(s / 60);
  if (m < 60) return m + ' min ' + Math.round(s - m * 60) + ' s';
  return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
}

function fmtBytes(n) {
  if (n === null || n === undefined) return '—';
  if (n >= 1 << 30) return (n / (1 << 30)).toFixed(1) + ' GiB';
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
  if (n >= 1 << 10) return (n / (1 << 10)).toFixed(0) + ' KiB';
  return n + ' B';
}

function ending(r) {
  if (r.ending.clean) return h('span.badge.idle', 'ended cleanly');
  return h('span.badge.error', { title: r.ending.reason }, 'cut');
}

export async function recordingsPage(view, health) {
  if (!health.features.recordings) return unavailable(view);
  const data = await get('/api/recordings');
  view.append(h('div.page-head', h('h1', 'Recordings'), h('span.muted.small', 'from ', h('code', data.folder))));
  if (!data.recordings.length) {
    view.append(h('section.notice#recordings-empty', h('h2', 'No recordings yet'),
        h('p', data.exists ? 'The recordings folder holds no recording.' : 'The recordings folder does not exist yet.'),
        h('p', 'Record a sandbox with ', h('code', 'agentdesk runtime --xvfb 1280x800 --token-file T --record'),
            ' (it records into this folder), or put a folder written by ', h('code', 'agentdesk aci record --out DIR'),
            ' here. Another folder: ', h('code', 'agentdesk serve --recordings DIR'), '.')));
    return;
  }
  const rows = data.recordings.map(r => {
    if (r.error) {
      return h('tr.recording-row.broken', { dataset: { id: r.id } }, h('td', h('code', r.id)),
          h('td', { colspan: 7 }, h('span.badge.error', r.error.code), ' ', h('span.error-text', r.error.message)));
    }
    return h('tr.recording-row', { dataset: { id: r.id } },
        h('td', h('a', { href: '#/recordings/' + encodeURIComponent(r.id) }, r.id)),
        h('td', fmtTime(r.started)), h('td.num', fmtDuration(r.duration_ms)), h('td.num', fmtNumber(r.actions)),
        h('td.num', fmtNumber(r.observations) + ' / ' + fmtNumber(r.frames)),
        h('td', r.screen ? r.screen.w + '×' + r.screen.h : '—'), h('td.num', fmtBytes(r.bytes)), h('td', ending(r)));
  });
  view.append(h('table.list#recording-list',
      h('thead', h('tr', ['Recording', 'Started', 'Length', 'Actions', 'Observations / frames', 'Screen', 'Size', 'End']
          .map(t => h('th', t)))),
      h('tbody', rows)));
}

export async function recordingPage(view, id, params, health) {
  if (!health.features.recordings) return unavailable(view);
  const rec = await get('/api/recordings/' + encodeURIComponent(id));
  const steps = rec.steps;
  const n = steps.length;
  if (!n) {
    view.append(notice('An empty recording', h('p', 'This recording holds no entry yet.')));
    return;
  }
  const actions = steps.filter(s => s.action);
  const base = '/api/recordings/' + encodeURIComponent(id);

  const canvas = h('canvas#rec-canvas', { width: 1, height: 1 });
  const marker = h('div#rec-marker', { hidden: true });
  const dragLine = h('div#rec-drag', { hidden: true });
  const empty = h('div#rec-no-frame.muted', 'No frame yet at this step');
  const stage = h('div.rec-stage', canvas, marker, dragLine, empty);
  const range = h('input#rec-range', { type: 'range', min: 0, max: n - 1, step: 1, value: 0, 'aria-label': 'Step' });
  const marks = h('canvas#rec-marks', { width: 1000, height: 28 });
  const label = h('span#rec-step.small');
  const play = h('button#rec-play', { title: 'Play at the recorded pace (Space)' }, '▶ Play');
  const speed = h('select#rec-speed', { title: 'Speed' }, SPEEDS.map(s => h('option', { value: s }, s + '×')));
  const detail = h('div#rec-detail.small');
  const list = h('ol#rec-actions.rec-actions');
  const tree = h('pre#rec-tree.rec-tree');
  const cut = rec.ending.clean ? null : h('p#recording-cut.notice-bar',
      h('strong', 'This recording was cut: '), rec.ending.reason, '. It plays up to the cut (the last step, ',
      fmtDuration(rec.duration_ms), ').');

  view.append(...[
      h('div.page-head', h('h1', id), h('a', { href: '#/recordings' }, '← All recordings'),
          h('span.muted.small', [fmtTime(rec.started), fmtDuration(rec.duration_ms), n + ' steps',
            rec.actions + ' actions', rec.frames + ' frames', rec.screen ? rec.screen.w + '×' + rec.screen.h : null]
              .filter(Boolean).join(' · '))),
      cut,
      h('div.rec-layout',
          h('div.rec-main', stage,
              h('div.rec-scrub', marks, range),
              h('div.form-row.rec-controls',
                  h('button#rec-first', { title: 'First step (Home)', onclick: () => go(0) }, '⏮'),
                  h('button#rec-prev-action', { title: 'Previous action (Shift+←)', onclick: () => go(prevAction(cur)) }, '⏪'),
                  h('button#rec-prev', { title: 'Step back (←)', onclick: () => go(cur - 1) }, '◀'),
                  play,
                  h('button#rec-next', { title: 'Step forward (→)', onclick: () => go(cur + 1) }, '▶'),
                  h('button#rec-next-action', { title: 'Next action (Shift+→)', onclick: () => go(nextAction(cur)) }, '⏩'),
                  h('button#rec-last', { title: 'Last step (End)', onclick: () => go(n - 1) }, '⏭'),
                  speed, label),
              detail),
          h('div.side.rec-side',
              h('section.card', h('h3', 'Actions (' + actions.length + ')'), list),
              h('section.card', h('h3', 'Accessibility tree'), tree)))].filter(Boolean));

  const items = new Map();
  for (const s of actions) {
    const li = h('li', { dataset: { step: s.index }, onclick: () => go(s.index) },
        h('span.muted', fmtDuration(s.t_ms) + ' '), s.action.label);
    items.set(s.index, li);
    list.append(li);
  }
  drawMarks();

  // ---- frames: fetched once per frame step, kept as bitmaps (the newest FRAME_CACHE) ----
  const bitmaps = new Map();
  let shownFrame = -2;
  async function bitmap(f) {
    if (bitmaps.has(f)) {
      const b = bitmaps.get(f);
      bitmaps.delete(f);
      bitmaps.set(f, b);
      return b;
    }
    const res = await fetch(base + '/frame?step=' + f, { credentials: 'same-origin' });
    if (!res.ok) {
      let body = null;
      try { body = await res.json(); } catch { /* not JSON */ }
      throw new ApiError(res.status, body && body.code || 'http_' + res.status, body && body.message || res.statusText);
    }
    const b = await createImageBitmap(await res.blob(), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
    bitmaps.set(f, b);
    while (bitmaps.size > FRAME_CACHE) {
      const oldest = bitmaps.keys().next().value;
      bitmaps.get(oldest).close();
      bitmaps.delete(oldest);
    }
    return b;
  }

  async function drawFrame(k) {
    const f = steps[k].frame;
    if (f === shownFrame) return;
    if (f < 0) {
      shownFrame = f;
      canvas.hidden = true;
      empty.hidden = false;
      canvas.dataset.frame = '-1';
      return;
    }
    let b;
    try {
      b = await bitmap(f);
    } catch (e) {
      if (steps[cur].frame !== f) return;
      canvas.hidden = true;
      empty.hidden = false;
      empty.textContent = 'This frame cannot be shown: ' + e.message;
      return;
    }
    if (steps[cur].frame !== f) return; // the user moved on while it loaded
    canvas.width = b.width;
    canvas.height = b.height;
    canvas.getContext('2d').drawImage(b, 0, 0);
    canvas.hidden = false;
    empty.hidden = true;
    empty.textContent = 'No frame yet at this step';
    shownFrame = f;
    canvas.dataset.frame = String(f);
  }

  // ---- the current action over the frame ----
  /** The latest action at or before k: what the screen is showing the effect of. */
  function currentAction(k) {
    for (let i = k; i >= 0; i--) if (steps[i].action) return steps[i];
    return null;
  }

  function frameGeometry(f) {
    const o = steps[f] && steps[f].observation;
    const w = o && o.w || canvas.width;
    const hh = o && o.h || canvas.height;
    if (o && o.source) return o.source;
    if (rec.screen) return { x: 0, y: 0, w: rec.screen.w, h: rec.screen.h };
    return { x: 0, y: 0, w, h: hh };
  }

  function place(el, p, src) {
    el.style.left = ((p.x - src.x) / src.w * 100) + '%';
    el.style.top = ((p.y - src.y) / src.h * 100) + '%';
  }

  function drawMarker(k) {
    const a = currentAction(k);
    const f = steps[k].frame;
    marker.hidden = true;
    dragLine.hidden = true;
    if (!a || !a.action.at || f < 0) return;
    const src = frameGeometry(f);
    const inside = (p) => p.x >= src.x && p.y >= src.y && p.x <= src.x + src.w && p.y <= src.y + src.h;
    if (!inside(a.action.at)) return;
    place(marker, a.action.at, src);
    marker.dataset.verb = a.action.verb;
    marker.dataset.step = a.index;
    marker.title = a.action.label;
    marker.classList.toggle('now', a.index === k);
    marker.hidden = false;
    if (a.action.to && inside(a.action.to)) {
      const x1 = (a.action.at.x - src.x) / src.w, y1 = (a.action.at.y - src.y) / src.h;
      const x2 = (a.action.to.x - src.x) / src.w, y2 = (a.action.to.y - src.y) / src.h;
      const r = stage.getBoundingClientRect();
      const dx = (x2 - x1) * r.width, dy = (y2 - y1) * r.height;
      dragLine.style.left = (x1 * 100) + '%';
      dragLine.style.top = (y1 * 100) + '%';
      dragLine.style.width = Math.hypot(dx, dy) + 'px';
      dragLine.style.transform = 'rotate(' + Math.atan2(dy, dx) + 'rad)';
      dragLine.hidden = false;
    }
  }

  // ---- the scrubber: frames below the track, actions above it, the cut at the end ----
  function drawMarks() {
    const w = marks.clientWidth || 1000;
    marks.width = w;
    const ctx = marks.getContext('2d');
    ctx.clearRect(0, 0, w, marks.height);
    const x = (i) => n === 1 ? w / 2 : 8 + (w - 16) * i / (n - 1);
    ctx.fillStyle = '#30363d';
    for (const s of steps) if (s.observation && s.frame === s.index) ctx.fillRect(Math.round(x(s.index)), 18, 1, 10);
    ctx.fillStyle = '#f2cc60';
    for (const s of actions) ctx.fillRect(Math.round(x(s.index)) - 1, 2, 2, 12);
    if (!rec.ending.clean) {
      ctx.fillStyle = '#f85149';
      ctx.fillRect(w - 8, 0, 4, marks.height);
    }
  }

  function prevAction(k) {
    for (let i = k - 1; i >= 0; i--) if (steps[i].action) return i;
    return 0;
  }

  function nextAction(k) {
    for (let i = k + 1; i < n; i++) if (steps[i].action) return i;
    return n - 1;
  }

  function describe(s) {
    const parts = [h('strong', 'step ' + s.index), ' · ' + fmtDuration(s.t_ms) + ' · connection ' + s.conn + ' · '];
    if (s.event) parts.push('connection ' + s.event + (s.event === 'open' ? 'ed' : 'd'));
    else {
      parts.push((s.dir === 'c2s' ? 'client → runtime' : 'runtime → client') + ' · ' + s.type);
      if (s.action) parts.push(': ', h('code', s.action.label));
      if (s.observation) {
        const o = s.observation;
        parts.push(': ' + o.kind + (o.w ? ' ' + o.w + '×' + o.h : '') + (o.tiles ? ', ' + o.tiles + ' tiles' : '')
            + (o.frame_hash ? ', frame ' + o.frame_hash.slice(0, 12) : '') + (o.cause ? ' (for ' + o.cause + ')' : ''));
        if (o.problem) parts.push(h('div.error-text', o.problem));
      }
      if (s.ok === false) parts.push(h('div.error-text', 'failed: ' + (s.error || 'no reason given')));
      else if (s.ok === true) parts.push(' ok');
    }
    if (s.index === n - 1 && !rec.ending.clean) parts.push(h('div.error-text#rec-cut-here', 'The recording was cut here.'));
    return parts;
  }

  let cur = -1;
  let playing = null;
  let shownItem = null;

  async function show(k) {
    k = Math.max(0, Math.min(n - 1, k | 0));
    cur = k;
    const s = steps[k];
    range.value = String(k);
    label.textContent = 'step ' + k + ' / ' + (n - 1) + ' · ' + fmtDuration(s.t_ms) + ' of ' + fmtDuration(rec.duration_ms);
    put(detail, describe(s));
    const a = currentAction(k);
    if (shownItem) shownItem.classList.remove('current');
    shownItem = a ? items.get(a.index) : null;
    if (shownItem) {
      shownItem.classList.add('current');
      shownItem.scrollIntoView({ block: 'nearest' });
    }
    tree.textContent = s.tree >= 0 ? steps[s.tree].observation.tree_text : 'No accessibility tree observed yet.';
    tree.dataset.step = String(s.tree);
    history.replaceState(null, '', '#/recordings/' + encodeURIComponent(id) + '?step=' + k);
    canvas.dataset.step = String(k);
    await drawFrame(k);
    if (cur === k) drawMarker(k);
  }

  function go(k) {
    stop();
    return show(k);
  }

  function stop() {
    if (playing) clearTimeout(playing);
    playing = null;
    play.textContent = '▶ Play';
    play.dataset.playing = 'false';
  }

  function start() {
    if (cur >= n - 1) show(0);
    play.textContent = '⏸ Pause';
    play.dataset.playing = 'true';
    const tick = () => {
      if (cur >= n - 1) { stop(); return; }
      const gap = Math.min(MAX_GAP_MS, Math.max(0, steps[cur + 1].t_ms - steps[cur].t_ms)) / Number(speed.value);
      playing = setTimeout(async () => {
        await show(cur + 1);
        if (playing) tick();
      }, gap);
    };
    tick();
  }

  play.addEventListener('click', () => (playing ? stop() : start()));
  range.addEventListener('input', () => { stop(); show(Number(range.value)); });
  const onKey = (e) => {
    const t = e.target;
    if (t && (t === range || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    if (e.key === 'ArrowLeft') go(e.shiftKey ? prevAction(cur) : cur - 1);
    else if (e.key === 'ArrowRight') go(e.shiftKey ? nextAction(cur) : cur + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(n - 1);
    else if (e.key === ' ') (playing ? stop() : start());
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  const onResize = () => { drawMarks(); drawMarker(cur); };
  window.addEventListener('resize', onResize);
  // Tests and ./bench drive the player through this: show(k) resolves once step k's frame is drawn.
  canvas.player = { show: (k) => go(k), steps, frameUrl: (f) => base + '/frame?step=' + f };

  const wanted = parseInt(params.get('step') || '', 10);
  await show(Number.isFinite(wanted) ? wanted : firstFrame());

  function firstFrame() {
    for (let i = 0; i < n; i++) if (steps[i].frame >= 0) return i;
    return 0;
  }

  return () => {
    stop();
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('resize', onResize);
    for (const b of bitmaps.values()) b.close();
    bitmaps.clear();
  };
}

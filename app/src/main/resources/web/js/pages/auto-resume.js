// The auto-resume card of a terminal or agent session: the switch, the countdown to the resume,
// cancel, and what happened to the last limit. State comes from /api/auto-resume/{id} and the
// 'auto-resume' events.
import { get, put as putJson, del, ApiError } from '../api.js';
import * as events from '../events.js';
import { h, put } from '../dom.js';

export function autoResumeCard(session) {
  const el = h('div.card#auto-resume', h('h3', 'Auto-resume'));
  const body = h('div');
  el.append(body);
  let st = null;
  let missing = null;

  const render = () => {
    if (missing) { put(body, h('p.small.muted', missing)); return; }
    if (!st) { put(body, h('p.small.muted', 'Loading…')); return; }
    const p = st.plan;
    put(body,
        h('label.small', h('input#auto-resume-toggle', { type: 'checkbox', checked: st.enabled ? true : null,
          onchange: (e) => toggle(e.target.checked) }), ' Type the resume text by itself once a rate or usage limit resets'),
        st.override === null ? h('p.small.muted', st.all ? 'On for every session (serve --auto-resume).' : 'Off unless switched on here.') : null,
        p && p.state === 'scheduled' ? h('p#auto-resume-countdown', { dataset: { at: p.resume_at } }, countdown(p.resume_at),
            h('button#auto-resume-cancel', { onclick: cancel }, 'Cancel')) : null,
        p && p.state !== 'scheduled' ? h('p.small#auto-resume-last', lastText(p)) : null,
        p ? h('p.small.muted', 'Limit: ', p.limit_text) : null);
  };
  const load = async () => {
    try { st = await get('/api/auto-resume/' + session); missing = null; }
    catch (e) { if (e instanceof ApiError && e.status === 404) { missing = 'Not running in this server.'; } else { missing = e.message; } }
    render();
  };
  const toggle = async (on) => {
    try { st = await putJson('/api/auto-resume/' + session, { enabled: on }); } catch (e) { missing = e.message; }
    render();
  };
  const cancel = async () => {
    try { st = await del('/api/auto-resume/' + session + '/plan'); } catch (e) { await load(); return; }
    render();
  };
  const off = events.on('auto-resume', (ev) => { if (ev.session === session) { st = ev.auto_resume; missing = null; render(); } });
  const tick = setInterval(() => {
    const c = el.querySelector('#auto-resume-countdown');
    if (c && c.firstChild) c.firstChild.textContent = countdown(c.dataset.at);
  }, 1000);
  load();
  return { el, reload: load, dispose: () => { off(); clearInterval(tick); } };
}

function countdown(at) {
  const ms = Date.parse(at) - Date.now();
  const when = new Date(at).toLocaleTimeString();
  if (ms <= 0) return 'Resuming now (' + when + ') ';
  const s = Math.ceil(ms / 1000);
  const parts = s >= 3600 ? [Math.floor(s / 3600) + 'h', Math.floor(s % 3600 / 60) + 'm'] : s >= 60 ? [Math.floor(s / 60) + 'm', (s % 60) + 's'] : [s + 's'];
  return 'Resumes in ' + parts.join(' ') + ' (at ' + when + ') ';
}

function lastText(p) {
  const when = p.decided_at ? ' at ' + new Date(p.decided_at).toLocaleTimeString() : '';
  if (p.state === 'resumed') return 'Resumed' + when + ': ' + p.reason + '.';
  if (p.state === 'cancelled') return 'Not resumed' + when + ': ' + p.reason + '.';
  return 'Not resumed: ' + p.reason + '.';
}

// The settings panel: which events reach which channel, the sound, auto-resume's text and
// margin (saved to the server's notifications.json), the browser's permission, delivery counts.
import { get, put as putJson } from '../api.js';
import { h, put, fmtTime } from '../dom.js';
import { setSound } from '../notify.js';

const EVENTS = [
  ['awaiting_input', 'Awaiting input (a question or a menu)'],
  ['rate_limit', 'Rate or usage limit'],
  ['api_error', 'API error'],
  ['pr_opened', 'Pull request opened'],
  ['turn_finished', 'Turn finished'],
  ['exit_error', 'Exited with an error'],
  ['auto_resumed', 'Auto-resumed after a limit'],
];
const CHANNELS = ['browser', 'desktop', 'webhook'];

export async function settingsPage(view) {
  const o = await get('/api/notifications');
  const s = o.settings;
  const note = h('p.small#settings-saved');
  const permission = h('p#notify-permission-state');
  const renderPermission = () => {
    const p = 'Notification' in window ? Notification.permission : 'unsupported';
    put(permission, 'Browser notifications: ', h('strong', p), ' ',
        p === 'default' ? h('button#notify-permission', { onclick: () => Notification.requestPermission().then(renderPermission) }, 'Allow') : null,
        p === 'denied' ? h('span.small.muted', '(allow them in the browser\'s site settings)') : null);
  };
  renderPermission();
  const table = h('table.list#settings-routes',
      h('thead', h('tr', h('th', 'Event'), CHANNELS.map(c => h('th', c)))),
      h('tbody', EVENTS.map(([code, label]) => h('tr', h('td', label),
          CHANNELS.map(c => h('td', h('input', { type: 'checkbox', id: 'route-' + code + '-' + c,
            checked: (s.events[code] || []).includes(c) ? true : null })))))));
  const soundBox = h('input#setting-sound', { type: 'checkbox', checked: s.sound ? true : null });
  const text = h('input#setting-resume-text', { value: s.resume_text, size: 20 });
  const margin = h('input#setting-resume-margin', { type: 'number', min: 0, max: 3600, value: s.resume_margin_s });
  const save = async () => {
    const events = {};
    for (const [code] of EVENTS) events[code] = CHANNELS.filter(c => document.getElementById('route-' + code + '-' + c).checked);
    try {
      const saved = await putJson('/api/notifications/settings', { events, sound: soundBox.checked,
        resume_text: text.value, resume_margin_s: Number(margin.value) });
      setSound(saved.sound);
      note.className = 'small'; note.textContent = 'Saved' + (o.settings_file ? ' to ' + o.settings_file : ' (in memory only)') + '.';
    } catch (e) { note.className = 'small error-text'; note.textContent = e.message; }
  };
  const d = o.delivery;
  view.append(h('div#settings-page',
      h('div.page-head', h('h1', 'Settings')),
      h('div.card', h('h3', 'Notifications'), permission, table,
          h('p', h('label', soundBox, ' Play a sound with each browser notification')),
          h('p.small.muted', 'Desktop: ', o.channels.desktop ? 'on (the session bus of the machine running serve)' : 'off (serve found no desktop session bus)',
              ' · Webhooks: ', o.channels.webhooks.length ? o.channels.webhooks.map(w => w.url + ' (' + w.format + ')').join(', ') : 'none (serve --webhook URL)')),
      h('div.card', h('h3', 'Auto-resume'),
          h('p.small.muted', o.auto_resume_all ? 'On for every session (serve --auto-resume); turn it off per session on its page.'
              : 'Off unless switched on for a session (its page, or agent start --auto-resume).'),
          h('div.form-row', h('label', 'Resume text ', text), h('label', 'Seconds after the reset ', margin))),
      h('div.form-row', h('button.primary#settings-save', { onclick: save }, 'Save'), note),
      h('div.card', h('h3', 'Delivery'),
          h('p.small#delivery-counts', d.delivered + ' delivered · ' + d.pending + ' pending · ' + d.failed_attempts + ' failed attempts · '
              + d.dropped + ' dropped · ' + d.dropped_queue_full + ' refused (queue full)'),
          d.last_failure ? h('p.small.error-text', 'Last failure: ', d.last_failure) : null,
          h('h3', 'Recent'),
          o.recent.length ? h('ul.small#recent-notifications', o.recent.slice().reverse().slice(0, 20).map(n =>
              h('li', fmtTime(n.at), ' ', h('strong', n.title), n.text ? ' — ' + n.text : ''))) : h('p.small.muted', 'None yet.'))));
}

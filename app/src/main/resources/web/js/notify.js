// Toasts for what needs the user: a terminal starts waiting for input or hits a rate limit.
import { h } from './dom.js';
import * as events from './events.js';

const last = new Map(); // terminal id -> {awaiting, limited}

export function initNotifications() {
  const box = h('div.toasts#toasts', { role: 'status' });
  document.body.append(box);
  events.on('terminal-state', (ev) => {
    const s = ev.state || {};
    const prev = last.get(ev.terminal_id) || { awaiting: false, limited: false };
    const now = { awaiting: !!s.awaiting_input, limited: !!s.rate_limited_until };
    last.set(ev.terminal_id, now);
    const here = location.hash === '#/terminals/' + ev.terminal_id;
    if (now.awaiting && !prev.awaiting && !here) {
      toast(box, ev.terminal_id, 'awaiting', (s.choice_prompt && s.choice_prompt.title) || (s.question && s.question.text) || 'Waiting for your input');
    }
    if (now.limited && !prev.limited && !here) {
      toast(box, ev.terminal_id, 'rate-limited', 'Rate limited until ' + new Date(s.rate_limited_until).toLocaleTimeString());
    }
  });
  events.on('terminal-removed', (ev) => last.delete(ev.terminal_id));
}

function toast(box, id, kind, text) {
  const t = h('a.toast', { href: '#/terminals/' + id, class: 'toast ' + kind },
      h('strong', kind === 'awaiting' ? 'Terminal ' + id + ' needs you' : 'Terminal ' + id + ' is rate-limited'), h('span', text));
  box.append(t);
  setTimeout(() => t.remove(), 8000);
}

// What needs the user, wherever they are looking: the server's 'notification' events (routed to
// the browser by the settings) become browser notifications (Notification API; clicking one
// opens the session), a toast while the page is visible, and an optional sound. The page title
// counts the sessions awaiting input.
import { h } from './dom.js';
import { get } from './api.js';
import * as events from './events.js';

const ASKED = 'agentdesk.notifications.asked';
const awaitingTerminals = new Map(); // terminal id -> awaiting input
const awaitingAgents = new Map();    // agent id -> awaiting input
const agentTerminals = new Set();    // terminals that belong to an agent (counted as the agent)
let sound = false;
let audio = null;

export function initNotifications() {
  const box = h('div.toasts#toasts', { role: 'status' });
  document.body.append(box);
  get('/api/notifications').then((o) => { sound = !!o.settings.sound; }).catch(() => {});
  // Agents' terminals count as their agent; the event stream's snapshot lists terminals only.
  get('/api/agents').then((list) => { list.forEach(noteAgent); updateTitle(); }).catch(() => {});
  events.on('notification', (n) => show(box, n));
  events.on('terminal-state', (ev) => { awaitingTerminals.set(ev.terminal_id, !!(ev.state && ev.state.awaiting_input)); updateTitle(); });
  events.on('terminal-removed', (ev) => { awaitingTerminals.delete(ev.terminal_id); updateTitle(); });
  events.on('agent', (ev) => { noteAgent(ev.agent); updateTitle(); });
  events.on('agent-removed', (ev) => { awaitingAgents.delete(ev.agent_id); updateTitle(); });
  // Browsers only let a page ask from a user gesture; ask at the first one, once per browser.
  const askOnce = () => {
    document.removeEventListener('pointerdown', askOnce, true);
    document.removeEventListener('keydown', askOnce, true);
    if (!('Notification' in window) || Notification.permission !== 'default' || localStorage.getItem(ASKED)) return;
    localStorage.setItem(ASKED, '1');
    Notification.requestPermission().catch(() => {});
  };
  document.addEventListener('pointerdown', askOnce, true);
  document.addEventListener('keydown', askOnce, true);
}

function noteAgent(a) {
  awaitingAgents.set(a.id, !!(a.status && a.status.awaiting_input && a.lifecycle === 'running'));
  if (a.terminal_id) agentTerminals.add(a.terminal_id);
}

/** The settings panel changed the sound setting. */
export function setSound(on) { sound = !!on; }

/** How many sessions wait for the user (agents, and terminals that are not an agent's). */
export function awaitingCount() {
  let n = 0;
  for (const [id, on] of awaitingTerminals) if (on && !agentTerminals.has(id)) n++;
  for (const on of awaitingAgents.values()) if (on) n++;
  return n;
}

function updateTitle() {
  const n = awaitingCount();
  document.title = n > 0 ? '(' + n + ') agentdesk' : 'agentdesk';
}

function show(box, n) {
  const here = n.page && location.hash === n.page;
  if (here && !document.hidden) return; // the user is looking at that session
  if ('Notification' in window && Notification.permission === 'granted') {
    try {
      const note = new Notification(n.title, { body: n.text || '', tag: n.session + ':' + n.event });
      note.onclick = () => { window.focus(); if (n.page) location.hash = n.page; note.close(); };
    } catch { /* a browser without page notifications (some mobile ones) still gets the toast */ }
  }
  if (!document.hidden) toast(box, n);
  if (sound) beep();
}

function toast(box, n) {
  const kind = n.event === 'awaiting_input' ? 'awaiting' : n.event === 'rate_limit' ? 'rate-limited' : n.event.replace('_', '-');
  const t = h('a.toast', { href: n.page || '#/agents', class: 'toast ' + kind }, h('strong', n.title), n.text ? h('span', n.text) : null);
  box.append(t);
  setTimeout(() => t.remove(), 8000);
}

/** A short two-tone chime (Web Audio, nothing downloaded). */
function beep() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [880, 660].forEach((f, i) => {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.08, now + i * 0.15);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      o.connect(g).connect(audio.destination);
      o.start(now + i * 0.15);
      o.stop(now + i * 0.15 + 0.15);
    });
  } catch { /* no audio output */ }
}

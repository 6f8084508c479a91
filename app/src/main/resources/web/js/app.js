// The dashboard shell: hash routing, the live-connection indicator, the signed-out notice.
import { onApiError, get } from './api.js';
import * as events from './events.js';
import { h, clear, notice } from './dom.js';
import { agentsPage, agentPage } from './pages/agents.js';
import { terminalsPage, terminalPage } from './pages/terminals.js';
import { historyPage, sessionPage } from './pages/history.js';
import { usagePage } from './pages/usage.js';
import { sandboxesPage, sandboxPage } from './pages/sandboxes.js';
import { recordingsPage, recordingPage } from './pages/recordings.js';
import { initImportStatus } from './pages/import-status.js';
import { initNotifications } from './notify.js';
import { settingsPage } from './pages/settings.js';

const view = document.getElementById('view');
let cleanup = null;
let health = null;

const routes = [
  [/^#\/agents\/([\w-]+)$/, 'agents', (m) => agentPage(view, m[1], health)],
  [/^#\/agents$/, 'agents', () => agentsPage(view, health)],
  [/^#\/terminals\/([\w-]+)$/, 'terminals', (m) => terminalPage(view, m[1], health)],
  [/^#\/terminals$/, 'terminals', () => terminalsPage(view, health)],
  [/^#\/history\/sessions\/(.+)$/, 'history', (m) => sessionPage(view, m[1], health)],
  [/^#\/history(?:\?(.*))?$/, 'history', (m) => historyPage(view, new URLSearchParams(m[1] || ''), health)],
  [/^#\/usage(?:\?(.*))?$/, 'usage', (m) => usagePage(view, new URLSearchParams(m[1] || ''), health)],
  [/^#\/sandboxes\/([\w-]+)$/, 'sandboxes', (m) => sandboxPage(view, m[1], health)],
  [/^#\/sandboxes$/, 'sandboxes', () => sandboxesPage(view, health)],
  [/^#\/recordings\/([\w.-]+)(?:\?(.*))?$/, 'recordings', (m) => recordingPage(view, m[1], new URLSearchParams(m[2] || ''), health)],
  [/^#\/recordings$/, 'recordings', () => recordingsPage(view, health)],
  [/^#\/settings$/, 'settings', () => settingsPage(view, health)],
];

async function route() {
  if (!health) return;
  const hash = location.hash || '#/agents';
  if (cleanup) { try { cleanup(); } catch { /* a page that failed to clean up must not block the next */ } }
  cleanup = null;
  for (const [re, page, render] of routes) {
    const m = re.exec(hash);
    if (m) {
      document.querySelectorAll('.tabs a').forEach(a => a.classList.toggle('active', a.dataset.page === page));
      clear(view);
      try {
        cleanup = await render(m) || null;
      } catch (e) {
        showError(e);
      }
      return;
    }
  }
  clear(view).append(notice('Page not found', h('p', 'There is no page at ' + hash + '. ',
      h('a', { href: '#/agents' }, 'Go to the agents.'))));
}

function showError(e) {
  if (e && e.status === 401) return; // the signed-out notice is showing
  clear(view).append(notice('Something went wrong', h('p', e && e.message ? e.message : String(e)),
      e && e.code ? h('p.muted', 'Error code: ' + e.code) : null));
}

// The page itself loaded, so this browser had signed in; a 401 now means the server's token
// changed (or the cookie expired). Loading the page again shows the server's sign-in page.
let signedOutShown = false;
function showSignedOut() {
  if (signedOutShown) return;
  signedOutShown = true;
  clear(view).append(notice('Signed out of this server',
      h('p', 'The server no longer accepts this browser\'s sign-in: its token changed, or the sign-in expired.'),
      h('p', 'Open the link that ', h('code', 'agentdesk serve'), ' printed (it ends in ', h('code', '/?token=…'),
          '), or ', h('a#sign-in-again', { href: '/' }, 'sign in again'), '.')));
}

onApiError((e) => {
  if (e.status === 401) showSignedOut();
});

events.onStatus((s) => {
  const el = document.getElementById('live-status');
  el.dataset.state = s;
  el.querySelector('.label').textContent = s === 'live' ? 'live' : s === 'connecting' ? 'connecting…' : 'offline';
});

let booted = false;
async function boot() {
  try {
    health = await get('/api/health');
  } catch (e) {
    if (e.status !== 401) showError(e);
    return;
  }
  events.connect();
  if (!booted) {
    initNotifications();
    initImportStatus(document.getElementById('import-status'), health);
    booted = true;
  }
  await route();
}

window.addEventListener('hashchange', route);
boot();

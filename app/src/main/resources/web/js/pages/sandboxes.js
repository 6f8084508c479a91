// Sandboxes: register ACI runtimes by URL + token; one sandbox's page shows its screen live
// (sandbox-live.js), takes clicks, scrolls and keys, and lists its accessibility tree (sandbox-tree.js).
import { get, post, del } from '../api.js';
import { h, clear, notice } from '../dom.js';
import * as events from '../events.js';
import { openLiveView } from './sandbox-live.js';
import { treePanel } from './sandbox-tree.js';

function unavailable(view) {
  clear(view).append(notice('Sandboxes are not available in this build',
      h('p', 'This server was built without the ACI client, so it cannot connect to sandbox computers yet.')));
}

export async function sandboxesPage(view, health) {
  if (!health.features.sandboxes) return unavailable(view);
  const list = h('div.grid#sandbox-list');
  const err = h('p.error-text');
  const url = h('input#sandbox-url', { placeholder: 'ws://127.0.0.1:8765/', size: 30, required: true });
  const token = h('input#sandbox-token', { placeholder: 'runtime token', type: 'password', size: 24 });
  const name = h('input#sandbox-name', { placeholder: 'name (optional)', size: 16 });
  const form = h('form.card.form-row#new-sandbox', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        const sb = await post('/api/sandboxes', { url: url.value.trim(), token: token.value || null, name: name.value.trim() || null });
        location.hash = '#/sandboxes/' + sb.id;
      } catch (ex) { err.textContent = ex.message; }
    }
  }, h('label', 'Runtime URL', url), h('label', 'Token', token), h('label', 'Name', name),
     h('button.primary', { type: 'submit' }, 'Connect'), err);
  view.append(h('div.page-head', h('h1', 'Sandboxes')), form, h('div', { style: 'height:14px' }), list);
  const render = async () => {
    const items = await get('/api/sandboxes');
    clear(list);
    if (!items.length) {
      list.append(notice('No sandboxes yet', h('p', 'Start a runtime inside a sandbox with ', h('code', 'agentdesk runtime'),
          ' and connect it here with its URL and token.')));
    }
    for (const sb of items) {
      list.append(h('div.card', h('h3', h('a', { href: '#/sandboxes/' + sb.id }, sb.name)),
          h('div.small.muted', sb.url), h('div.small', sb.platform ? sb.platform : ''),
          h('div.small', sb.screen ? sb.screen.width + '×' + sb.screen.height : '')));
    }
  };
  await render();
  const off = events.on('sandboxes-changed', () => render().catch(() => {}));
  return off;
}

const STATE_TEXT = {
  connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', gone: 'runtime gone',
  removed: 'removed', offline: 'server unreachable',
};

export async function sandboxPage(view, id, health) {
  if (!health.features.sandboxes) return unavailable(view);
  const sb = await get('/api/sandboxes/' + id);
  const canvas = h('canvas#screen-canvas', { tabindex: '0', width: 0, height: 0,
      title: 'Click to focus, then type: keys go to the sandbox' });
  const state = h('span.pill#live-state', 'connecting…');
  const message = h('p.small#live-message');
  const stats = h('span.small.muted#live-stats');
  const status = h('span.muted.small#act-status');
  const text = h('input#type-text', { placeholder: 'text to type', size: 30 });
  let live = null;
  const tree = treePanel(id, (body) => live.act(body));
  const act = async (body) => {
    try { await live.act(body); status.textContent = body.verb + ' sent'; }
    catch (e) { status.textContent = e.message; }
  };
  live = openLiveView(id, canvas, {
    onState: (s) => {
      state.textContent = STATE_TEXT[s.state] || s.state;
      state.className = 'pill live-' + s.state;
      message.textContent = s.message || '';
      if (s.state === 'live') tree.soon();
    },
    onActed: () => tree.soon(),
    onError: (e) => { status.textContent = e.message; },
  });
  view.append(h('div.page-head', h('h1', sb.name), state, h('a', { href: '#/sandboxes' }, '← All sandboxes'),
      h('button.danger', { onclick: async () => { await del('/api/sandboxes/' + id); location.hash = '#/sandboxes'; } }, 'Disconnect')),
      message,
      h('div.form-row', { style: 'margin-bottom:10px' },
          h('form.form-row', { onsubmit: (e) => { e.preventDefault(); act({ verb: 'type', text: text.value }); text.value = ''; } },
              text, h('button', { type: 'submit' }, 'Type')),
          ['Return', 'Tab', 'Escape', 'BackSpace', 'ctrl+c', 'ctrl+v'].map(k => h('button.key-button', { onclick: () => act({ verb: 'key', key: k }) }, k)),
          status, stats),
      h('div.live-layout', h('div.screencast', canvas), tree.el));
  // Bytes per second over the last few seconds, for the user (is it idle?) and the benchmark.
  let lastBytes = 0;
  const meter = setInterval(() => {
    const rate = (live.stats.bytes - lastBytes) / 2;
    lastBytes = live.stats.bytes;
    stats.textContent = (rate >= 1024 ? (rate / 1024).toFixed(1) + ' KiB/s' : Math.round(rate) + ' B/s');
  }, 2000);
  tree.refresh();
  return () => { clearInterval(meter); tree.stop(); live.close(); };
}

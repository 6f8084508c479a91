// Sandboxes: register ACI runtimes by URL + token, watch one live and click or type into it.
import { get, post, del } from '../api.js';
import { h, clear, notice } from '../dom.js';
import * as events from '../events.js';

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

export async function sandboxPage(view, id, health) {
  if (!health.features.sandboxes) return unavailable(view);
  const sb = await get('/api/sandboxes/' + id);
  const img = h('img#screencast-img', { alt: 'Sandbox screen', draggable: 'false' });
  const status = h('span.muted.small');
  const text = h('input#type-text', { placeholder: 'text to type', size: 30 });
  const act = async (action) => {
    try { await post('/api/sandboxes/' + id + '/act', action); status.textContent = action.verb + ' sent'; }
    catch (e) { status.textContent = e.message; }
  };
  img.addEventListener('click', (e) => {
    const r = img.getBoundingClientRect();
    const x = Math.round((e.clientX - r.left) * img.naturalWidth / r.width);
    const y = Math.round((e.clientY - r.top) * img.naturalHeight / r.height);
    act({ verb: 'click', x, y });
  });
  view.append(h('div.page-head', h('h1', sb.name), h('a', { href: '#/sandboxes' }, '← All sandboxes'),
      h('button.danger', { onclick: async () => { await del('/api/sandboxes/' + id); location.hash = '#/sandboxes'; } }, 'Disconnect')),
      h('div.form-row', { style: 'margin-bottom:10px' },
          h('form.form-row', { onsubmit: (e) => { e.preventDefault(); act({ verb: 'type', text: text.value }); text.value = ''; } },
              text, h('button', { type: 'submit' }, 'Type')),
          ['Enter', 'Tab', 'Escape', 'ctrl+c'].map(k => h('button', { onclick: () => act({ verb: 'key', key: k }) }, k)),
          status),
      h('div.screencast', img));
  // A live view: fetch the next frame as soon as the previous one has been drawn (about 4 fps at most).
  let stopped = false;
  let frameUrl = null;
  const next = async () => {
    if (stopped) return;
    try {
      const res = await fetch('/api/sandboxes/' + id + '/screenshot?format=jpeg&quality=70');
      if (!res.ok) throw new Error((await res.json()).message);
      const blob = await res.blob();
      const u = URL.createObjectURL(blob);
      img.src = u;
      if (frameUrl) URL.revokeObjectURL(frameUrl);
      frameUrl = u;
    } catch (e) { status.textContent = e.message; }
    setTimeout(next, 250);
  };
  next();
  return () => { stopped = true; if (frameUrl) URL.revokeObjectURL(frameUrl); };
}

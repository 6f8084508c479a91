// The accessibility tree of a sandbox (GET /api/sandboxes/{id}/observe: the runtime's tree_text),
// one line per element; each element ref (e12) is a button that clicks that element through the
// runtime (act with ref as the target). Refreshed after every action while "follow" is on.
import { get } from '../api.js';
import { h, put } from '../dom.js';

const LINE = /^(\s*)([~+-] )?(e\d+)\b(.*)$/;

/** The panel element and refresh(); act(body) → Promise sends an action. */
export function treePanel(id, act) {
  const tree = h('div.a11y-tree#a11y-tree');
  const error = h('p.error-text#a11y-error');
  const meta = h('span.small.muted#a11y-meta');
  const follow = h('input#a11y-follow', { type: 'checkbox', checked: true });
  let seq = 0;
  let timer = null;

  async function refresh() {
    const mine = ++seq;
    meta.textContent = 'reading…';
    try {
      const o = await get('/api/sandboxes/' + id + '/observe');
      if (mine !== seq) return;
      error.textContent = '';
      render(o.tree_text || '');
      meta.textContent = (o.node_count != null ? o.node_count + ' elements' : '') + (o.revision ? ' · revision ' + o.revision : '');
    } catch (e) {
      if (mine !== seq) return;
      put(tree);
      meta.textContent = '';
      error.textContent = e.message + (/AT-SPI|accessib/i.test(e.message)
          ? ' — the runtime reads the tree over the accessibility bus (AT-SPI): start it in a desktop session'
            + ' with a session bus and at-spi-bus-launcher (docs/sandbox.md). The screen and input work without it.'
          : '');
    }
  }

  function render(text) {
    const lines = text.split('\n').filter(l => l.length);
    put(tree, lines.map(l => {
      const m = LINE.exec(l);
      if (!m) return h('div.a11y-line', l);
      const [, indent, mark, ref, rest] = m;
      const button = h('button.a11y-ref', {
        dataset: { ref }, title: 'Click ' + ref + ' in the sandbox',
        onclick: async () => {
          try { await act({ verb: 'click', ref }); } catch (e) { error.textContent = e.message; }
          soon();
        },
      }, ref);
      return h('div.a11y-line', indent, mark || '', button, rest);
    }));
  }

  /** A refresh a little after the latest action, once the application has redrawn. */
  function soon() {
    if (!follow.checked) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  }

  const el = h('aside.card.a11y-panel#a11y-panel',
      h('div.form-row', h('h3', 'Accessibility tree'),
          h('button#a11y-refresh', { onclick: refresh }, 'Refresh'),
          h('label.small', follow, ' follow actions'), meta),
      error, tree);
  return { el, refresh, soon, stop: () => { clearTimeout(timer); seq++; } };
}

// The import indicator in the top bar, fed by import-progress events.
import { h, clear } from '../dom.js';
import * as events from '../events.js';

let last = null;
const subscribers = new Set();

/** Latest import status seen on the event stream (or null). */
export function importStatus() { return last; }
export function onImportStatus(fn) { subscribers.add(fn); return () => subscribers.delete(fn); }

export function initImportStatus(el, health) {
  if (!health || !health.features || !health.features.history) return;
  events.on('import-progress', (ev) => {
    last = ev.status;
    render(el, ev.status);
    subscribers.forEach(fn => fn(ev.status));
  });
}

function render(el, s) {
  clear(el);
  el.hidden = false;
  el.dataset.phase = s.phase;
  if (s.phase === 'scanning' || s.phase === 'importing') {
    const pct = s.files_total > 0 ? Math.round(100 * s.files_done / s.files_total) : 0;
    el.append(h('span', 'Importing history ' + s.files_done + '/' + s.files_total + ' files'),
        h('span.progress', h('span', { style: 'width:' + pct + '%' })));
  } else if (s.phase === 'tailing') {
    el.append(h('span', { title: 'New sessions and appended lines appear without a restart' },
        'History up to date · watching'));
  } else if (s.phase === 'failed') {
    el.append(h('span.error-text', 'History import failed'));
  } else {
    el.hidden = true;
  }
}

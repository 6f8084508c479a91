// State badges shared by the grid and the terminal view.
import { h } from '../dom.js';

/** Badges for a terminal state, in a fixed order; countdowns tick through updateCountdowns(). */
export function stateBadges(t) {
  const s = t.state || {};
  const out = [];
  if (t.exited) {
    out.push(h('span.badge.exited', { title: 'The process has exited' }, 'exited' + (t.exit_code !== null && t.exit_code !== undefined ? ' ' + t.exit_code : '')));
  } else if (s.awaiting_input) {
    out.push(h('span.badge.awaiting', { title: s.question ? s.question.text : 'Waiting for your input' }, 'awaiting input'));
  } else if (s.shell === 'busy') {
    out.push(h('span.badge.busy', 'busy'));
  } else {
    out.push(h('span.badge.idle', 'idle'));
  }
  if (s.rate_limited_until) {
    out.push(h('span.badge.rate-limited', { dataset: { until: s.rate_limited_until }, title: 'Rate limited until ' + new Date(s.rate_limited_until).toLocaleString() },
        'rate-limited ' + countdown(s.rate_limited_until)));
  }
  if (s.usage_exhausted) {
    out.push(h('span.badge.rate-limited', { title: 'Usage exhausted' }, 'out of usage' + (s.usage_exhausted.reset_time ? ' · resets ' + s.usage_exhausted.reset_time : '')));
  } else if (s.usage) {
    out.push(h('span.badge.usage', { title: 'Share of the ' + s.usage.limit_type + ' limit used' }, 'usage ' + s.usage.percentage + '% ' + s.usage.limit_type));
  }
  if (s.last_api_error) {
    out.push(h('span.badge.error', { title: s.last_api_error.matched_text || '' }, 'API error'));
  }
  return h('div.badges', out);
}

function countdown(iso) {
  const ms = new Date(iso).getTime() - Date.now();
  if (!(ms > 0)) return '· resetting';
  const s = Math.ceil(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return '· ' + (hh ? hh + ':' + String(mm).padStart(2, '0') : mm) + ':' + String(ss).padStart(2, '0');
}

/** Re-renders every countdown badge under root; call once a second. */
export function updateCountdowns(root) {
  root.querySelectorAll('.badge.rate-limited[data-until]').forEach(b => {
    b.textContent = 'rate-limited ' + countdown(b.dataset.until);
  });
}

/**
 * Answers option {@code index}: its digit; for a menu without digits (numbered false: Claude's
 * trust dialog, theme picker) the arrow keys from the highlighted option, then Enter, apart.
 */
function answer(cp, index, sendKey) {
  if (cp.numbered !== false) return sendKey(String(index));
  const at = Math.max(0, cp.options.findIndex(o => o.highlighted));
  const to = cp.options.findIndex(o => o.index === index);
  const keys = [];
  for (let i = at; i < to; i++) keys.push('down');
  for (let i = at; i > to; i--) keys.push('up');
  keys.push('enter');
  keys.forEach((k, i) => setTimeout(() => sendKey(k), i * 60));
}

/** The choice prompt as buttons; clicking one answers with it. */
export function choiceButtons(t, sendKey) {
  const cp = t.state && t.state.choice_prompt;
  if (!cp || t.exited) return null;
  return h('div.choices', { dataset: { terminal: t.id } },
      h('div.q', cp.title),
      h('div.opts', cp.options.map(o => h('button.choice', {
        class: 'choice' + (o.destructive ? ' destructive' : ''),
        dataset: { index: o.index },
        onclick: (e) => { e.target.disabled = true; answer(cp, o.index, sendKey); }
      }, o.index + '. ' + o.label)),
      cp.dismiss_key ? h('button.choice', { onclick: () => sendKey('escape') }, 'Esc · ' + cp.dismiss_key) : null));
}

export function prLinks(t) {
  const prs = (t.state && t.state.pr_urls) || [];
  if (!prs.length) return null;
  return h('div.links', prs.map(p => h('a', { href: p.url, target: '_blank', rel: 'noopener noreferrer' }, 'PR #' + p.number + ' (' + p.platform + ')')));
}

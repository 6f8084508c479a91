#!/usr/bin/env bash
# Stand-in for Claude Code: `claude.sh SCENARIO`. Prints Claude Code's real output shapes.
set -u
. "$(dirname "$0")/lib.sh"
stty -echoctl 2>/dev/null

banner() {
  printf '%s[1m✻ Welcome to Claude Code!%s[0m\r\n\r\n' "$ESC" "$ESC"
  printf '  /help for help, /status for your current setup\r\n\r\n'
}

case "${1:-}" in
question)
  # A plain "?" question, then silence until the user answers. Like Claude Code it repaints the
  # whole screen when the terminal is resized.
  ask() {
    printf '%s[2J%s[H' "$ESC" "$ESC"
    banner
    printf '⏺ I found two call sites that still use the old parser API.\r\n\r\n'
    printf '⏺ Should I keep the old API as a deprecated alias?\r\n\r\n'
    composer
    printf '\r%s[2A%s[4C' "$ESC" "$ESC"
  }
  trap ask WINCH
  banner
  spin 8 "Pondering" ""
  ask
  await_line
  trap - WINCH
  printf '\r%s[J\r\n' "$ESC"
  printf '> %s\r\n\r\n' "$REPLY"
  spin 6 "Editing" ""
  printf '⏺ Kept the alias and updated both call sites.\r\n\r\n'
  composer
  printf '\r%s[2A%s[4C' "$ESC" "$ESC"
  await_line
  ;;
question-then-spinner)
  # The question is followed by more work: a status line within the silence window.
  banner
  printf '⏺ Should I keep the old API as a deprecated alias?\r\n\r\n'
  sleep 0.3
  spin 3 "Reconsidering" ""
  await_line
  ;;
choice)
  # A numbered confirmation menu with its footer; one key answers it.
  banner
  spin 6 "Thinking" ""
  raw_mode
  printf ' Do you want to make this edit to parser.rs?\r\n'
  printf ' ❯ 1. Yes\r\n'
  printf '   2. Yes, allow all edits during this session (shift+tab)\r\n'
  printf '   3. No, and tell Claude what to do differently (esc)\r\n\r\n'
  printf ' Esc to cancel · Tab to amend\r\n'
  await_key
  erase_lines 6
  cooked_mode
  printf '⏺ Answered %s. Applying the edit.\r\n' "$REPLY"
  spin 4 "Writing" ""
  printf '⏺ Done.\r\n'
  await_line
  ;;
choice-vanish)
  # The menu is withdrawn without an answer (a hook denied the tool): it disappears from screen.
  banner
  printf ' Do you want to run this command?\r\n'
  printf ' ❯ 1. Yes\r\n'
  printf '   2. No, and tell Claude what to do differently (esc)\r\n\r\n'
  printf ' Esc to cancel · Tab to amend\r\n'
  await_nudge
  erase_lines 5
  printf '⏺ The PreToolUse hook denied the command; trying another way.\r\n'
  await_line
  ;;
choice-replace)
  # One menu is replaced by another without input in between.
  banner
  printf ' Do you want to make this edit to a.rs?\r\n ❯ 1. Yes\r\n   2. No (esc)\r\n\r\n Esc to cancel · Tab to amend\r\n'
  await_nudge
  # erase and redraw in one write, as Ink does: the old menu never leaves the screen empty
  printf '\r%s[5A%s[J Do you want to make this edit to b.rs?\r\n ❯ 1. Yes\r\n   2. No (esc)\r\n\r\n Esc to cancel · Tab to amend\r\n' "$ESC" "$ESC"
  await_line
  ;;
permission)
  # A permission request: confident, only the answer clears it.
  banner
  spin 4 "Running" ""
  osc777 "Claude needs your permission to use Bash"
  printf '⏺ Bash(rm -rf build/)\r\n'
  await_line
  printf '⏺ Removed build/.\r\n'
  await_line
  ;;
waiting)
  # "is waiting for your input" after a finished turn: low confidence, retracted when no prompt shows.
  banner
  spin 4 "Finishing" ""
  printf '⏺ All tests pass.\r\n\r\n'
  osc777 "Claude is waiting for your input"
  await_line
  ;;
hooks)
  # A hook-instrumented session: OSC 7770 markers report busy, awaiting and idle.
  banner
  hook state=busy "intent=Reading the auth module (Auth review)"
  spin 4 "Reading" ""
  printf '⏺ Is the token refresh racing with logout?\r\n'
  await_line
  hook state=awaiting "question=Deploy to staging now?"
  printf '⏺ Deploy to staging now?\r\n'
  await_line
  hook state=busy
  spin 4 "Deploying" ""
  printf '⏺ Deployed.\r\n'
  hook "suggest=Run smoke tests|Open the dashboard|Roll back" state=idle
  await_line
  hook state=busy
  printf '⏺ Stopping early.\r\n'
  hook block=stop-hook
  await_line
  ;;
interrupt)
  # Hook busy, then the user interrupts: the interrupted screen ends busy.
  banner
  hook state=busy
  spin 4 "Refactoring" ""
  await_line
  printf '  ⎿  Interrupted · What should Claude do instead?\r\n'
  await_line
  ;;
limits)
  # Rate limit with a reset time, usage percentage, exhaustion, sub-tasks, PR URL, API error.
  banner
  printf '  ›› task · 2 local agents\r\n'
  printf '  ⎿  API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}} · Retrying in 30 seconds\r\n'
  printf "You've used 85%% of your weekly limit\r\n"
  printf '⏺ Opened https://github.com/acme/widgets/pull/42\r\n'
  printf '  ⎿  API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}\r\n'
  await_line
  printf "You're out of extra usage · resets 8pm (Europe/Madrid)\r\n"
  printf '  ›› task · 0 local agents\r\n'
  await_line
  ;;
conflict)
  # Claude refuses a --session-id that is in use; it prints the error several times while exiting.
  id=${AGENTDESK_SESSION:-00000000-0000-0000-0000-000000000000}
  for _ in 1 2 3; do
    printf 'Error: Session ID %s is already in use.\r\n' "$id"
    sleep 0.02
  done
  exit 1
  ;;
flood)
  # Numbered lines as fast as the terminal takes them: load tests.
  i=0
  while [ "$i" -lt "${2:-1000}" ]; do
    printf 'line %08d the quick brown fox jumps over the lazy dog\r\n' "$i"
    i=$((i + 1))
  done
  ;;
*)
  echo "usage: claude.sh question|choice|choice-vanish|choice-replace|permission|waiting|hooks|interrupt|limits|conflict" >&2
  exit 2
  ;;
esac

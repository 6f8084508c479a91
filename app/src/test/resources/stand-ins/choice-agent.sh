#!/usr/bin/env bash
# A scripted stand-in for a Claude Code session, for the server's browser and API tests: it works
# for a moment (status line), asks a numbered confirmation in Claude Code's menu shape with its
# footer, waits for one key in raw mode as a TUI does, answers, then reports a PR URL, its usage
# and a rate limit with a retry delay, and waits for more input. Nothing here is copied from Claude Code; it prints the shapes.
set -u
ESC=$'\033'

printf '╭───────────────────────────────╮\r\n'
printf '│ ✻ Stand-in agent for tests    │\r\n'
printf '╰───────────────────────────────╯\r\n\r\n'
printf '> Tidy the parser module\r\n\r\n'
for i in 1 2 3 4 5; do
  printf '\r%s[2K✻ Thinking… (%ds · ↓ %d tokens · esc to interrupt)' "$ESC" "$i" "$((i * 37))"
  sleep 0.1
done
printf '\r%s[2K' "$ESC"

saved=$(stty -g)
stty raw -echo
printf ' Do you want to make this edit to parser.rs?\r\n'
printf ' ❯ 1. Yes\r\n'
printf '   2. Yes, allow all edits during this session (shift+tab)\r\n'
printf '   3. No, and tell Claude what to do differently (esc)\r\n\r\n'
printf ' Esc to cancel · Tab to amend\r\n'
key=$(dd bs=1 count=1 2>/dev/null)
printf '\r%s[6A%s[J' "$ESC" "$ESC"
stty "$saved"
printf '⏺ Answered %s. Applying the edit.\r\n' "$key"
printf '⏺ Opened https://github.com/example/widgets/pull/42\r\n'
printf "You've used 85%% of your weekly limit\r\n"
printf '  ⎿  API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}} · Retrying in 30 seconds\r\n'
while IFS= read -r line; do
  printf '⏺ You said: %s\r\n' "$line"
done

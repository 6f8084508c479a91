#!/usr/bin/env bash
# Stand-in for the Codex CLI: `codex.sh SCENARIO`. Prints Codex's real output shapes.
set -u
. "$(dirname "$0")/lib.sh"

working() {
  local i
  for ((i = 0; i < $1; i++)); do
    printf '\r%s[2K• Working (%ds • esc to interrupt)\r\n' "$ESC" "$i"
    sleep 0.05
    printf '%s[1A' "$ESC"
  done
  printf '\r%s[2K' "$ESC"
}

prompt() {
  printf '\r\n› '
}

case "${1:-}" in
question)
  # A question, the answer, then Codex repaints the conversation: the old question must not return.
  printf '>_ OpenAI Codex (v0.46.0)\r\n\r\n'
  working 6
  printf '• Which database should the migration target, Postgres or SQLite?\r\n'
  prompt
  await_line
  printf '%s[2J%s[H' "$ESC" "$ESC"
  printf '• Which database should the migration target, Postgres or SQLite?\r\n\r\n'
  printf '› %s\r\n\r\n' "$REPLY"
  working 6
  printf '• Migration written for %s.\r\n' "$REPLY"
  prompt
  await_line
  printf '\r\n• Bye.\r\n'
  ;;
approval)
  # The edit-approval menu; Enter accepts the highlighted option.
  printf '>_ OpenAI Codex (v0.46.0)\r\n\r\n'
  working 4
  printf '  Would you like to make the following edits?\r\n\r\n'
  printf '› 1. Yes, proceed (y)\r\n'
  printf '  2. Yes, and don'"'"'t ask again for these files (a)\r\n'
  printf '  3. No, and tell Codex what to do differently (esc)\r\n\r\n'
  printf '  Press enter to confirm or esc to cancel\r\n'
  await_line
  erase_lines 7
  printf '• Edited src/db.rs (+12 -3)\r\n'
  prompt
  await_line
  ;;
*)
  echo "usage: codex.sh question|approval" >&2
  exit 2
  ;;
esac

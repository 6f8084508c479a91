# Shared helpers of the stand-in agents. Each stand-in prints the output shapes of one real agent
# (spinner/status lines, questions, menus, OSC notifications, hook markers) with real timing, and
# waits on its terminal for the answers a test types. Sourced, not run.

ESC=$'\033'
BEL=$'\007'

# spin FRAMES TEXT SUFFIX: redraw one status line FRAMES times, 50 ms apart, then erase it. Like
# Ink, each frame ends with a newline, so the cursor rests below the status line, not on it.
spin() {
  local frames=$1 text=$2 suffix=$3 glyphs=("✻" "✽" "✶" "✳" "✢" "·") i
  for ((i = 0; i < frames; i++)); do
    printf '\r%s[2K%s %s… (%ds · ↓ %d tokens · esc to interrupt)%s\r\n' "$ESC" "${glyphs[i % 6]}" "$text" "$i" "$((i * 40 + 12))" "$suffix"
    sleep 0.05
    printf '%s[1A' "$ESC"
  done
  printf '\r%s[2K' "$ESC"
}

# osc777 BODY: a desktop notification as Claude Code sends it.
osc777() {
  printf '%s]777;notify;Claude Code;%s%s' "$ESC" "$1" "$BEL"
}

# hook KEY=VALUE...: an OSC 7770 hook marker, ST-terminated.
hook() {
  local IFS=';'
  printf '%s]7770;%s%s\\' "$ESC" "$*" "$ESC"
}

# composer: Claude Code's bottom input box and the hint row under it.
composer() {
  printf '╭──────────────────────────────────────────────────────────╮\r\n'
  printf '│ >                                                        │\r\n'
  printf '╰──────────────────────────────────────────────────────────╯\r\n'
  printf '  ? for shortcuts'
}

# erase_lines N: move up N rows from the current one and clear to the end of the screen.
erase_lines() {
  printf '\r%s[%dA%s[J' "$ESC" "$1" "$ESC"
}

# await_line: read one submitted line from the terminal (the test types it). Polls for a complete
# line so that traps (SIGWINCH repaints) run while waiting, as they do in a real TUI's event loop.
await_line() {
  while ! read -r -t 0; do
    sleep 0.02
  done
  IFS= read -r REPLY
}

# raw_mode / cooked_mode: TUI agents (Ink, ratatui) keep the terminal raw: keys are not echoed.
raw_mode() {
  SAVED_TTY=$(stty -g)
  stty raw -echo
}
cooked_mode() {
  stty "$SAVED_TTY"
}

# await_key: read one key (call raw_mode first, as a TUI does before drawing a menu).
await_key() {
  REPLY=$(dd bs=1 count=1 2>/dev/null)
}

# await_nudge: wait for SIGUSR1, an outside event that is not user input (a hook decision, a
# timeout inside the agent). Tests send it to make a menu vanish or change without input. The trap
# is set when this file is sourced, so a nudge that comes early is remembered, never fatal.
NUDGED=
trap 'NUDGED=1' USR1
await_nudge() {
  while [ -z "$NUDGED" ]; do
    sleep 0.02
  done
  NUDGED=
}

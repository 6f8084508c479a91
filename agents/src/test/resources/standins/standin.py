"""Shared parts of the stand-in agent CLIs (claude, codex): screen drawing, terminal modes and
transcript lines in the real CLIs' formats. Test resources only: no agent CLI can run in tests."""
import datetime
import json
import os
import sys
import termios
import time
import tty
import uuid

ESC = "\x1b"


def out(s):
    sys.stdout.write(s)
    sys.stdout.flush()


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
        "%03dZ" % (datetime.datetime.now().microsecond // 1000)


def spin(verb, seconds, glyph="✽", suffix=" · esc to interrupt)"):
    steps = max(1, int(seconds / 0.2))
    for i in range(steps):
        out("\r%s[K%s %s… (%ds%s" % (ESC, glyph, verb, i // 5, suffix))
        time.sleep(0.2)
    out("\r%s[K" % ESC)


def read_line():
    """A line in cooked mode (echo on); None at end of input."""
    line = sys.stdin.readline()
    if line == "":
        return None
    return line.rstrip("\r\n")


def read_key():
    """One key in raw mode, as Ink menus read it."""
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        b = os.read(fd, 1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    return b.decode("utf-8", "replace")


def edit_file(cwd, text):
    """Edits the working folder as an agent would: the file named by STANDIN_EDIT_FILE (default
    agent.txt) gets a line; STANDIN_DELETE_FILE, when set, is removed."""
    name = os.environ.get("STANDIN_EDIT_FILE", "agent.txt")
    path = os.path.join(cwd, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(text + "\n")
    gone = os.environ.get("STANDIN_DELETE_FILE")
    if gone and os.path.exists(os.path.join(cwd, gone)):
        os.remove(os.path.join(cwd, gone))
    return path


class Jsonl:
    def __init__(self, path):
        self.path = path
        os.makedirs(os.path.dirname(path), exist_ok=True)

    def write(self, obj):
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj, separators=(",", ":")) + "\n")


def new_id():
    return str(uuid.uuid4())

#!/usr/bin/env python3
"""Records what a real program writes to its terminal, for the VT engine's fixtures.

    python3 terminal/scripts/record-fixture.py COLS ROWS OUT.raw [--keys KEYS] -- CMD ARGS...

Runs CMD in a fresh pseudo-terminal of COLS x ROWS (TERM=xterm-256color), optionally types KEYS
(Python string escapes, sent after 0.6 s, e.g. 'q' to leave less), and stores every byte the
program wrote, unchanged, in OUT.raw. Used to make terminal/src/test/resources/.../fixtures/.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    args = sys.argv[1:]
    sep = args.index("--")
    opts, cmd = args[:sep], args[sep + 1:]
    cols, rows, out = int(opts[0]), int(opts[1]), opts[2]
    keys = None
    if "--keys" in opts:
        keys = opts[opts.index("--keys") + 1].encode().decode("unicode_escape").encode()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["LANG"] = "C.UTF-8"
        os.environ["LC_ALL"] = "C.UTF-8"
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    data = bytearray()
    start = time.time()
    sent = False
    while True:
        if keys and not sent and time.time() - start > 0.6:
            os.write(fd, keys)
            sent = True
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        elif time.time() - start > 10:
            break
    os.waitpid(pid, 0)
    with open(out, "wb") as f:
        f.write(data)
    print(f"{out}: {len(data)} bytes", file=sys.stderr)


main()

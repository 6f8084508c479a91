#!/usr/bin/env python3
"""For the browser terminal tests: a full-screen program that turns on mouse tracking (?1000h,
SGR encoding ?1006h) on the alternate screen and prints every report it reads."""
import os, sys, termios, tty

fd = sys.stdin.fileno()
saved = termios.tcgetattr(fd)
tty.setraw(fd)
out = sys.stdout
out.write("\033[?1049h\033[?1000h\033[?1006h\033[Hmouse demo ready\r\n")
out.flush()
try:
    while True:
        data = os.read(fd, 64)
        if not data or data == b"q":
            break
        out.write("got " + repr(data) + "\r\n")
        out.flush()
finally:
    out.write("\033[?1000l\033[?1006l\033[?1049l")
    out.flush()
    termios.tcsetattr(fd, termios.TCSADRAIN, saved)

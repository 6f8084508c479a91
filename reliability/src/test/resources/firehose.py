#!/usr/bin/env python3
"""Writes numbered 100-byte lines to stdout at RATE bytes/s for SECONDS, then exits.
Usage: firehose.py RATE SECONDS. Line n is 'L%09d ' + filler, newline-terminated."""
import sys, time

rate, seconds = int(sys.argv[1]), float(sys.argv[2])
out = sys.stdout.buffer
line_len = 100
per_tick = max(1, rate // 20 // line_len)  # 20 ticks a second
n = 0
start = time.monotonic()
end = start + seconds
tick = 0
while time.monotonic() < end:
    chunk = bytearray()
    for _ in range(per_tick):
        head = b"L%09d " % n
        chunk += head + b"x" * (line_len - len(head) - 1) + b"\n"
        n += 1
    out.write(chunk)
    out.flush()
    tick += 1
    delay = start + tick / 20 - time.monotonic()
    if delay > 0:
        time.sleep(delay)


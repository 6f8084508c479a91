"""Load generator for PTY session tests: numbered 100-byte lines at RATE bytes/s for SECONDS.

Usage: flood.py RATE SECONDS. Writes in 10 ms slices on an absolute schedule, so a reader that
falls behind makes the writes block (PTY back-pressure) and the total shrinks, never the spacing
of line numbers. Ends with "FLOOD-DONE <lines>" so the reader knows how many lines were written.
"""
import sys
import time

rate, seconds = int(sys.argv[1]), float(sys.argv[2])
LINE = 100  # bytes including the newline
slice_s = 0.01
per_slice = max(1, rate * slice_s / LINE)
out = sys.stdout.buffer
start = time.monotonic()
n = 0
due = 0.0
while True:
    now = time.monotonic() - start
    if now >= seconds:
        break
    due += per_slice
    count = int(due) - n
    if count > 0:
        chunk = b"".join(b"L%010d %s\n" % (i, b"x" * (LINE - 13)) for i in range(n, n + count))
        out.write(chunk)
        out.flush()
        n += count
    pause = slice_s - ((time.monotonic() - start) % slice_s)
    time.sleep(max(0.0, pause))
out.write(b"FLOOD-DONE %d\n" % n)
out.flush()

#!/usr/bin/env python3
"""An ACI client in its own process, as an agent's harness is: a plain WebSocket over a TCP
socket (RFC 6455 by hand, no library), one request at a time, each reply read whole before the
next request goes out. Prints one JSON object with the round-trip times in microseconds.

usage: aci-outside-client.py PORT TOKEN ROUNDS PER_ROUND [--offer-deflate]

Each round times PER_ROUND pings, then PER_ROUND clicks on the bare root (nothing redraws);
the first round is warm-up and not reported. --offer-deflate asks for permessage-deflate in
the upgrade, as browser and library clients do; the reply says whether the runtime took it.
"""
import base64
import json
import os
import socket
import struct
import sys
import time
import zlib

CLICK = ('{"type":"action","call_id":"c","action":{"verb":"click",'
         '"target":{"kind":"point_px","x":1270,"y":790}}}')


def connect(port, offer_deflate):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    ext = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" if offer_deflate else ""
    s.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (port, key, ext)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise SystemExit("runtime closed the connection during the upgrade")
        head += chunk
    status, _, rest = head.partition(b"\r\n\r\n")
    if b" 101 " not in status.split(b"\r\n")[0]:
        raise SystemExit("upgrade refused: " + status.decode(errors="replace"))
    deflate = b"permessage-deflate" in status.lower()
    return s, bytearray(rest), deflate


def send_text(s, text):
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x81, 0x80 | n)
    elif n < 65536:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
    masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
    s.sendall(header + mask + masked)


def read_exact(s, buf, n):
    while len(buf) < n:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("runtime closed the connection")
        buf += chunk
    out = bytes(buf[:n])
    del buf[:n]
    return out


def read_message(s, buf):
    """One whole message (fragments joined); returns (opcode, rsv1, payload)."""
    parts, first = [], None
    while True:
        b0, b1 = read_exact(s, buf, 2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", read_exact(s, buf, 2))[0]
        elif n == 127:
            n = struct.unpack("!Q", read_exact(s, buf, 8))[0]
        payload = read_exact(s, buf, n)
        if first is None:
            first = b0
        parts.append(payload)
        if b0 & 0x80:
            return first & 0x0F, bool(first & 0x40), b"".join(parts)


INFLATE = zlib.decompressobj(-15)  # the server's context is kept across messages unless it says otherwise


def call(s, buf, text):
    send_text(s, text)
    while True:
        op, compressed, payload = read_message(s, buf)
        if op in (1, 2):
            if compressed:
                payload = INFLATE.decompress(payload + b"\x00\x00\xff\xff")
            return compressed, payload
        if op == 8:
            raise SystemExit("runtime closed the session: %r" % payload[:200])


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main():
    port, token, rounds, per_round = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    offer = "--offer-deflate" in sys.argv[5:]
    s, buf, deflate = connect(port, offer)
    _, welcome = call(s, buf, json.dumps({"type": "hello", "v": 0, "token": token,
                                          "client": {"name": "outside-bench", "version": "1"}}))
    if b'"welcome"' not in welcome:
        raise SystemExit("no welcome: %r" % welcome[:200])
    times = {"ping": [], "click": []}
    compressed_replies = 0
    for r in range(rounds + 1):
        for what in ("ping", "click"):
            for i in range(per_round):
                text = '{"type":"ping","t":%d}' % i if what == "ping" else CLICK
                t0 = time.perf_counter_ns()
                compressed, reply = call(s, buf, text)
                dt = time.perf_counter_ns() - t0
                compressed_replies += compressed
                if what == "click" and b'"ok":true' not in reply:
                    raise SystemExit("click failed: %r" % reply[:200])
                if r > 0:
                    times[what].append(dt / 1000.0)
    s.close()
    print(json.dumps({"deflate_offered": offer, "deflate_negotiated": deflate,
                      "compressed_replies": compressed_replies,
                      **{w: {"n": len(v), "p50_us": pct(v, 0.5), "p90_us": pct(v, 0.9), "p99_us": pct(v, 0.99)}
                         for w, v in times.items()}}))


if __name__ == "__main__":
    main()

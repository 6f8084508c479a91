#!/usr/bin/env python3
"""Starts an MCP stdio server (argv), sends initialize, waits for its answer (30 s at most), closes
stdin and waits for the exit: one 'mcp initialize' for the release suite's hyperfine runs."""
import json, select, subprocess, sys

p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
p.stdin.write((json.dumps(init) + "\n").encode()); p.stdin.flush()
if not select.select([p.stdout], [], [], 30)[0]:
    p.kill(); sys.exit("no answer to initialize within 30 s")
line = p.stdout.readline()
if not json.loads(line).get("result"):
    sys.exit("no initialize result: " + line.decode())
p.stdin.close()
try:
    p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill(); sys.exit("the server did not exit after stdin closed")

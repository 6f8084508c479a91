#!/usr/bin/env python3
"""Prints a markdown table of JMH results (-rf json): median of the measured iterations, with the
min-max range, so noisy 2-core runs are reported as medians. Usage: jmh_table.py RESULT.json [UNIT_LABEL]"""
import json
import statistics
import sys

rows = json.load(open(sys.argv[1]))
print("| benchmark | params | median | min – max | unit |")
print("| --- | --- | ---: | ---: | --- |")
for r in rows:
    m = r["primaryMetric"]
    raw = [v for fork in m.get("rawData", []) for v in fork] or [m["score"]]
    params = ", ".join(f"{k}={v}" for k, v in (r.get("params") or {}).items()) or "—"
    fmt = lambda x: f"{x:,.1f}" if abs(x) < 1000 else f"{x:,.0f}"
    print(f"| {r['benchmark'].split('.')[-1]} | {params} | {fmt(statistics.median(raw))} | "
          f"{fmt(min(raw))} – {fmt(max(raw))} | {m['scoreUnit']} |")

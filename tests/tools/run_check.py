#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one tool and checks what it did: its exit status, text that must
(--expect) or must not (--forbid) appear in its output (stdout and stderr
together), and with --json that stdout is one JSON object with a non-empty
"results" list whose every entry is a figure or a skip.

usage: run_check.py [--rc N | --rc-nonzero] [--expect TEXT]... \
                    [--forbid TEXT]... [--json] -- COMMAND [ARG]...
"""
import argparse
import json
import subprocess
import sys


def check_json(text):
    doc = json.loads(text)
    results = doc.get("results")
    if not isinstance(results, list) or not results:
        return "no results in the JSON"
    for r in results:
        if "skipped" in r:
            continue
        for key in ("section", "name", "value", "unit", "baseline",
                    "baseline_value", "ratio", "params"):
            if key not in r:
                return "a result lacks %r: %r" % (key, r)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rc", type=int, default=0)
    ap.add_argument("--rc-nonzero", action="store_true")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--forbid", action="append", default=[])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    out = p.stdout + p.stderr
    problems = []
    if a.rc_nonzero and p.returncode == 0:
        problems.append("exit status 0, expected non-zero")
    elif not a.rc_nonzero and p.returncode != a.rc:
        problems.append("exit status %d, expected %d" % (p.returncode, a.rc))
    problems += ["missing: %r" % e for e in a.expect if e not in out]
    problems += ["present: %r" % f for f in a.forbid if f in out]
    if a.json:
        try:
            why = check_json(p.stdout)
        except ValueError as e:
            why = "stdout is not JSON: %s" % e
        if why:
            problems.append(why)
    sys.stdout.write("$ %s\n%s" % (" ".join(cmd), out))
    if problems:
        print("\nFAILED: " + "; ".join(problems))
        return 1
    print("\nok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

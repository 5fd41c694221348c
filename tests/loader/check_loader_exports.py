#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks libze_loader.so.1: its SONAME, and that it exports exactly the
symbols listed in ze_loader.sym (generated from api/ and the loader's lists:
every ze*, zes*, zet*, zer* entry point, every *Get*ProcAddrTable getter, the
zel* loader and tracer services), nothing more and nothing less; with
UPSTREAM, also that it exports every name listed there (the exports of the
Level Zero loader v1.32, tests/loader/upstream-1.32.syms), so that any
program linked with that loader starts on this one.

usage: check_loader_exports.py LIBRARY SYMFILE [UPSTREAM]
"""
import re
import subprocess
import sys


def main():
    lib, symfile = sys.argv[1], sys.argv[2]
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    got = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            got.add(parts[2].split("@")[0])
    want = set(open(symfile).read().split())
    bad = 0
    for n in sorted(got - want):
        print("exported but not expected:", n)
        bad += 1
    for n in sorted(want - got):
        print("expected but not exported:", n)
        bad += 1
    if len(sys.argv) > 3:
        upstream = [n for n in open(sys.argv[3]).read().split("\n")
                    if n and not n.startswith("#")]
        for n in sorted(set(upstream) - got):
            print("exported by the upstream loader, missing here:", n)
            bad += 1
        print("%d upstream symbols checked" % len(upstream))
    dyn = subprocess.run(["readelf", "-d", lib], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", dyn)
    soname = m.group(1) if m else None
    if soname != "libze_loader.so.1":
        print("SONAME is %s, not libze_loader.so.1" % soname)
        bad += 1
    print("%d symbols exported, %d expected, SONAME %s: %s"
          % (len(got), len(want), soname, "ok" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the dynamic symbols a zemem library exports.

usage: check_exports.py LIBRARY KIND [SYSTEM_INCLUDE_DIR]
KIND "driver": exactly DDI getters (ze/zet/zes ...ProcAddrTable), covering
every getter the system's headers declare (Debian's loader requires them).
Fails when anything else is exported or a required getter is missing.
"""
import os
import re
import subprocess
import sys


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWwDdBbRrVvi":
            names.add(parts[2].split("@")[0])
    return names


def required_getters(inc):
    names = set()
    for h in ("ze_ddi.h", "zet_ddi.h", "zes_ddi.h"):
        path = os.path.join(inc, h)
        if os.path.exists(path):
            names |= set(re.findall(r"^(ze[ts]?Get\w+ProcAddrTable)\(",
                                    open(path).read(), re.M))
    return names


def main():
    lib, kind = sys.argv[1], sys.argv[2]
    inc = sys.argv[3] if len(sys.argv) > 3 else "/usr/include/level_zero"
    names = exported(lib)
    bad = 0
    getter = re.compile(r"^ze[ts]?Get\w+ProcAddrTable$")
    if kind == "driver":
        extra = sorted(n for n in names if not getter.match(n))
        for n in extra:
            print("exported but not a DDI getter:", n)
            bad += 1
        req = required_getters(inc)
        for n in sorted(req - names):
            print("required getter missing:", n)
            bad += 1
        counts = {p: sum(1 for n in names if n.startswith(p + "Get"))
                  for p in ("ze", "zet", "zes")}
        print("exported getters: ze %d, zet %d, zes %d; required by the "
              "system headers: %d (all present: %s)"
              % (counts["ze"], counts["zet"], counts["zes"], len(req),
                 "yes" if not (req - names) else "no"))
    else:
        print("unknown kind", kind)
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

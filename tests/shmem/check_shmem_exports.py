#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the dynamic symbols libzeshmem exports against api/shmem.h
(and api/rocshmem/rocshmem.h: rocSHMEM's host API).

usage: check_shmem_exports.py [--roc3 NAMES] LIBRARY API_DIR PSHMEM_DIR CC...
Every exported name must be one shmem.h / shmemx.h / pshmem.h (the
generated profiling names, in PSHMEM_DIR) declare (or one of the
handles SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, SHMEM_CTX_DEFAULT,
ROCSHMEM_TEAM_WORLD, ROCSHMEM_TEAM_SHARED, ROCSHMEM_CTX_DEFAULT,
ROCSHMEM_CTX_INVALID), and every
routine they declare must be exported. --roc3 NAMES: a file of
rocSHMEM 3.x's host routine names (one a line, # comments), each of which
must be declared by rocshmem/rocshmem.h and exported. Fails listing what
differs.
"""
import re
import subprocess
import sys

HANDLES = {"SHMEM_TEAM_WORLD", "SHMEM_TEAM_SHARED", "SHMEM_CTX_DEFAULT",
           "ROCSHMEM_TEAM_WORLD", "ROCSHMEM_TEAM_SHARED",
           "ROCSHMEM_CTX_DEFAULT", "ROCSHMEM_CTX_INVALID"}
NAME = re.compile(r"\b((?:p?shmemx?_\w+)|(?:rocshmemx?_\w+)|start_pes|_my_pe|"
                  r"_num_pes|shmalloc|shmemalign|shrealloc|shfree)\s*\)?\s*\(")


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            names.add(parts[2].split("@")[0])
    return names


def declared(api, pdir, cc):
    src = ("#include <shmem.h>\n#include <shmemx.h>\n#include <pshmem.h>\n"
           "#include <rocshmem/rocshmem.h>\n")
    out = subprocess.run(cc + ["-std=c99", "-E", "-P", "-I", api, "-I", pdir,
                               "-x", "c", "-"], input=src, check=True,
                         capture_output=True, text=True).stdout
    return set(NAME.findall(out))


def main():
    argv = sys.argv[1:]
    roc3 = None
    if argv[:1] == ["--roc3"]:
        roc3, argv = argv[1], argv[2:]
    lib, api, pdir, cc = argv[0], argv[1], argv[2], argv[3:]
    have = exported(lib)
    decl = declared(api, pdir, cc)
    bad = 0
    # The profiling interface: pshmem_X for every shmem_X, and no other.
    for n in sorted(have):
        if n.startswith("shmem_") and "p" + n not in have:
            print("no profiling name for:", n)
            bad += 1
        if n.startswith("pshmem_") and n[1:] not in have:
            print("a profiling name of nothing:", n)
            bad += 1
    for n in sorted(have - decl - HANDLES - {"ZESHMEM_1"}):
        print("exported but not an API name:", n)
        bad += 1
    for n in sorted(HANDLES - have):
        print("handle not exported:", n)
        bad += 1
    for n in sorted(decl - have):
        print("declared but not exported:", n)
        bad += 1
    if roc3:
        with open(roc3) as f:
            want = {ln.strip() for ln in f
                    if ln.strip() and not ln.startswith("#")}
        for n in sorted(want - decl):
            print("rocSHMEM 3.x host routine not declared:", n)
            bad += 1
        for n in sorted(want - have):
            print("rocSHMEM 3.x host routine not exported:", n)
            bad += 1
        print("rocSHMEM 3.x host routines: %d, %d of them here"
              % (len(want), len(want & decl & have)))
    print("exported %d names; the headers declare %d routines"
          % (len(have), len(decl)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

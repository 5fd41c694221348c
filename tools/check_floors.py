#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_floors: the driver's modules form floors that only call down.

The floors (driver/drv_core.h says why), bottom first:
  common/ -> usm/ -> drv_core -> amap/ -> vmm/ -> ipc/ -> cmd/ ->
  the entry-point files of driver/ (drv_mem, drv_context, ...) -> drv_ddi

Two checks, each fails (exit 1) with one line per breach:
  includes  every #include "..." of a file under driver/ names a header of
            its own module, of a floor below, or of common/; a folder's
            private header (usm_private.h, vmm_private.h, ipc.h, cmd.h) is
            included from its own folder only;
  symbols   (with --objects BUILD_DIR) every symbol an object file of the
            driver takes from another module of the driver is defined on a
            floor below it (nm over BUILD_DIR/driver/**/*.o).

  check_floors.py SOURCE_ROOT [--objects BUILD_DIR]
"""
import glob
import os
import re
import subprocess
import sys

FLOORS = ["usm", "core", "amap", "vmm", "ipc", "cmd", "top", "ddi"]
PRIVATE = {
    "usm/usm_private.h": "usm",
    "vmm/vmm_private.h": "vmm",
    "ipc/ipc.h": "ipc",
    "cmd/cmd.h": "cmd",
}


def module_of(rel):
    """rel: a path relative to driver/ -> module name (or None)."""
    head, _, name = rel.partition("/")
    if name:
        return head if head in FLOORS else None
    base = os.path.splitext(rel)[0]
    if base == "drv_core":
        return "core"
    if base == "drv_ddi":
        return "ddi"
    return "top"


def floor(mod):
    return FLOORS.index(mod)


def resolve(src_root, including, name):
    """The path (relative to driver/) an #include "name" of the file
    including (relative to driver/) finds, "common" for a common/ header,
    or None when it is not the project's."""
    drv = os.path.join(src_root, "driver")
    here = os.path.dirname(os.path.join(drv, including))
    # The include path of the driver: the file's folder, driver/,
    # driver/usm (usm_inc), common/.
    for d in (here, drv, os.path.join(drv, "usm")):
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return os.path.relpath(p, drv)
    if os.path.isfile(os.path.join(src_root, "common", name)):
        return "common"
    return None


def check_includes(src_root):
    bad = []
    drv = os.path.join(src_root, "driver")
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for path in sorted(glob.glob(os.path.join(drv, "**", "*.[ch]"),
                                 recursive=True)):
        rel = os.path.relpath(path, drv)
        mod = module_of(rel)
        if mod is None:
            continue
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                m = inc.match(line)
                if not m:
                    continue
                to = resolve(src_root, rel, m.group(1))
                if to is None or to == "common":
                    continue
                tmod = module_of(to)
                if tmod is None:
                    continue
                where = "driver/%s:%d" % (rel, no)
                if to in PRIVATE and PRIVATE[to] != mod:
                    bad.append("%s: %s includes %s, private to %s/" %
                               (where, mod, to, PRIVATE[to]))
                elif floor(tmod) > floor(mod):
                    bad.append("%s: %s (floor %d) includes %s of %s "
                               "(floor %d, above)" %
                               (where, mod, floor(mod), to, tmod,
                                floor(tmod)))
    return bad


def object_module(path):
    """An object of the driver's build -> module name."""
    name = os.path.basename(path)
    if name.endswith(".c.o"):
        name = name[:-4]
    if "usm" in os.path.basename(os.path.dirname(path)):
        return "usm"
    for folder in ("amap", "vmm", "ipc", "cmd"):
        if name.startswith(folder + "_" + folder):
            return folder
    return module_of(name + ".c")


def check_symbols(build):
    objs = [o for o in glob.glob(os.path.join(build, "driver", "**", "*.o"),
                                 recursive=True)]
    if not objs:
        return ["no object files under %s/driver" % build]
    defs, undef = {}, {}
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        mod = object_module(o)
        undef.setdefault((mod, o), set())
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRC":
                defs[f[2]] = mod
            elif len(f) == 2 and f[0] == "U":
                undef[(mod, o)].add(f[1])
    bad = []
    for (mod, o), syms in sorted(undef.items()):
        for s in sorted(syms):
            tmod = defs.get(s)
            if tmod and tmod != mod and floor(tmod) > floor(mod):
                bad.append("%s: %s (floor %d) uses %s of %s (floor %d, "
                           "above)" % (os.path.basename(o), mod, floor(mod),
                                       s, tmod, floor(tmod)))
    return bad


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = check_includes(argv[1])
    if len(argv) == 4 and argv[2] == "--objects":
        bad += check_symbols(argv[3])
    for b in bad:
        print(b)
    if bad:
        print("%d call(s) or include(s) go up a floor" % len(bad))
        return 1
    print("floors: %s, each calls only down" % " -> ".join(FLOORS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

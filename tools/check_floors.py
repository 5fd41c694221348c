#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_floors: the driver's modules, and libzeshmem's, form floors
that only call down.

The driver's floors (driver/drv_core.h says why), bottom first:
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

With --shmem, libzeshmem's floors instead (shmem/core/sh.h says why),
one folder of shmem/ each, bottom first, then what is built on the
library:
  core -> boot -> mem -> transport -> ops -> ctx -> team -> init ->
  faces -> tools, and above the library wholememory/ and python/
  includes  every #include "..." of a file under shmem/ names a header of
            its floor or one below (or common/, api/); a header under
            shmem/ is never included from wholememory/ or python/;
  symbols   (with --objects) every symbol an object of libzeshmem or of
            its tools takes from another floor is defined on a floor
            below; wholememory's and python's objects take only the
            names the faces export (the public API).

  check_floors.py SOURCE_ROOT --shmem [--objects BUILD_DIR]
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


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def includes_of(path):
    """(line number, name) of every #include "name" of the file."""
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield no, m.group(1)


def nm_scan(objs, module_fn, defines=lambda mod: True):
    """nm over objs: ({symbol: module defining it}, {(module, object):
    {symbols it takes}}); module_fn(object) names an object's module
    (None: skipped); defines(module) says whether its definitions count."""
    defs, undef = {}, {}
    for o in objs:
        mod = module_fn(o)
        if mod is None:
            continue
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        undef.setdefault((mod, o), set())
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRCVW" and defines(mod):
                defs.setdefault(f[2], mod)
            elif len(f) == 2 and f[0] == "U":
                undef[(mod, o)].add(f[1])
    return defs, undef


def check_includes(src_root):
    bad = []
    drv = os.path.join(src_root, "driver")
    for path in sorted(glob.glob(os.path.join(drv, "**", "*.[ch]"),
                                 recursive=True)):
        rel = os.path.relpath(path, drv)
        mod = module_of(rel)
        if mod is None:
            continue
        for no, name in includes_of(path):
            to = resolve(src_root, rel, name)
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
    defs, undef = nm_scan(objs, object_module)
    bad = []
    for (mod, o), syms in sorted(undef.items()):
        for s in sorted(syms):
            tmod = defs.get(s)
            if tmod and tmod != mod and floor(tmod) > floor(mod):
                bad.append("%s: %s (floor %d) uses %s of %s (floor %d, "
                           "above)" % (os.path.basename(o), mod, floor(mod),
                                       s, tmod, floor(tmod)))
    return bad


# ---- libzeshmem -------------------------------------------------------

SH_FLOORS = ["core", "boot", "mem", "transport", "ops", "ctx", "team",
             "init", "faces", "tools", "wholememory", "python"]
# Built on the library: the public API only.
SH_ABOVE = ("wholememory", "python")


def sh_module_of(rel):
    """rel: a path relative to the source root -> floor name or None."""
    parts = rel.split(os.sep)
    if parts[0] == "shmem" and len(parts) > 2 and parts[1] in SH_FLOORS:
        return parts[1]
    if parts[0] in SH_ABOVE:
        return parts[0]
    return None


def sh_headers(src_root):
    """Header name -> its floor, for every header under shmem/ (the
    library's include path lists every floor's folder)."""
    out = {}
    for path in glob.glob(os.path.join(src_root, "shmem", "*", "*.h")):
        mod = sh_module_of(os.path.relpath(path, src_root))
        if mod:
            out[os.path.basename(path)] = mod
    return out


def sh_check_includes(src_root):
    bad = []
    heads = sh_headers(src_root)
    files = []
    for top in ("shmem", "wholememory", "python"):
        files += glob.glob(os.path.join(src_root, top, "**", "*.[ch]"),
                           recursive=True)
    for path in sorted(files):
        rel = os.path.relpath(path, src_root)
        mod = sh_module_of(rel)
        if mod is None:
            continue
        for no, inc in includes_of(path):
            name = os.path.basename(inc)
            here = os.path.join(os.path.dirname(path), inc)
            tmod = heads.get(name)
            if tmod is None or (os.path.isfile(here) and
                                sh_module_of(os.path.relpath(
                                    os.path.normpath(here),
                                    src_root)) == mod):
                continue
            where = "%s:%d" % (rel, no)
            if mod in SH_ABOVE and tmod not in SH_ABOVE:
                bad.append("%s: %s includes %s, private to "
                           "libzeshmem (%s)" % (where, mod, name, tmod))
            elif SH_FLOORS.index(tmod) > SH_FLOORS.index(mod):
                bad.append("%s: %s (floor %d) includes %s of %s "
                           "(floor %d, above)" %
                           (where, mod, SH_FLOORS.index(mod), name,
                            tmod, SH_FLOORS.index(tmod)))
    return bad


def sh_object_module(build, path):
    """An object of the build -> floor name. Meson names an object of
    shmem/<floor>/x.c "<floor>_x.c.o" inside the library's .p folder."""
    rel = os.path.relpath(path, build)
    top = rel.split(os.sep)[0]
    if top in SH_ABOVE:
        return top
    if rel.startswith(os.path.join("shmem", "tools")):
        return "tools"
    head = os.path.basename(path).split("_", 1)[0]
    return head if head in SH_FLOORS else None


def sh_check_symbols(build):
    objs = []
    for top in ("shmem", "wholememory", "python"):
        objs += glob.glob(os.path.join(build, top, "**", "*.o"),
                          recursive=True)
    if not any("libzeshmem_core" in o for o in objs):
        return ["no object files of libzeshmem under %s/shmem" % build]
    defs, undef = nm_scan(objs, lambda o: sh_object_module(build, o),
                          lambda mod: mod != "tools")
    bad = []
    for (mod, o), syms in sorted(undef.items()):
        for s in sorted(syms):
            tmod = defs.get(s)
            if not tmod or tmod == mod:
                continue
            name = os.path.relpath(o, build)
            if mod in SH_ABOVE and tmod not in SH_ABOVE and \
                    tmod != "faces":
                bad.append("%s: %s uses %s of %s, not an API name" %
                           (name, mod, s, tmod))
            elif SH_FLOORS.index(tmod) > SH_FLOORS.index(mod):
                bad.append("%s: %s (floor %d) uses %s of %s (floor %d, "
                           "above)" % (name, mod, SH_FLOORS.index(mod), s,
                                       tmod, SH_FLOORS.index(tmod)))
    return bad


def main(argv):
    args = argv[1:]
    shmem = "--shmem" in args
    args = [a for a in args if a != "--shmem"]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    build = None
    if len(args) == 3 and args[1] == "--objects":
        build = args[2]
    if shmem:
        bad = sh_check_includes(args[0])
        if build:
            bad += sh_check_symbols(build)
        floors = SH_FLOORS
    else:
        bad = check_includes(args[0])
        if build:
            bad += check_symbols(build)
        floors = FLOORS
    for b in bad:
        print(b)
    if bad:
        print("%d call(s) or include(s) go up a floor" % len(bad))
        return 1
    print("floors: %s, each calls only down" % " -> ".join(floors))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

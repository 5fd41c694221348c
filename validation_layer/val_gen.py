#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
val_gen: generates the validation layer's DDI getters and one wrapper per
Level Zero entry point, from the project's own headers.

Inputs (the one list of entry points):
  api/zemem/ze_ddi_versions.h  ZE_DDI_TABLES(T) and ZE_<TABLE>_DDI_FIELDS(X):
                               the tables, their fields in order, and the
                               API version that added each field;
  api/level_zero/ze_ddi.h      the pfn type of each field;
  api/level_zero/ze_api.h      the parameter list of each pfn type, the
                               typedefs (handle, enum, flags, struct) used
                               to print arguments, and ze_result_t's names;
  hook sources                 the hand-written checks: every definition
                               that starts a line as `val_ze<Name>(` (the
                               return type sits on the line above, house
                               style) replaces the plain call to the next
                               layer in that entry point's wrapper. Hooks
                               in a header (.h) are static inline: val_gen.c
                               includes it, so the hot entry points are one
                               function (no prototype in val_gen.h).

Outputs:
  val_gen.h  enum val_ep (one id per entry point), the argument structs
             (struct val_args_<ep>), the hook prototypes (their signatures
             are checked by the compiler against the pfn types);
  val_gen.c  the wrappers, the exported zeGet*ProcAddrTable getters (plus
             no-op zet/zes getters that loaders require), val_ep_name(),
             val_format_args(), val_result_name().

Every wrapper: packs its arguments (so a finding can print them), runs the
generic checks (NULL first handle; lifetime of context, device and
physical-memory handle arguments; with parameter validation, the pNext
chains of every structure the call fills in, found from ze_api.h: a
non-const pointer to a struct that starts with stype and a writable
pNext, an array of them when a uint32_t *count comes before it;
val_out_chain, val_out.c), calls the hook or the next layer, reports the
chains' unknown stypes (val_out_note), and counts successful calls for the
leak table. The wrappers of the hot entry
points (inline hooks) do the same checks in the same order, but pack their
arguments (VAL_CALL_<ep>, val_gen.h) only where a finding or a slow path
needs them, run a copy of themselves compiled for each set of switches, and
take the thread's hot context and device (val_hot, val.h) for the lookup
and the lifetime test when one load shows they are still live
(write_inline_wrapper).
"""
import argparse
import re
import sys

# zet/zes getters a loader may look up in a layer (Intel's loaders fail the
# layer when one is missing). The layer does not wrap these tables: the
# getters check their arguments and leave the table as it is.
TOOL_GETTERS = """
zetGetDeviceProcAddrTable zetGetContextProcAddrTable
zetGetCommandListProcAddrTable zetGetModuleProcAddrTable
zetGetKernelProcAddrTable zetGetMetricGroupProcAddrTable
zetGetMetricGroupExpProcAddrTable zetGetMetricProcAddrTable
zetGetMetricStreamerProcAddrTable zetGetMetricQueryPoolProcAddrTable
zetGetMetricQueryProcAddrTable zetGetTracerExpProcAddrTable
zetGetDebugProcAddrTable zetGetMetricExpProcAddrTable
zetGetMetricProgrammableExpProcAddrTable zetGetMetricTracerExpProcAddrTable
zetGetMetricDecoderExpProcAddrTable zetGetDeviceExpProcAddrTable
zesGetGlobalProcAddrTable zesGetDriverProcAddrTable
zesGetDriverExpProcAddrTable zesGetDeviceProcAddrTable
zesGetDeviceExpProcAddrTable zesGetSchedulerProcAddrTable
zesGetPerformanceFactorProcAddrTable zesGetPowerProcAddrTable
zesGetFrequencyProcAddrTable zesGetEngineProcAddrTable
zesGetStandbyProcAddrTable zesGetFirmwareProcAddrTable
zesGetFirmwareExpProcAddrTable zesGetMemoryProcAddrTable
zesGetFabricPortProcAddrTable zesGetTemperatureProcAddrTable
zesGetPsuProcAddrTable zesGetFanProcAddrTable zesGetLedProcAddrTable
zesGetRasProcAddrTable zesGetRasExpProcAddrTable
zesGetDiagnosticsProcAddrTable zesGetOverclockProcAddrTable
zesGetVFManagementExpProcAddrTable
""".split()

# Handle types whose lifetime the layer tracks, and the check to call.
# Hooks that count their own calls (val_count_call: the process's and the
# context's count; their rows are per context in val_leak.c), so their
# wrappers do not call val_count.
# Entry points with a fast path (val_fast_<ep>, found in the hooks).
FAST = set()
# Those whose fast path takes the mode's shared path too (ws<m>_<ep>: the
# fast path's own body, out of line, for what the thread's own records
# do not take; val_hot.h).
SHARED = set()
# Those whose fast path ends in the mode's after path (wa<m>_<ep>: what
# follows the next layer's success, out of line, so that the fast
# wrapper keeps only the arguments across the call and tail-calls it
# with them; val_hot.h).
AFTER = set()

SELF_COUNTED = {"zeMemAllocHost", "zeMemAllocDevice", "zeMemAllocShared",
                "zeMemFree"}

LIFETIME_CHECKS = {
    "ze_context_handle_t": "val_check_context",
    "ze_device_handle_t": "val_check_device",
    "ze_physical_mem_handle_t": "val_check_pmem",
}


def fail(msg):
    sys.exit("val_gen.py: " + msg)


def parse_tables(text):
    """[(table, Getter, [(field, major, minor)])] in ze_dditable_t order."""
    fields = {}
    for m in re.finditer(r"#define (ZE_\w+_DDI_FIELDS)\(X\)((?:[^\n]*\\\n)*[^\n]*)",
                         text):
        fields[m.group(1)] = [(f, int(a), int(b)) for f, a, b in re.findall(
            r"X\((\w+),\s*(\d+),\s*(\d+)\)", m.group(2))]
    m = re.search(r"#define ZE_DDI_TABLES\(T\)((?:[^\n]*\\\n)*[^\n]*)", text)
    if not m:
        fail("ZE_DDI_TABLES not found")
    tables = []
    for t, g, f in re.findall(r"T\((\w+),\s*(\w+),\s*(\w+)\)", m.group(1)):
        if f not in fields:
            fail("no field list " + f)
        tables.append((t, g, fields[f]))
    return tables


def parse_ddi(text):
    """{table: {field: pfn type}} from the ze_<table>_dditable_t structs."""
    out = {}
    for m in re.finditer(r"typedef struct _ze_(\w+)_dditable_t \{(.*?)\}", text,
                         re.S):
        out[m.group(1)] = dict((f, t) for t, f in re.findall(
            r"(ze_pfn\w+_t)\s+(\w+);", m.group(2)))
    return out


def parse_api(text):
    pfns = {}
    for ret, name, params in re.findall(
            r"typedef (\w+) \(ZE_APICALL \*(ze_pfn\w+_t)\)\((.*?)\);",
            text, re.S):
        plist = []
        for p in params.split(","):
            p = " ".join(p.split())
            if p == "void":
                continue
            m = re.match(r"^(.*?)\s*\b(\w+)$", p)
            if not m or "(" in p or "[" in p:
                fail("cannot parse parameter %r of %s" % (p, name))
            plist.append((m.group(1), m.group(2)))
        pfns[name] = (ret, plist)
    handles = set(re.findall(r"typedef struct _\w+ \*(\w+);", text))
    enums = set(re.findall(r"\}\s*(\w+);", text)) & set(
        re.findall(r"typedef enum _(\w+)", text))
    structs = set(re.findall(r"typedef struct _(\w+)", text)) - handles
    scalars = dict((n, t) for t, n in re.findall(
        r"typedef (uint8_t|uint32_t|uint64_t|int32_t) (\w+);", text))
    fnptrs = set(re.findall(r"typedef void \(ZE_APICALL \*(\w+)\)", text))
    m = re.search(r"typedef enum _ze_result_t \{(.*?)\}", text, re.S)
    results = [n for n in re.findall(r"(ZE_RESULT_\w+)\s*=", m.group(1))
               if n != "ZE_RESULT_FORCE_UINT32"]
    m = re.search(r"typedef enum _ze_structure_type_t \{(.*?)\}", text, re.S)
    if not m:
        fail("ze_structure_type_t not found")
    stypes = sorted((int(v, 0), n) for n, v in re.findall(
        r"(ZE_STRUCTURE_TYPE_\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+)", m.group(1))
        if n != "ZE_STRUCTURE_TYPE_FORCE_UINT32")
    # Structures a call fills in: stype, then a writable pNext (the spec's
    # [in,out] chains; input descriptors have const void *pNext).
    outs = set(re.findall(
        r"typedef struct _(\w+) \{\s*ze_structure_type_t stype;\s*"
        r"void \*pNext;", text))
    return pfns, handles, enums, structs, scalars, fnptrs, results, stypes, \
        outs


class Types:
    def __init__(self, handles, enums, structs, scalars, fnptrs):
        self.handles, self.enums, self.structs = handles, enums, structs
        self.scalars, self.fnptrs = scalars, fnptrs

    def fmt(self, ctype, name, tmp):
        """(printf conversion, argument expression, temp decl or None)."""
        bare = ctype.replace("const ", "").strip()
        a = "a->" + name
        if "*" in ctype or bare in self.handles:
            return "%p", "(const void *)" + a, None
        if bare in self.fnptrs:
            return "%p", "(const void *)(uintptr_t)" + a, None
        if bare == "size_t":
            return "%zu", a, None
        if bare in ("uint32_t", "unsigned int"):
            return "%u", "(unsigned)" + a, None
        if bare == "uint64_t":
            return "%llu", "(unsigned long long)" + a, None
        if bare in self.enums:
            return "%d", "(int)" + a, None
        if bare in self.scalars:
            if bare.endswith("_flags_t"):
                return "0x%x", "(unsigned)" + a, None
            return "%llu", "(unsigned long long)" + a, None
        if bare in self.structs:
            decl = "char %s[40];" % tmp
            return "%s", "val_fmt_bytes(%s, sizeof(%s), &%s, sizeof(%s))" % (
                tmp, tmp, a, a), decl
        fail("no format for parameter type %r" % ctype)


def entry_name(pfn):
    m = re.match(r"ze_pfn(\w+)_t$", pfn)
    return "ze" + m.group(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--api", required=True)
    ap.add_argument("--ddi", required=True)
    ap.add_argument("--versions", required=True)
    ap.add_argument("--out-h", required=True)
    ap.add_argument("--out-c", required=True)
    ap.add_argument("hooks", nargs="*")
    args = ap.parse_args()

    tables = parse_tables(open(args.versions).read())
    ddi = parse_ddi(open(args.ddi).read())
    pfns, handles, enums, structs, scalars, fnptrs, results, stypes, outs = \
        parse_api(open(args.api).read())
    types = Types(handles, enums, structs, scalars, fnptrs)

    hooked = set()
    inline = set()
    headers = []
    for path in args.hooks:
        text = open(path).read()
        found = set(re.findall(r"^val_(ze\w+)\(", text, re.M))
        FAST.update(re.findall(r"^val_fast_(ze\w+)\(", text, re.M))
        SHARED.update(re.findall(r"^val_fast_(ze\w+)\([^)]*\bshared\)",
                                 text, re.M))
        AFTER.update(re.findall(r"^val_fast_(ze\w+)\([^)]*\bafter\)",
                                text, re.M))
        hooked |= found
        if path.endswith(".h"):
            inline |= found
            headers.append(path.replace("\\", "/").split("/")[-1])

    # One entry per (table, field): the entry point, its parameters.
    eps = []
    seen = set()
    for table, getter, fields in tables:
        for field, ma, mi in fields:
            pfn = ddi.get(table, {}).get(field)
            if not pfn or pfn not in pfns:
                fail("no pfn type for %s.%s" % (table, field))
            name = entry_name(pfn)
            if name in seen:
                fail("entry point %s appears twice" % name)
            seen.add(name)
            ret, params = pfns[pfn]
            eps.append(dict(table=table, getter=getter, field=field, ma=ma,
                            mi=mi, pfn=pfn, name=name, ret=ret,
                            params=params, outs=out_params(params, outs)))
    unknown = hooked - seen
    if unknown:
        fail("hooks for unknown entry points: " + ", ".join(sorted(unknown)))

    write_header(args.out_h, eps, hooked - inline, inline)
    write_source(args.out_c, eps, hooked, inline, tables, types, results,
                 headers, stypes)


def out_params(params, outs):
    """[(name, count expression or None)]: the parameters that point to a
    structure the call fills in (outs), and for an array the count
    parameter before it (uint32_t *pCount, the spec's [range(0, *pCount)]
    convention)."""
    res = []
    for i, (t, n) in enumerate(params):
        bare = t.replace("*", "").strip()
        if "const" in t or t.count("*") != 1 or bare not in outs:
            continue
        prev = params[i - 1] if i else None
        count = None
        if prev and prev[0].replace(" ", "") == "uint32_t*":
            count = prev[1]
        res.append((n, count))
    return res


def out_checks(e, cfg, call, ind):
    """The output-chain checks of entry point e before its call: lines.
    call is the expression of its struct val_call pointer."""
    o = []
    for n, count in e["outs"]:
        o.append("%sif (%s->params && %s%s && (r = %s))" % (
            ind, cfg, n, "" if count else " && " + n + "->pNext",
            ("val_out_array(%s, \"%s\", %s, %s ? *%s : 0, sizeof(*%s), &oc_%s)"
             % (call, n, n, count, count, n, n)) if count else
            ("val_out_chain(%s, \"%s\", %s->pNext, &oc_%s)"
             % (call, n, n, n))))
        o.append("%s\treturn r;" % ind)
    return o


def out_notes(e, call, ind):
    o = []
    for n, count in e["outs"]:
        o.append("%sif (__builtin_expect(oc_%s.unknown, 0))" % (ind, n))
        o.append("%s\tval_out_note(%s, \"%s\", &oc_%s, r);" % (
            ind, call, n, n))
    return o


def proto_params(params):
    return ", ".join("%s %s" % (t, n) for t, n in params) or "void"


def write_header(path, eps, hooked, inline):
    o = []
    o.append("/* SPDX-License-Identifier: MIT */")
    o.append("/* Generated by val_gen.py: do not edit. */")
    o.append("#ifndef ZEMEM_VAL_GEN_H\n#define ZEMEM_VAL_GEN_H\n")
    o.append("#include <level_zero/ze_api.h>\n#include <level_zero/ze_ddi.h>\n")
    o.append("enum val_ep {")
    for e in eps:
        o.append("\tVAL_EP_%s," % e["name"])
    o.append("\tVAL_EP_COUNT,\n};\n")
    o.append("struct val_call;\n")
    for e in eps:
        o.append("struct val_args_%s {" % e["name"])
        for t, n in e["params"]:
            o.append("\t%s %s;" % (t, n))
        if not e["params"]:
            o.append("\tchar unused;")
        o.append("};")
    o.append("")
    o.append("/* The call of an entry point whose hook is inline, built where a")
    o.append(" * finding or a slow path needs it (the hot path builds none). */")
    for e in eps:
        if e["name"] not in inline:
            continue
        ps = ["a%d" % i for i in range(len(e["params"]))]
        init = ", ".join("(%s)" % p for p in ps) if ps else "0"
        o.append("#define VAL_CALL_%s(hctx%s) \\" % (
            e["name"], "".join(", " + p for p in ps)))
        o.append("\t(&(struct val_call){ VAL_EP_%s, \\" % e["name"])
        o.append("\t\t&(const struct val_args_%s){ %s }, (hctx) })" % (
            e["name"], init))
    o.append("")
    o.append("/* Hand-written checks (one per hooked entry point). */")
    for e in eps:
        if e["name"] in hooked:
            extra = ", " + proto_params(e["params"]) if e["params"] else ""
            o.append("%s val_%s(const struct val_call *call%s);" % (
                e["ret"], e["name"], extra))
    o.append("")
    o.append("#endif")
    open(path, "w").write("\n".join(o) + "\n")


HKINDS = {
    "val_check_context": "VAL_H_CONTEXT",
    "val_check_device": "VAL_H_DEVICE",
    "val_check_pmem": "VAL_H_PMEM",
}


def write_inline_wrapper(o, e, types):
    """The wrapper of an entry point whose hook is inline (a hot one): the
    same checks as write_source's, in the same order, in a body that takes
    the switches as cfg, run with the constant switches of the mode
    (val_cfg_modes[val_cfg.mode]: no switch is tested again), or with
    val_cfg where backtraces are on; the struct val_call is built
    (VAL_CALL_<ep>) only where a finding or a slow path needs it."""
    name, params, ret = e["name"], e["params"], e["ret"]
    names = ", ".join(n for _, n in params)
    call = "VAL_CALL_%s(hctx%s)" % (name, ", " + names if params else "")
    hook = "val_%s(cfg, hctx, cn%s)" % (name, ", " + names if params else "")
    if e["outs"]:
        # Output chains to walk: out of line (wo_<ep>), so the hot path
        # pays one test of an empty pNext.
        o.append("static __attribute__((noinline)) %s\n"
                 "wo_%s(const struct val_config *cfg, struct val_handle *hctx,"
                 " _Atomic uint64_t *cn%s)\n{" % (
                     ret, name, ", " + proto_params(params) if params else ""))
        o.append("\t%s r;" % ret)
        for n, _ in e["outs"]:
            o.append("\tstruct val_out oc_%s = { 0 };" % n)
        o.extend(out_checks(e, "cfg", call, "\t"))
        o.append("\tr = %s;" % hook)
        o.extend(out_notes(e, call, "\t"))
        o.append("\treturn r;\n}\n")
    o.append("static inline __attribute__((always_inline)) %s\n"
             "wb_%s(const struct val_config *cfg%s)\n{" % (
                 ret, name, ", " + proto_params(params) if params else ""))
    o.append("\tstruct val_handle *hctx = NULL;")
    o.append("\t_Atomic uint64_t *cn = NULL;")
    o.append("\t%s r;" % ret)
    ctx_first = bool(params) and params[0][0] == "ze_context_handle_t"
    if ctx_first:
        # The thread's hot context (val_hot) stands for the lookup, the
        # lifetime check and the count slot's test: cn is set only then.
        c0 = params[0][1]
        o.append("\tif (cfg->tracking) {")
        o.append("\t\tif (__builtin_expect(val_hot_ctx(%s), 1)) {" % c0)
        o.append("\t\t\thctx = val_hot.ctx_hd;")
        o.append("\t\t\tcn = val_hot.ctx_n;")
        o.append("\t\t} else {")
        o.append("\t\t\thctx = val_handle_find(%s);" % c0)
        # Without the leak checker's counts (which fill the entry
        # otherwise), the lookup makes it the thread's hot context.
        o.append("\t\t\tif (cfg->mode && cfg->lifetime && !cfg->leak)")
        o.append("\t\t\t\tval_hot_take_ctx(hctx);")
        o.append("\t\t}")
        o.append("\t}")
    checks = []
    if params and params[0][0] in types.handles:
        checks.append('if (!%s && cfg->params)\n\t\t\treturn val_null_handle(%s, "%s");'
                      % (params[0][1], call, params[0][1]))
    for i, (t, n) in enumerate(params):
        fn = LIFETIME_CHECKS.get(t)
        if not fn:
            continue
        if ctx_first and i == 0:
            known = "!cn &&\n\t\t    !val_handle_is(hctx, %s)" % HKINDS[fn]
        elif fn == "val_check_device":
            known = ("!val_hot_dev(%s) &&\n\t\t    "
                     "!val_hot_take_dev(val_handle_find(%s))" % (n, n))
        else:
            known = "!val_handle_is(val_handle_find(%s), %s)" % (n, HKINDS[fn])
        checks.append('if (cfg->lifetime && %s &&\n\t\t    %s &&\n'
                      '\t\t    (r = %s_slow(%s, "%s", %s)))\n\t\t\treturn r;'
                      % (n, known, fn, call, n, n))
    if checks:
        o.append("\tif (cfg->checks) {")
        for c in checks:
            o.append("\t\t" + c)
        o.append("\t}")
    if e["outs"]:
        test = " ||\n\t     ".join(
            "(%s && %s)" % (n, n) if c else "(%s && %s->pNext)" % (n, n)
            for n, c in e["outs"])
        o.append("\tif (cfg->params &&\n\t    __builtin_expect(%s, 0))" % test)
        o.append("\t\tr = wo_%s(cfg, hctx, cn%s);" % (
            name, ", " + names if params else ""))
        o.append("\telse")
        o.append("\t\tr = %s;" % hook)
    else:
        o.append("\tr = %s;" % hook)
    if name not in SELF_COUNTED:
        o.append("\tif (cfg->leak && r == ZE_RESULT_SUCCESS)")
        o.append("\t\tval_count(VAL_EP_%s);" % name)
    o.append("\treturn r;\n}\n")
    # One copy of the body per mode (val_config.mode), a function of its
    # own (its frame only as large as its switches need), where the
    # switches are constants. The tables get the mode's (wt_<ep>, picked
    # once by the getter), so a call pays no dispatch.
    fast = name in FAST
    for m in range(8):
        o.append("static %s ZE_APICALL __attribute__((noinline))\n"
                 "wm%d_%s(%s)\n{" % (ret, m, name, proto_params(params)))
        o.append("\treturn wb_%s(%s%s);\n}\n" % (
            name, "&val_cfg_modes[%d]" % m if m else "&val_cfg",
            ", " + names if params else ""))
    # The modes that keep records (VAL_MODE_FAST, val.h): a fast path
    # (val_fast_<ep> in val_hot.h) when the context is the thread's hot
    # one (which only those modes fill in: val_hot_set_ctx,
    # val_hot_take_ctx), which hands what it does not take to the mode's
    # copy.
    fast_modes = [m for m in range(8)
                  if fast and m & 6]  # lifetime (2) or leak (4)
    for m in fast_modes:
        extra = ""
        if name in SHARED:
            o.append("static %s ZE_APICALL __attribute__((noinline))\n"
                     "ws%d_%s(%s)\n{" % (ret, m, name, proto_params(params)))
            o.append("\treturn val_fast_%s(&val_cfg_modes[%d], %s, wm%d_%s, "
                     "NULL);\n}\n" % (name, m, names, m, name))
            extra = ", ws%d_%s" % (m, name)
        if name in AFTER:
            o.append("static %s ZE_APICALL __attribute__((noinline))\n"
                     "wa%d_%s(%s)\n{" % (ret, m, name, proto_params(params)))
            o.append("\treturn val_after_%s(&val_cfg_modes[%d], %s);\n}\n"
                     % (name, m, names))
            extra += ", wa%d_%s" % (m, name)
        o.append("static %s ZE_APICALL\nw%d_%s(%s)\n{" % (
            ret, m, name, proto_params(params)))
        o.append("\tif (__builtin_expect(val_hot_ctx(%s), 1))" % params[0][1])
        o.append("\t\treturn val_fast_%s(&val_cfg_modes[%d], %s, wm%d_%s%s);"
                 % (name, m, names, m, name, extra))
        o.append("\treturn wm%d_%s(%s);\n}\n" % (m, name, names))
    o.append("static __typeof__(wm0_%s) *const wt_%s[8] = {" % (name, name))
    o.append("\t" + ", ".join("w%s%d_%s" % ("" if m in fast_modes else "m",
                                            m, name) for m in range(8)) +
             ",")
    o.append("};\n")


def write_source(path, eps, hooked, inline, tables, types, results,
                 headers, stypes):
    o = []
    o.append("/* SPDX-License-Identifier: MIT */")
    o.append("/* Generated by val_gen.py: do not edit. */")
    o.append('#include "val.h"')
    for h in headers:
        o.append('#include "%s"' % h)
    o.append("")
    o.append("#include <stdio.h>\n")
    o.append("ze_dditable_t val_next;\n")

    o.append("static const char *const ep_names[VAL_EP_COUNT] = {")
    for e in eps:
        o.append('\t"%s",' % e["name"])
    o.append("};\n")
    o.append("const char *\nval_ep_name(unsigned ep)\n{")
    o.append('\treturn ep < VAL_EP_COUNT ? ep_names[ep] : "?";\n}\n')

    o.append("const char *\nval_result_name(ze_result_t r)\n{")
    o.append("\tswitch (r) {")
    for r in results:
        o.append('\tcase %s: return "%s";' % (r, r))
    o.append('\tdefault: return "ZE_RESULT_?";\n\t}\n}\n')

    # The structure types of api/level_zero/ze_api.h, by value, for
    # val_stype_name (a bisection).
    o.append("static const struct {\n\tuint32_t v;\n\tconst char *name;\n"
             "} stypes[] = {")
    for v, n in stypes:
        o.append('\t{ 0x%x, "%s" },' % (v, n))
    o.append("};\n")
    o.append("const char *\nval_stype_name(uint32_t stype)\n{")
    o.append("\tsize_t lo = 0, hi = sizeof(stypes) / sizeof(stypes[0]);")
    o.append("\twhile (lo < hi) {")
    o.append("\t\tsize_t mid = lo + (hi - lo) / 2;")
    o.append("\t\tif (stypes[mid].v == stype)")
    o.append("\t\t\treturn stypes[mid].name;")
    o.append("\t\tif (stypes[mid].v < stype)")
    o.append("\t\t\tlo = mid + 1;")
    o.append("\t\telse")
    o.append("\t\t\thi = mid;")
    o.append("\t}")
    o.append("\treturn NULL;\n}\n")

    o.append("int\nval_format_args(const struct val_call *c, char *buf, size_t len)\n{")
    o.append("\tswitch (c->ep) {")
    for e in eps:
        o.append("\tcase VAL_EP_%s: {" % e["name"])
        if not e["params"]:
            o.append('\t\treturn snprintf(buf, len, "%s", "");\n\t}')
            continue
        o.append("\t\tconst struct val_args_%s *a = c->args;" % e["name"])
        fmts, exprs = [], []
        for i, (t, n) in enumerate(e["params"]):
            f, x, decl = types.fmt(t, n, "t%d" % i)
            if decl:
                o.append("\t\t" + decl)
            fmts.append("%s=%s" % (n, f))
            exprs.append(x)
        o.append('\t\treturn snprintf(buf, len, "%s",\n\t\t\t\t%s);' % (
            ", ".join(fmts), ",\n\t\t\t\t".join(exprs)))
        o.append("\t}")
    o.append('\tdefault:\n\t\treturn snprintf(buf, len, "?");\n\t}\n}\n')

    o.append("/* Entry points whose hooks count their calls (val_leak.c checks")
    o.append(" * that their rows are per context). */")
    o.append("const unsigned val_self_counted[] = { %s };" % ", ".join(
        "VAL_EP_%s" % n for n in sorted(SELF_COUNTED)))
    o.append("const unsigned val_self_counted_n = %d;\n" % len(SELF_COUNTED))
    for e in eps:
        name, params = e["name"], e["params"]
        names = ", ".join(n for _, n in params)
        ret = e["ret"]
        plain = ret != "ze_result_t"   # no error path: no checks, no count
        if name in inline and not plain:
            write_inline_wrapper(o, e, types)
            continue
        o.append("static %s ZE_APICALL\nw_%s(%s)\n{" % (
            ret, name, proto_params(params)))
        init = "{ %s }" % names if params else "{ 0 }"
        o.append("\tconst struct val_args_%s a = %s;" % (name, init))
        ctx_first = bool(params) and params[0][0] == "ze_context_handle_t"
        o.append("\tstruct val_call call = { VAL_EP_%s, &a, NULL };" % name)
        o.append("\t%s r;" % ret)
        if ctx_first and not plain:
            o.append("\tif (val_cfg.tracking)")
            o.append("\t\tcall.hctx = val_handle_find(%s);" % params[0][1])
        checks = []
        if params and params[0][0] in types.handles:
            checks.append('if (!%s && val_cfg.params)\n\t\t\treturn val_null_handle(&call, "%s");'
                          % (params[0][1], params[0][1]))
        for i, (t, n) in enumerate(params):
            fn = LIFETIME_CHECKS.get(t)
            if ctx_first and i == 0:
                fn = "val_check_first_context"
            if fn:
                checks.append('if ((r = %s(&call, "%s", %s)))\n\t\t\treturn r;'
                              % (fn, n, n))
        if checks and not plain:
            o.append("\tif (val_cfg.checks) {")
            for c in checks:
                o.append("\t\t" + c)
            o.append("\t}")
        if not plain:
            for n, _ in e["outs"]:
                o.append("\tstruct val_out oc_%s = { 0 };" % n)
            o.extend(out_checks(e, "(&val_cfg)", "&call", "\t"))
        if name in hooked:
            o.append("\tr = val_%s(&call%s);" % (
                name, ", " + names if params else ""))
        else:
            o.append("\tr = val_next.%s.%s(%s);" % (
                e["getter"], e["field"], names))
        if not plain:
            o.extend(out_notes(e, "&call", "\t"))
        if plain or name in SELF_COUNTED:
            pass
        else:
            o.append("\tif (val_cfg.leak && r == ZE_RESULT_SUCCESS)")
            o.append("\t\tval_count(VAL_EP_%s);" % name)
        o.append("\t(void)call;")
        o.append("\treturn r;\n}\n")

    inline_eps = {e["name"] for e in eps
                  if e["name"] in inline and e["ret"] == "ze_result_t"}
    for table, getter, fields in tables:
        o.append("ZE_DLLEXPORT ze_result_t ZE_APICALL")
        o.append("zeGet%sProcAddrTable(ze_api_version_t version,"
                 " ze_%s_dditable_t *table);" % (getter, table))
        o.append("ZE_DLLEXPORT ze_result_t ZE_APICALL")
        o.append("zeGet%sProcAddrTable(ze_api_version_t version,"
                 " ze_%s_dditable_t *table)\n{" % (getter, table))
        o.append("\tze_result_t r = val_getter_begin(version, table);")
        o.append("\tif (r != ZE_RESULT_SUCCESS || !val_cfg.enabled)")
        o.append("\t\treturn r;")
        o.append("\tval_lock_next();")
        for field, ma, mi in fields:
            name = next(e["name"] for e in eps
                        if e["table"] == table and e["field"] == field)
            o.append("\tif ((uint32_t)version >= (uint32_t)ZE_MAKE_VERSION(%d, %d) &&"
                     % (ma, mi))
            w = ("wt_%s[val_cfg.mode]" % name if name in inline_eps
                 else "w_%s" % name)
            o.append("\t    table->%s && table->%s != %s) {" % (
                field, field, w))
            o.append("\t\tval_next.%s.%s = table->%s;" % (getter, field, field))
            o.append("\t\ttable->%s = %s;" % (field, w))
            o.append("\t}")
        o.append("\tval_unlock_next();")
        o.append("\treturn ZE_RESULT_SUCCESS;\n}\n")

    for g in TOOL_GETTERS:
        o.append("ZE_DLLEXPORT ze_result_t ZE_APICALL\n%s(ze_api_version_t version, void *table);" % g)
        o.append("ZE_DLLEXPORT ze_result_t ZE_APICALL\n%s(ze_api_version_t version, void *table)\n{" % g)
        o.append("\treturn val_getter_begin(version, table);\n}\n")
    open(path, "w").write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()

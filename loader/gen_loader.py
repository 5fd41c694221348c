#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen_loader: generate the loader's entry points and routers.

One list drives everything: the ZE_DDI_TABLES / ZE_<TABLE>_DDI_FIELDS
X-macros of api/zemem/ze_ddi_versions.h (every DDI table, its fields in order
and the version that added each). For each field, api/level_zero/ze_ddi.h
gives the function type (ze_pfn<Name>_t, so the entry point is ze<Name>) and
api/level_zero/ze_api.h gives that type's parameter list. The two headers are
cross-checked against the X-macros; any disagreement fails the build.

Outputs (all in --outdir):
  ldr_gen.h        handle kinds, declarations of the generated tables;
  ldr_gen_entry.c  one exported function per entry point: a null-slot check,
                   a null-handle check and one indirect tail call through the
                   loader's top-of-chain tables; ldr_exports (the same
                   functions as a table set) and a name lookup;
  ldr_gen_route.c  the multi-driver routers: unwrap every handle argument
                   (single handles and counted arrays), call the owning
                   driver, wrap every handle returned (out-parameters,
                   pCount arrays, return values), forget destroyed handles;
  ze_loader.sym    the exact list of symbols libze_loader.so.1 exports;
  ldr_gen_ext.c    the zes, zet and zer entry points of --ext (a list of
                   getter, field, function, version, return kind): each an
                   exported jump through its slot of ldr_ext_slots, the
                   slots' defaults, the loader's own getters;
  ldr_gen_trace.c  a traced function per entry point (its parameter record,
                   prologues, the call, epilogues), ldr_traced (the same as
                   tables), the zelTracer*RegisterCallback functions and the
                   layout of ze_callbacks_t from --callbacks;
  zel_tracing_register_cb.h  the public parameter records, callback
                   types, callback tables and registration functions, ze and
                   zer (api/level_zero/layers/ holds the same file, checked
                   in: the test loader-tracing-header compares them).

Python 3 standard library only.
"""

import argparse
import os
import re
import sys

# Entry points written by hand in ldr_init.c (exported part).
HANDWRITTEN_EXPORTS = {"zeInit", "zeInitDrivers"}
# Router slots filled by hand-written functions in multi-driver mode.
HANDWRITTEN_ROUTES = {
    "zeInit": "ldr_bottom_init",
    "zeInitDrivers": "ldr_bottom_init_drivers",
    "zeDriverGet": "ldr_bottom_driver_get",
    "zeDriverGetExtensionFunctionAddress": "ldr_route_get_extension_function_address",
}
# Calls that end the life of a handle argument besides ze*Destroy*.
RELEASING = {"zeEventPoolCloseIpcHandle", "zeDeviceReleaseExternalSemaphoreExt"}
# Symbols exported besides the entry points and the getters (ldr_api.c,
# ldr_handle.c, ldr_trace.c).
LOADER_EXTRAS = [
    "zelLoaderGetVersions", "zelLoaderTranslateHandle", "zelGetLoaderVersion",
    "zelCheckIsLoaderInTearDown", "zelSetDriverTeardown",
    "zelLoaderContextTeardown", "zelSetDelayLoaderContextTeardown",
    "zelRegisterTeardownCallback", "zelEnableTracingLayer",
    "zelDisableTracingLayer", "zelGetTracingLayerState", "zelTracerCreate",
    "zelTracerDestroy", "zelTracerSetPrologues", "zelTracerSetEpilogues",
    "zelTracerSetEnabled", "zelTracerResetAllCallbacks"]
# The zer entry points (api/level_zero/zer_api.h) traced as upstream's
# tracing layer traces them: name, result type, parameters (type, name).
# Their registration is zelTracer<Name without zer>RegisterCallback; the
# callback gets the call's own result type.
ZER_TRACED = [
    ("zerGetLastErrorDescription", "ze_result_t",
     [("const char **", "ppString")]),
    ("zerTranslateDeviceHandleToIdentifier", "uint32_t",
     [("ze_device_handle_t", "hDevice")]),
    ("zerTranslateIdentifierToDeviceHandle", "ze_device_handle_t",
     [("uint32_t", "identifier")]),
    ("zerGetDefaultContext", "ze_context_handle_t", []),
]


def fail(msg):
    sys.stderr.write("gen_loader: error: %s\n" % msg)
    sys.exit(1)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def macro_bodies(text):
    """Map macro name -> body of every #define NAME(arg) with continuations."""
    out = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"\s*#\s*define\s+(\w+)\((\w+)\)\s*(.*)$", lines[i])
        if not m:
            i += 1
            continue
        name, body = m.group(1), m.group(3)
        while body.endswith("\\") and i + 1 < len(lines):
            i += 1
            body = body[:-1] + " " + lines[i]
        out[name] = body
        i += 1
    return out


def parse_versions(text):
    bodies = macro_bodies(strip_comments(text))
    if "ZE_DDI_TABLES" not in bodies:
        fail("ZE_DDI_TABLES not found in the versions header")
    tables = []
    for m in re.finditer(r"\bT\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)",
                         bodies["ZE_DDI_TABLES"]):
        table, getter, fields_macro = m.groups()
        if fields_macro not in bodies:
            fail("field list %s not found" % fields_macro)
        fields = [(f, int(ma), int(mi)) for f, ma, mi in re.findall(
            r"\bX\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)",
            bodies[fields_macro])]
        tables.append((table, getter, fields))
    if not tables:
        fail("ZE_DDI_TABLES is empty")
    return tables


def parse_ddi(text):
    """struct name -> [(pfn type, field)] for every ze_*_dditable_t."""
    text = strip_comments(text)
    out = {}
    for m in re.finditer(
            r"typedef\s+struct\s+_(ze_\w+_dditable_t)\s*\{(.*?)\}\s*\1\s*;",
            text, re.S):
        out[m.group(1)] = re.findall(r"(ze_pfn\w+_t)\s+(\w+)\s*;",
                                     m.group(2))
    return out


def split_params(params):
    depth, cur, out = 0, "", []
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    if out == ["void"]:
        return []
    return out


class Param:
    def __init__(self, text):
        m = re.match(r"^(.*?)(\w+)\s*$", text, re.S)
        if not m:
            fail("cannot parse parameter '%s'" % text)
        self.type = " ".join(m.group(1).split())
        self.name = m.group(2)
        self.decl = " ".join(text.split())


def parse_api(text):
    text = strip_comments(text)
    handles = re.findall(
        r"typedef\s+struct\s+_(\w+_handle_t)\s*\*\s*\1\s*;", text)
    protos = {}
    for m in re.finditer(
            r"typedef\s+(\w[\w\s\*]*?)\s*\(\s*ZE_APICALL\s*\*\s*(ze_pfn\w+_t)"
            r"\s*\)\s*\((.*?)\)\s*;", text, re.S):
        ret, pfn, params = m.groups()
        protos[pfn] = (" ".join(ret.split()),
                       [Param(p) for p in split_params(params)])
    exports = re.findall(r"^ZE_APIEXPORT\s+\w[\w\s\*]*?ZE_APICALL\s+(\w+)\s*\(",
                         text, re.M)
    results = re.findall(r"^\s*(ZE_RESULT_\w+)\s*=", text, re.M)
    return handles, protos, exports, results


class Entry:
    """One entry point: its table slot, prototype and handle roles."""

    def __init__(self, func, pfn, member, field, ret, params, kinds):
        self.func, self.pfn, self.member, self.field = func, pfn, member, field
        self.ret, self.params = ret, params
        names = {p.name: p for p in params}
        self.ins, self.in_arrays, self.outs, self.out_arrays = [], [], [], []
        for i, p in enumerate(params):
            base = p.type.replace("const ", "").strip()
            if base in kinds:
                self.ins.append(p)
                continue
            m = re.match(r"^(\w+_handle_t)\s*\*$", base)
            if not m or m.group(1) not in kinds:
                continue
            p.kind = kinds[m.group(1)]
            count = "num" + p.name[2:] if p.name.startswith("ph") else None
            if count in names and names[count].type == "uint32_t":
                self.in_arrays.append((p, count))
            elif "pCount" in names and names["pCount"].type == "uint32_t *":
                self.out_arrays.append(p)
            else:
                self.outs.append(p)
        for p in self.ins:
            p.kind = kinds[p.type.replace("const ", "").strip()]
        self.ret_kind = kinds.get(ret)
        self.releases = (("Destroy" in func or func in RELEASING)
                         and self.ins and self.ins[-1] or None)
        self.first_handle = (params and params[0] in self.ins
                             and params[0] or None)

    def args(self):
        return ", ".join(p.name for p in self.params)

    def decl(self):
        return ", ".join(p.decl for p in self.params) or "void"


def kind_enum(handle_type):
    name = handle_type[len("ze_"):-len("_handle_t")]
    return "LDR_KIND_" + name.upper()


def build(args):
    read = lambda p: open(p, encoding="utf-8").read()
    tables = parse_versions(read(args.versions))
    structs = parse_ddi(read(args.ddi))
    handles, protos, exports, results = parse_api(read(args.api))
    kinds = {h: kind_enum(h) for h in handles}
    entries, seen = [], set()
    for table, member, fields in tables:
        sname = "ze_%s_dditable_t" % table
        if sname not in structs:
            fail("%s is in ZE_DDI_TABLES but not in ze_ddi.h" % sname)
        got = [f for _, f in structs[sname]]
        want = [f for f, _, _ in fields]
        if got != want:
            fail("%s: fields of ze_ddi.h %s differ from the X-macro %s"
                 % (sname, got, want))
        for (pfn, field), (_, ma, mi) in zip(structs[sname], fields):
            func = "ze" + pfn[len("ze_pfn"):-len("_t")]
            if pfn not in protos:
                fail("%s: no typedef in ze_api.h" % pfn)
            if func in seen:
                fail("%s appears in two tables" % func)
            seen.add(func)
            ret, params = protos[pfn]
            e = Entry(func, pfn, member, field, ret, params, kinds)
            e.version = (ma, mi)
            entries.append(e)
    missing = sorted(set(exports) - seen)
    if missing:
        fail("declared in ze_api.h but in no DDI table: %s" % missing)
    return tables, handles, kinds, entries, results


HEADER = "/* Generated by loader/gen_loader.py from api/: do not edit. */\n"


def gen_header(handles, kinds, entries, ext, cbs):
    o = [HEADER, "#ifndef ZEMEM_LDR_GEN_H", "#define ZEMEM_LDR_GEN_H", "",
         "#include <level_zero/ze_api.h>",
         "#include <level_zero/ze_ddi.h>", "",
         "/* Kinds of handle, one per handle type of ze_api.h. */",
         "enum ldr_kind {"]
    o += ["\t%s," % kinds[h] for h in handles]
    o += ["\tLDR_KIND_COUNT,", "};", "",
          "#define LDR_ENTRY_COUNT %d" % len(entries),
          "#define LDR_CB_COUNT %d" % len(cbs)] + gen_ext_header(ext) + ["",
          "/* Name of a kind (\"context\", ...). */",
          "const char *ldr_kind_name(unsigned kind);",
          "/* Name of a result code; \"ZE_RESULT_?\" when unknown. */",
          "const char *ldr_result_name(ze_result_t r);",
          "/* The exported entry points as tables (what the getters return "
          "before init). */",
          "extern const ze_dditable_t ldr_exports;",
          "/* Multi-driver routers, one per entry point. */",
          "extern const ze_dditable_t ldr_routes;",
          "/* Exported entry point of that name, or NULL. */",
          "void *ldr_export_lookup(const char *name);", "",
          "#endif", ""]
    return "\n".join(o)


def table_init(entries, fn):
    by_member = {}
    for e in entries:
        by_member.setdefault(e.member, []).append(e)
    o = []
    for member, es in by_member.items():
        o.append("\t.%s = {" % member)
        o += ["\t\t.%s = %s," % (e.field, fn(e)) for e in es]
        o.append("\t},")
    return o


def gen_entry(entries, handles, kinds, results):
    o = [HEADER, "/*",
         " * ldr_gen_entry: the exported entry points. Each reads its slot "
         "of the",
         " * top-of-chain tables (ldr_top), answers when the slot is empty "
         "or the",
         " * object handle is NULL, and otherwise tail-calls the slot: "
         "no lock, no",
         " * lookup, no wrapping.",
         " */",
         '#include "ldr.h"', "", "#include <stdlib.h>",
         "#include <string.h>", ""]
    for e in entries:
        if e.func in HANDWRITTEN_EXPORTS:
            continue
        is_res = e.ret == "ze_result_t"
        o += ["%s ZE_APICALL" % e.ret, "%s(%s)" % (e.func, e.decl()), "{",
              "\t%s pfn = LDR_SLOT(ldr_top.%s.%s);" % (e.pfn, e.member,
                                                    e.field),
              "\tif (LDR_UNLIKELY(!pfn))",
              "\t\treturn %s;" % ("ldr_no_slot()" if is_res else "NULL")]
        if e.first_handle:
            o += ["\tif (LDR_UNLIKELY(!%s))" % e.first_handle.name,
                  "\t\treturn %s;" % ("ZE_RESULT_ERROR_INVALID_NULL_HANDLE"
                                      if is_res else "NULL")]
        o += ["\treturn pfn(%s);" % e.args(), "}", ""]
    o += ["const ze_dditable_t ldr_exports = {"]
    o += table_init(entries, lambda e: e.func)
    o += ["};", ""]
    names = sorted(e.func for e in entries)
    o += ["struct export_name {", "\tconst char *name;", "\tvoid *fn;", "};",
          "", "static const struct export_name export_names[] = {"]
    o += ['\t{ "%s", (void *)%s },' % (n, n) for n in names]
    o += ["};", "",
          "static int",
          "cmp_name(const void *key, const void *elem)",
          "{",
          "\treturn strcmp(key, ((const struct export_name *)elem)->name);",
          "}", "",
          "void *",
          "ldr_export_lookup(const char *name)",
          "{",
          "\tconst struct export_name *e = bsearch(name, export_names,",
          "\t\tsizeof(export_names) / sizeof(export_names[0]),",
          "\t\tsizeof(export_names[0]), cmp_name);",
          "\treturn e ? e->fn : NULL;",
          "}", "",
          "const char *", "ldr_kind_name(unsigned kind)", "{",
          "\tstatic const char *const names[] = {"]
    o += ['\t\t"%s",' % h[len("ze_"):-len("_handle_t")] for h in handles]
    o += ["\t};",
          "\treturn kind < LDR_KIND_COUNT ? names[kind] : \"?\";", "}", "",
          "const char *", "ldr_result_name(ze_result_t r)", "{",
          "\tswitch ((int)r) {"]
    for r in results:
        if r.endswith("FORCE_UINT32"):
            continue
        o += ['\tcase %s: return "%s";' % (r, r)]
    o += ["\tdefault: return \"ZE_RESULT_?\";", "\t}", "}", ""]
    return "\n".join(o)


def gen_route(e):
    """A multi-driver router for one entry point."""
    if e.func in HANDWRITTEN_ROUTES:
        return []
    is_res = e.ret == "ze_result_t"
    bad = lambda code: code if is_res else "NULL"
    o = ["static %s ZE_APICALL" % e.ret,
         "route_%s(%s)" % (e.func, e.decl()), "{"]
    # The object that chooses the driver: the first handle argument, else
    # the first element of the first counted input array.
    if e.ins:
        src = e.ins[0]
        o += ["\tconst struct ldr_obj *o_ = ldr_obj_get(%s, %s);"
              % (src.name, src.kind),
              "\tif (LDR_UNLIKELY(!o_))",
              "\t\treturn %s;" % bad("ldr_bad_handle(%s)" % src.name)]
        src_name = src.name
    elif e.in_arrays:
        arr, count = e.in_arrays[0]
        o += ["\tif (!%s)" % arr.name,
              "\t\treturn %s;" % bad("ZE_RESULT_ERROR_INVALID_NULL_POINTER"),
              "\tif (!%s)" % count,
              "\t\treturn %s;" % bad("ZE_RESULT_ERROR_INVALID_SIZE"),
              "\tconst struct ldr_obj *o_ = ldr_obj_get(%s[0], %s);"
              % (arr.name, arr.kind),
              "\tif (LDR_UNLIKELY(!o_))",
              "\t\treturn %s;" % bad("ldr_bad_handle(%s[0])" % arr.name)]
        src_name = None
    else:
        fail("%s: no handle argument chooses the driver" % e.func)
    o += ["\t%s pfn_ = o_->ddi->%s.%s;" % (e.pfn, e.member, e.field),
          "\tif (LDR_UNLIKELY(!pfn_))",
          "\t\treturn %s;" % bad("ZE_RESULT_ERROR_UNSUPPORTED_FEATURE")]
    call = []
    for p in e.params:
        if p.name == src_name:
            call.append("o_->real")
        elif p in e.ins:
            call.append("%s_o_ ? %s_o_->real : NULL" % (p.name, p.name))
        elif any(p is a for a, _ in e.in_arrays):
            call.append("(%s)%s_r_" % (p.type, p.name))
        else:
            call.append(p.name)
    for p in e.ins:
        if p.name == src_name:
            continue
        o += ["\tconst struct ldr_obj *%s_o_ = NULL;" % p.name,
              "\tif (%s && !(%s_o_ = ldr_obj_peer(o_, %s, %s)))"
              % (p.name, p.name, p.name, p.kind),
              "\t\treturn %s;" % bad("ZE_RESULT_ERROR_INVALID_ARGUMENT")]
    if not is_res:
        if e.in_arrays or e.outs or e.out_arrays:
            fail("%s: unsupported handle arguments with a non-result "
                 "return" % e.func)
        o += ["\t%s h_ = pfn_(%s);" % (e.ret, ", ".join(call))]
        if e.ret_kind:
            o += ["\treturn h_ ? ldr_wrap(o_, %s, h_) : NULL;" % e.ret_kind]
        else:
            o += ["\treturn h_;"]
        return o + ["}", ""]
    o += ["\tze_result_t r_;"]
    for arr, _ in e.in_arrays:
        o += ["\tvoid *%s_buf_[LDR_ARRAY_STACK];" % arr.name,
              "\tvoid **%s_r_ = NULL;" % arr.name]
    for arr, count in e.in_arrays:
        o += ["\tr_ = ldr_unwrap_array(o_, %s, %s, (void *const *)%s, "
              "%s_buf_, &%s_r_);"
              % (arr.kind, count, arr.name, arr.name, arr.name),
              "\tif (r_ != ZE_RESULT_SUCCESS)",
              "\t\tgoto out_;"]
    o += ["\tr_ = pfn_(%s);" % ", ".join(call)]
    post, logs = [], []
    for p in e.outs:
        wrap = ["\tif (%s && *%s)" % (p.name, p.name),
                "\t\tr_ = ldr_wrap_out(o_, %s, (void **)%s, r_);"
                % (p.kind, p.name)]
        # A build log comes back with a failed build or link too.
        if p.kind == "LDR_KIND_MODULE_BUILD_LOG":
            logs += wrap
        else:
            post += wrap
    for p in e.out_arrays:
        post += ["\tif (%s && pCount)" % p.name,
                 "\t\tr_ = ldr_wrap_array(o_, %s, *pCount, (void **)%s, r_);"
                 % (p.kind, p.name)]
    if e.releases:
        rel = e.releases
        obj = "o_" if rel.name == src_name else "%s_o_" % rel.name
        post += ["\tldr_obj_release(%s);" % obj]
    if post:
        o += ["\tif (r_ == ZE_RESULT_SUCCESS) {"]
        o += ["\t" + line for line in post]
        o += ["\t}"]
    if logs:
        o += ["\tif (r_ == ZE_RESULT_SUCCESS || "
              "r_ == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE ||",
              "\t    r_ == ZE_RESULT_ERROR_MODULE_LINK_FAILURE) {"]
        o += ["\t" + line for line in logs]
        o += ["\t}"]
    if e.in_arrays:
        o += ["out_:"]
        for arr, _ in e.in_arrays:
            o += ["\tldr_array_free(%s_r_, %s_buf_);" % (arr.name, arr.name)]
    o += ["\treturn r_;", "}", ""]
    return o


def gen_routes(entries):
    o = [HEADER, "/*",
         " * ldr_gen_route: multi-driver routers. Every handle argument is a "
         "loader",
         " * object (ldr_handle.c): the first one chooses the driver, the "
         "others must",
         " * belong to the same driver; every handle the driver returns is "
         "wrapped.",
         " */",
         '#include "ldr.h"', ""]
    for e in entries:
        o += gen_route(e)
    o += ["const ze_dditable_t ldr_routes = {"]
    o += table_init(entries, lambda e: HANDWRITTEN_ROUTES.get(
        e.func, "route_" + e.func))
    o += ["};", ""]
    return "\n".join(o)


def gen_syms(tables, entries, ext):
    names = [e.func for e in entries]
    names += ["zeGet%sProcAddrTable" % member for _, member, _ in tables]
    names += LOADER_EXTRAS
    names += [x.func for x in ext]
    names += sorted(set(x.getter for x in ext))
    names += ["zelTracer%sRegisterCallback" % e.func[2:] for e in entries]
    names += ["zelTracer%sRegisterCallback" % f[3:] for f, _, _ in ZER_TRACED]
    return "\n".join(sorted(names)) + "\n"




class Ext:
    """One entry point of the zes/zet/zer families (ze_ext_entries.list)."""

    def __init__(self, line):
        f = line.split()
        if len(f) != 5 or f[4] not in ("r", "u", "p"):
            fail("bad line in the ext list: '%s'" % line)
        self.getter, self.field, self.func = f[0], f[1], f[2]
        ma, mi = f[3].split(".")
        self.since = (int(ma), int(mi))
        self.ret = f[4]


def parse_ext(text):
    out, seen = [], set()
    for line in text.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        x = Ext(line)
        if x.func in seen:
            fail("%s twice in the ext list" % x.func)
        seen.add(x.func)
        out.append(x)
    return out


def parse_callbacks(text, entries):
    """[(table, field, entry index)] in the order of ze_callbacks_t."""
    index = {e.func: i for i, e in enumerate(entries)}
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        table, field, func = line.split()
        if func not in index:
            fail("callbacks list: %s is no entry point" % func)
        out.append((table, field, index[func]))
    return out


def snake(name):
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def params_type(e):
    return "ze_%s_params_t" % snake(e.func[2:])


def cb_type(e):
    return "ze_pfn%sCb_t" % e.func[2:]


def trampolines(ext):
    """Exported entry points as one indirect jump through ldr_ext_slots."""
    x86, arm = [], []
    for i, x in enumerate(ext):
        off = 8 * i
        head = ['".globl %s\\n"' % x.func,
                '".type %s, %%function\\n"' % x.func,
                '".p2align 4\\n"', '"%s:\\n"' % x.func]
        tail = ['".size %s, .-%s\\n"' % (x.func, x.func)]
        x86 += head + ['LDR_ENDBR', '"jmp *ldr_ext_slots+%d(%%rip)\\n"'
                       % off] + tail
        arm += head + ['LDR_BTI',
                       '"adrp x16, ldr_ext_slots+%d\\n"' % off,
                       '"ldr x16, [x16, #:lo12:ldr_ext_slots+%d]\\n"' % off,
                       '"br x16\\n"'] + tail
    o = ["#if defined(__x86_64__)", "#if defined(__CET__)",
         '#define LDR_ENDBR "endbr64\\n"', "#else", "#define LDR_ENDBR \"\"",
         "#endif", '__asm__(".text\\n"']
    o += ["\t" + l for l in x86]
    o += ["\t\".previous\\n\");", "#elif defined(__aarch64__)",
          "#if defined(__ARM_FEATURE_BTI_DEFAULT)",
          '#define LDR_BTI "hint #34\\n"', "#else", "#define LDR_BTI \"\"",
          "#endif", '__asm__(".text\\n"']
    o += ["\t" + l for l in arm]
    o += ["\t\".previous\\n\");", "#else",
          "#error \"ldr_gen_ext: no trampolines for this architecture\"",
          "#endif", ""]
    return o


def gen_ext(ext):
    getters = []
    for i, x in enumerate(ext):
        if not getters or getters[-1][0] != x.getter:
            if any(g[0] == x.getter for g in getters):
                fail("%s: its fields are not contiguous" % x.getter)
            getters.append([x.getter, i, 0])
        getters[-1][2] += 1
    dflt = {"r": "ldr_ext_none_r", "u": "ldr_ext_none_u",
            "p": "ldr_ext_none_p"}
    special = {"zesInit": "ldr_ext_zes_init",
               "zerGetLastErrorDescription": "ldr_ext_zer_last_error"}
    fns = [special.get(x.func, dflt[x.ret]) for x in ext]
    o = [HEADER, "/*",
         " * ldr_gen_ext: the zes, zet and zer entry points (one jump "
         "through their",
         " * slot in ldr_ext_slots, see ldr_ext.c), their getters and their "
         "tables.",
         " */", '#include "ldr.h"', ""]
    o += ["void %s(void);" % x.func for x in ext]
    o += ["", "const struct ldr_ext_table ldr_ext_tables[LDR_EXT_TABLES] = {"]
    o += ['\t{ "%s", %d, %d },' % tuple(g) for g in getters]
    o += ["};", "", "const uint32_t ldr_ext_since[LDR_EXT_COUNT] = {"]
    o += ["\tZE_MAKE_VERSION(%d, %d), /* %s */" % (x.since + (x.func,))
          for x in ext]
    o += ["};", "", "const ldr_fn_t ldr_ext_defaults[LDR_EXT_COUNT] = {"]
    o += ["\t(ldr_fn_t)%s," % f for f in fns]
    o += ["};", "", "ldr_fn_t ldr_ext_slots[LDR_EXT_COUNT] = {"]
    o += ["\t(ldr_fn_t)%s," % f for f in fns]
    o += ["};", "", "const ldr_fn_t ldr_ext_entries[LDR_EXT_COUNT] = {"]
    o += ["\t%s," % x.func for x in ext]
    o += ["};", ""]
    for i, g in enumerate(getters):
        o += ["ZE_APIEXPORT ze_result_t ZE_APICALL",
              "%s(ze_api_version_t version, void *pDdiTable);" % g[0],
              "ze_result_t ZE_APICALL",
              "%s(ze_api_version_t version, void *pDdiTable)" % g[0],
              "{", "\treturn ldr_ext_get_table(%d, version, pDdiTable);" % i,
              "}", ""]
    o += trampolines(ext)
    return "\n".join(o)


def gen_ext_header(ext):
    ntables = len(set(x.getter for x in ext))
    return ["#define LDR_EXT_COUNT %d" % len(ext),
            "#define LDR_EXT_TABLES %d" % ntables,
            "#define LDR_ZER_TRACED %d" % len(ZER_TRACED)]


def zer_params_type(f):
    return "zer_%s_params_t" % snake(f[3:])


def gen_trace(entries, cbs, ext):
    o = [HEADER, "/*",
         " * ldr_gen_trace: one traced function per entry point (params of "
         "the call,",
         " * prologues, the call through ldr_untraced, epilogues: see "
         "ldr_trace.c),",
         " * the tracer registration functions and the layout of "
         "ze_callbacks_t.",
         " */", '#include "ldr.h"', "", "#include <zemem/zel_tracing.h>", ""]
    for i, e in enumerate(entries):
        if not e.params:
            fail("%s: no parameter to trace" % e.func)
        is_res = e.ret == "ze_result_t"
        o += ["static %s ZE_APICALL" % e.ret,
              "trace_%s(%s)" % (e.func, e.decl()), "{",
              "\t%s p_ = { %s };" % (params_type(e), ", ".join(
                  "&" + p.name for p in e.params)),
              "\tstruct ldr_trace_frame f_;",
              "\tldr_trace_enter(&f_, %d, &p_);" % i,
              "\t%s r_ = LDR_SLOT(ldr_untraced.%s.%s)(%s);"
              % (e.ret, e.member, e.field, e.args()),
              "\tldr_trace_exit(&f_, %d, &p_, %s);"
              % (i, "r_" if is_res else "ZE_RESULT_SUCCESS"),
              "\treturn r_;", "}", "",
              "ze_result_t ZE_APICALL",
              "zelTracer%sRegisterCallback(zel_tracer_handle_t hTracer,"
              % e.func[2:],
              "\tzel_tracer_reg_t callback_type, %s pfnCb)" % cb_type(e),
              "{",
              "\treturn ldr_tracer_register(hTracer, callback_type, %d," % i,
              "\t\t(ldr_fn_t)pfnCb);", "}", ""]
    index = {x.func: i for i, x in enumerate(ext)}
    for i, (f, ret, params) in enumerate(ZER_TRACED):
        if f not in index:
            fail("%s is not in the ext list" % f)
        name = f[3:]
        pt, cb = zer_params_type(f), "zer_pfn%sCb_t" % name
        decl = ", ".join("%s %s" % p for p in params) or "void"
        args = ", ".join(p[1] for p in params)
        fn_t = "%s(ZE_APICALL *)(%s)" % (ret, ", ".join(
            p[0] for p in params) or "void")
        o += ["static void",
              "call_%s(ldr_fn_t cb, void *params, const void *result," % f,
              "\tvoid *user, void **instance)", "{",
              "\t((%s)cb)((%s *)params, *(const %s *)result, user, instance);"
              % (cb, pt, ret), "}", "",
              "static %s ZE_APICALL" % ret,
              "trace_%s(%s)" % (f, decl), "{",
              "\t%s p_%s;" % (pt, " = { %s }" % ", ".join(
                  "&" + p[1] for p in params) if params else ""),
              "\tstruct ldr_trace_frame f_;",
              "\t%s r_ = 0;" % ret,
              "\tldr_trace_enter_any(&f_, LDR_ENTRY_COUNT + %d, &p_, &r_," % i,
              "\t\tcall_%s);" % f,
              "\tr_ = ((%s)LDR_SLOT(ldr_zer_untraced[%d]))(%s);"
              % (fn_t, i, args),
              "\tldr_trace_exit_any(&f_, LDR_ENTRY_COUNT + %d, &p_, &r_," % i,
              "\t\tcall_%s);" % f,
              "\treturn r_;", "}", "",
              "ze_result_t ZE_APICALL",
              "zelTracer%sRegisterCallback(zel_tracer_handle_t hTracer," % name,
              "\tzel_tracer_reg_t callback_type, %s pfnCb)" % cb, "{",
              "\treturn ldr_tracer_register(hTracer, callback_type, "
              "LDR_ENTRY_COUNT + %d," % i,
              "\t\t(ldr_fn_t)pfnCb);", "}", ""]
    o += ["const uint16_t ldr_zer_slot[LDR_ZER_TRACED] = {"]
    o += ["\t%d, /* %s */" % (index[f], f) for f, _, _ in ZER_TRACED]
    o += ["};", "", "const ldr_fn_t ldr_zer_traced[LDR_ZER_TRACED] = {"]
    o += ["\t(ldr_fn_t)trace_%s," % f for f, _, _ in ZER_TRACED]
    o += ["};", ""]
    o += ["const ze_dditable_t ldr_traced = {"]
    o += table_init(entries, lambda e: "trace_" + e.func)
    o += ["};", "",
          "const uint16_t ldr_cb_entry[LDR_CB_COUNT] = {"]
    o += ["\t%d, /* %s.%s */" % (i, t, f) for t, f, i in cbs]
    o += ["};", ""]
    return "\n".join(o)


def cb_typedef(name, params, ret):
    """A callback type, within 80 columns."""
    first = "    %s *params, %s result," % (params, ret)
    if len(first) <= 80:
        return ["typedef void (ZE_APICALL *%s)(" % name, first,
                "    void *pTracerUserData, void **ppTracerInstanceUserData);",
                ""]
    return ["typedef void (ZE_APICALL *%s)(" % name,
            "    %s *params," % params,
            "    %s result, void *pTracerUserData," % ret,
            "    void **ppTracerInstanceUserData);", ""]


def register_decl(name, cb):
    return ["ZE_APIEXPORT ze_result_t ZE_APICALL",
            "zelTracer%sRegisterCallback(" % name,
            "    zel_tracer_handle_t hTracer, zel_tracer_reg_t callback_type,",
            "    %s pfnCb);" % cb]


def gen_tracing_header(entries, cbs):
    o = ["/* SPDX-License-Identifier: MIT */",
         "/* Generated by loader/gen_loader.py from api/ and the lists of "
         "loader/:",
         " * regenerate, do not edit (the test loader-tracing-header "
         "compares). */",
         "/*",
         " * zemem: the parameter records and callback types of every "
         "traced entry",
         " * point (ze* and zer*), the callback tables of ze_callbacks_t and "
         "the",
         " * zelTracer*RegisterCallback functions (same names, layouts and "
         "ABI as",
         " * the Level Zero loader's). Included by zel_tracing_api.h.",
         " */", "#ifndef ZEMEM_LEVEL_ZERO_ZEL_TRACING_REGISTER_CB_H",
         "#define ZEMEM_LEVEL_ZERO_ZEL_TRACING_REGISTER_CB_H",
         "/* Also claim the upstream guard so mixing include paths cannot "
         "redefine. */",
         "#ifndef zel_tracing_register_cb_H",
         "#define zel_tracing_register_cb_H", "#endif", "",
         '#include "../ze_api.h"', '#include "zel_tracing_api.h"', "",
         "#if defined(__cplusplus)", 'extern "C" {', "#endif", "",
         "typedef enum _zel_tracer_reg_t {",
         "    ZEL_REGISTER_PROLOGUE = 0,",
         "    ZEL_REGISTER_EPILOGUE = 1",
         "} zel_tracer_reg_t;", ""]
    for e in entries:
        pt = params_type(e)
        o += ["typedef struct _%s {" % pt]
        for p in e.params:
            o += ["    %s *p%s;" % (p.type, p.name)]
        o += ["} %s;" % pt] + cb_typedef(cb_type(e), pt, "ze_result_t")
    tables = []
    for t, f, i in cbs:
        if not tables or tables[-1][0] != t:
            tables.append((t, []))
        tables[-1][1].append((f, entries[i]))
    for t, fields in tables:
        name = "ze_%s_callbacks_t" % snake(t)
        o += ["typedef struct _%s {" % name]
        o += ["    %s %s;" % (cb_type(e), f) for f, e in fields]
        o += ["} %s;" % name, ""]
    o += ["typedef struct _ze_callbacks_t {"]
    o += ["    ze_%s_callbacks_t %s;" % (snake(t), t) for t, _ in tables]
    o += ["} ze_callbacks_t;", ""]
    for e in entries:
        o += register_decl(e.func[2:], cb_type(e))
    o += ["", "/* The zer calls (zer_api.h): the callbacks get the call's own "
          "result", " * type (0 or NULL in the prologue). */"]
    for f, ret, params in ZER_TRACED:
        pt = zer_params_type(f)
        if params:
            o += ["typedef struct _%s {" % pt]
            o += ["    %s *p%s;" % (ty if ty.endswith("*") else ty + " ", n)
                  if False else "    %s%s*p%s;" % (
                      ty, "" if ty.endswith("*") else " ", n)
                  for ty, n in params]
            o += ["} %s;" % pt]
        else:
            # No parameter: an empty record (a GNU C extension; 0 bytes
            # in C, 1 in C++: only pointers to it are passed).
            o += ["#if defined(__clang__)", "#pragma clang diagnostic push",
                  '#pragma clang diagnostic ignored "-Wextern-c-compat"',
                  "#endif", "#if defined(__GNUC__)", "__extension__",
                  "#endif", "typedef struct _%s {" % pt, "} %s;" % pt,
                  "#if defined(__clang__)", "#pragma clang diagnostic pop",
                  "#endif"]
        o += cb_typedef("zer_pfn%sCb_t" % f[3:], pt, ret)
    for f, _, _ in ZER_TRACED:
        o += register_decl(f[3:], "zer_pfn%sCb_t" % f[3:])
    o += ["", "/* Clears every prologue and epilogue of the tracer. */",
          "ZE_APIEXPORT ze_result_t ZE_APICALL",
          "zelTracerResetAllCallbacks(zel_tracer_handle_t hTracer);",
          "", "#if defined(__cplusplus)", '} /* extern "C" */', "#endif", "",
          "#endif /* ZEMEM_LEVEL_ZERO_ZEL_TRACING_REGISTER_CB_H */", ""]
    return "\n".join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--api", required=True)
    ap.add_argument("--ddi", required=True)
    ap.add_argument("--versions", required=True)
    ap.add_argument("--ext", required=True)
    ap.add_argument("--callbacks", required=True)
    ap.add_argument("--outdir", required=True)
    args = ap.parse_args()
    tables, handles, kinds, entries, results = build(args)
    ext = parse_ext(open(args.ext, encoding="utf-8").read())
    cbs = parse_callbacks(open(args.callbacks, encoding="utf-8").read(),
                          entries)
    outs = {
        "ldr_gen_ext.c": gen_ext(ext),
        "ldr_gen_trace.c": gen_trace(entries, cbs, ext),
        "zel_tracing_register_cb.h": gen_tracing_header(entries, cbs),
        "ldr_gen.h": gen_header(handles, kinds, entries, ext, cbs),
        "ldr_gen_entry.c": gen_entry(entries, handles, kinds, results),
        "ldr_gen_route.c": gen_routes(entries),
        "ze_loader.sym": gen_syms(tables, entries, ext),
    }
    for name, text in outs.items():
        with open(os.path.join(args.outdir, name), "w",
                  encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()

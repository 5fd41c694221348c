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
  ze_loader.sym    the exact list of symbols libze_loader.so.1 exports.

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
# Symbols exported besides the entry points and the getters.
LOADER_EXTRAS = ["zelLoaderGetVersions", "zelLoaderTranslateHandle"]


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


def gen_header(handles, kinds, entries):
    o = [HEADER, "#ifndef ZEMEM_LDR_GEN_H", "#define ZEMEM_LDR_GEN_H", "",
         "#include <level_zero/ze_api.h>",
         "#include <level_zero/ze_ddi.h>", "",
         "/* Kinds of handle, one per handle type of ze_api.h. */",
         "enum ldr_kind {"]
    o += ["\t%s," % kinds[h] for h in handles]
    o += ["\tLDR_KIND_COUNT,", "};", "",
          "#define LDR_ENTRY_COUNT %d" % len(entries), "",
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
              "\t%s pfn = ldr_top.%s.%s;" % (e.pfn, e.member, e.field),
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


def gen_syms(tables, entries):
    names = [e.func for e in entries]
    names += ["zeGet%sProcAddrTable" % member for _, member, _ in tables]
    names += LOADER_EXTRAS
    return "\n".join(sorted(names)) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--api", required=True)
    ap.add_argument("--ddi", required=True)
    ap.add_argument("--versions", required=True)
    ap.add_argument("--outdir", required=True)
    args = ap.parse_args()
    tables, handles, kinds, entries, results = build(args)
    outs = {
        "ldr_gen.h": gen_header(handles, kinds, entries),
        "ldr_gen_entry.c": gen_entry(entries, handles, kinds, results),
        "ldr_gen_route.c": gen_routes(entries),
        "ze_loader.sym": gen_syms(tables, entries),
    }
    for name, text in outs.items():
        with open(os.path.join(args.outdir, name), "w",
                  encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()

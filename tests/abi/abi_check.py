#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ABI comparison of zemem's Level Zero headers against the system's.

usage: abi_check.py API_DIR [CC [CC_ARGS...]]

Parses API_DIR/level_zero/{ze_api.h,ze_ddi.h,zes_api.h,zes_ddi.h}, the
Tools, loader and tracing headers (zet_api.h, zet_ddi.h, loader/ze_loader.h,
layers/zel_tracing_api.h, layers/zel_tracing_register_cb.h) and the
same headers under the system include directory (default /usr/include, override with
ZEMEM_ABI_SYSTEM_INCLUDE), keeps every struct, enum constant, numeric macro
and DDI table that both declare, generates one C probe that prints sizes,
alignments, field offsets and sizes, and constant values, builds it against
each include directory, runs both and compares the output line by line.

Exit status: 0 identical, 1 differences (each printed), 77 system headers
absent (skip), 2 tool failure.

Rules:
- a common struct must have the same fields in the same order with the same
  types (after whitespace normalisation), and the same layout;
- a DDI table (ze_*_dditable_t) may grow at the end only: the system's fields
  must be a prefix of ours, at the same offsets;
- a struct that exists in both but gained fields is reported as a
  difference, never skipped;
- every core (ze*) entry point of the system headers must be declared in
  api/; api/ declares only the Sysman (zes*) subset zemem implements, so
  the other zes* entry points are listed as a note.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def split_top(body, sep):
    out, depth, cur = [], 0, ''
    for ch in body:
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


def parse_field(decl):
    """'const void* pNext' -> ('pNext', 'const void*', ''), arrays kept apart."""
    decl = ' '.join(decl.split())
    m = re.match(r'^(.*?)([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)$', decl)
    if not m:
        return None
    ftype = re.sub(r'\s*\*\s*', '*', m.group(1)).strip()
    dims = re.sub(r'\s+', '', m.group(3))
    return m.group(2), ftype, dims


def param_types(params):
    out = []
    for decl in split_top(params, ','):
        if decl == 'void':
            continue
        f = parse_field(decl)
        # an unnamed parameter parses its last type word as the name
        if f and f[1] and f[1] not in ('const', 'struct', 'unsigned'):
            out.append(f[1] + f[2])
        else:
            out.append(re.sub(r'\s*\*\s*', '*', ' '.join(decl.split())))
    return out


def parse_headers(paths):
    structs, enums, macros, funcs = {}, {}, {}, {}
    for path in paths:
        text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
        for m in re.finditer(r'typedef\s+struct\s+_\w+\s*\{(.*?)\}\s*(\w+)\s*;', text, re.S):
            fields = []
            for decl in m.group(1).split(';'):
                if decl.strip():
                    f = parse_field(decl)
                    if f:
                        fields.append(f)
            structs[m.group(2)] = fields
        for m in re.finditer(r'typedef\s+enum\s+_\w+\s*\{(.*?)\}\s*(\w+)\s*;', text, re.S):
            for etor in split_top(m.group(1), ','):
                name = etor.split('=')[0].strip()
                if re.match(r'^[A-Z_][A-Z0-9_]*$', name):
                    enums[name] = m.group(2)
        for m in re.finditer(r'^\s*#\s*define\s+(ZE[STL]?_[A-Z0-9_]+)\s+(\(?\s*-?(?:0x[0-9A-Fa-f]+|\d+)\s*\)?)\s*$',
                             text, re.M):
            macros[m.group(1)] = m.group(2)
        for m in re.finditer(r'ZE_(?:API|DLL)EXPORT\s+([\w\s\*]+?)\s+ZE_APICALL\s+(ze\w+)\s*\((.*?)\)\s*;', text, re.S):
            ret = re.sub(r'\s*\*\s*', '*', ' '.join(m.group(1).split()))
            funcs[m.group(2)] = (ret, param_types(m.group(3)))
    return structs, enums, macros, funcs


def is_ddi(name):
    return name.endswith('_dditable_t')


# Containers of every table of one implementation: they embed tables that
# grow, and upstream itself reordered them between 1.4 and 1.12, so they are
# not an exchanged ABI. Their member lists are reported, not compared.
CONTAINERS = ('ze_dditable_t', 'ze_dditable_driver_t', 'zet_dditable_t',
              'zes_dditable_t')


def version_current(name):
    # "latest known version" markers legitimately move with the spec version
    return name.endswith('_VERSION_CURRENT')


def main():
    if len(sys.argv) < 2:
        print('usage: abi_check.py API_DIR [CC [ARGS...]]', file=sys.stderr)
        return 2
    api_dir = os.path.abspath(sys.argv[1])
    cc = sys.argv[2:] or os.environ.get('CC', 'cc').split()
    sys_inc = os.environ.get('ZEMEM_ABI_SYSTEM_INCLUDE', '/usr/include')
    names = ('ze_api.h', 'ze_ddi.h', 'zes_api.h', 'zes_ddi.h')
    # Compared where the system has them too (libze-dev has had them all
    # since 1.0; each is checked on its own).
    extra = ('zet_api.h', 'zet_ddi.h', 'loader/ze_loader.h',
             'layers/zel_tracing_api.h', 'layers/zel_tracing_register_cb.h')
    names += tuple(h for h in extra
                   if os.path.exists(os.path.join(sys_inc, 'level_zero', h)))
    hdr_names = names
    sys_hdrs = [os.path.join(sys_inc, 'level_zero', h) for h in names]
    our_hdrs = [os.path.join(api_dir, 'level_zero', h) for h in names]
    if not all(os.path.exists(p) for p in sys_hdrs[:4]):
        print('SKIP: system Level Zero headers not found under %s/level_zero '
              '(install libze-dev to run this check)' % sys_inc)
        return SKIP
    for p in our_hdrs:
        if not os.path.exists(p):
            print('error: %s not found' % p, file=sys.stderr)
            return 2

    s_structs, s_enums, s_macros, s_funcs = parse_headers(sys_hdrs)
    o_structs, o_enums, o_macros, o_funcs = parse_headers(our_hdrs)
    if len(s_structs) < 50 or len(s_enums) < 300:
        print('error: parsed too little from the system headers (%d structs, %d enum constants)'
              % (len(s_structs), len(s_enums)), file=sys.stderr)
        return 2

    problems = []
    notes = []
    probe = []  # (kind, key, C expression)
    text_checks = 0

    for name in sorted(set(s_structs) & set(o_structs)):
        sf, of = s_structs[name], o_structs[name]
        if name in CONTAINERS:
            notes.append('%s (container, not compared): system %d members, ours %d'
                         % (name, len(sf), len(of)))
            continue
        if is_ddi(name):
            text_checks += 1
            if [f[0] for f in of[:len(sf)]] != [f[0] for f in sf]:
                problems.append('%s: system fields are not a prefix of ours\n  system: %s\n  ours:   %s'
                                % (name, [f[0] for f in sf], [f[0] for f in of]))
            elif len(of) > len(sf):
                notes.append('%s: %d field(s) added after the system version' % (name, len(of) - len(sf)))
            for fname, _, _ in sf:
                if fname in [f[0] for f in of]:
                    probe.append(('D', '%s.%s' % (name, fname), 'offsetof(%s, %s)' % (name, fname)))
            continue
        text_checks += 1
        if [f[0] for f in sf] != [f[0] for f in of]:
            problems.append('%s: field list differs\n  system: %s\n  ours:   %s'
                            % (name, [f[0] for f in sf], [f[0] for f in of]))
        ours = {f[0]: f for f in of}
        for fname, ftype, dims in sf:
            if fname in ours:
                text_checks += 1
                if (ftype, dims) != ours[fname][1:]:
                    problems.append('%s.%s: type differs: system "%s%s", ours "%s%s"'
                                    % (name, fname, ftype, dims, ours[fname][1], ours[fname][2]))
        probe.append(('S', name, 'sizeof(%s)' % name))
        probe.append(('A', name, '_Alignof(%s)' % name))
        for fname, _, _ in sf:
            if fname in ours:
                probe.append(('O', '%s.%s' % (name, fname), 'offsetof(%s, %s)' % (name, fname)))
                probe.append(('Z', '%s.%s' % (name, fname), 'sizeof(((%s *)0)->%s)' % (name, fname)))

    for name in sorted(set(s_enums) & set(o_enums)):
        if version_current(name):
            probe.append(('V', name, '(long long)%s' % name))
            continue
        probe.append(('E', name, '(long long)%s' % name))
        if s_enums[name] != o_enums[name]:
            problems.append('%s: enumerator belongs to %s in the system header, %s in ours'
                            % (name, s_enums[name], o_enums[name]))
    # entry points: return type and parameter types must match
    for name in sorted(set(s_funcs) & set(o_funcs)):
        text_checks += 1
        if s_funcs[name] != o_funcs[name]:
            problems.append('%s: signature differs\n  system: %s\n  ours:   %s'
                            % (name, s_funcs[name], o_funcs[name]))
    missing_funcs = sorted(f for f in set(s_funcs) - set(o_funcs)
                           if not f.startswith('zes'))
    missing_zes = sorted(f for f in set(s_funcs) - set(o_funcs)
                         if f.startswith('zes'))
    if missing_zes:
        notes.append('%d Sysman entry points of the system headers are not '
                     'declared in api/ (zemem implements a subset)'
                     % len(missing_zes))
    if missing_funcs:
        problems.append('entry points of the system headers missing in api/: %s' % ', '.join(missing_funcs))
    for name in sorted(set(s_macros) & set(o_macros)):
        probe.append(('M', name, '(long long)(%s)' % name))

    only_sys = {
        'structs': sorted(set(s_structs) - set(o_structs)),
        'enum constants': sorted(set(s_enums) - set(o_enums)),
    }
    for what, names in only_sys.items():
        if names:
            shown = ', '.join(names[:12]) + (' ...' if len(names) > 12 else '')
            notes.append('%d %s of the system headers are not declared in api/: %s'
                         % (len(names), what, shown))

    src = ['#include <stddef.h>', '#include <stdio.h>']
    src += ['#include <level_zero/%s>' % h for h in hdr_names]
    src += ['int main(void)', '{']
    for kind, key, expr in probe:
        src.append('    printf("%s %s %%lld\\n", (long long)(%s));' % (kind, key, expr))
    src += ['    return 0;', '}']

    tmp = tempfile.mkdtemp(prefix='zemem-abi-')
    try:
        cfile = os.path.join(tmp, 'probe.c')
        with open(cfile, 'w') as f:
            f.write('\n'.join(src) + '\n')
        outputs = {}
        for label, inc in (('system', sys_inc), ('ours', api_dir)):
            exe = os.path.join(tmp, 'probe_' + label)
            cmd = cc + ['-std=c11', '-w', '-I' + inc, cfile, '-o', exe]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                print('error: probe build against %s headers failed:\n%s\n%s'
                      % (label, ' '.join(cmd), r.stdout[-4000:]), file=sys.stderr)
                return 1 if label == 'ours' else 2
            r = subprocess.run([exe], stdout=subprocess.PIPE, text=True)
            if r.returncode != 0:
                print('error: probe (%s) exited %d' % (label, r.returncode), file=sys.stderr)
                return 2
            outputs[label] = r.stdout.splitlines()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    sys_lines, our_lines = outputs['system'], outputs['ours']
    if len(sys_lines) != len(our_lines) or len(sys_lines) != len(probe):
        problems.append('probe output length differs: system %d, ours %d, expected %d'
                        % (len(sys_lines), len(our_lines), len(probe)))
    for a, b in zip(sys_lines, our_lines):
        if a == b:
            continue
        if a.startswith('V '):
            notes.append('version marker differs as expected: system "%s", ours "%s"' % (a, b))
        else:
            problems.append('value differs: system "%s", ours "%s"' % (a, b))

    kinds = {}
    for kind, _, _ in probe:
        kinds[kind] = kinds.get(kind, 0) + 1
    labels = {'S': 'struct sizes', 'A': 'alignments', 'O': 'field offsets', 'Z': 'field sizes',
              'E': 'enum constants', 'M': 'macros', 'D': 'DDI table field offsets',
              'V': 'version markers'}
    print('compared %d items (%s) and %d field lists, field types and signatures'
          % (len(probe), ', '.join('%d %s' % (kinds[k], labels[k]) for k in 'SAOZEDMV' if k in kinds),
             text_checks))
    for n in notes:
        print('note: ' + n)
    if problems:
        print('%d difference(s):' % len(problems))
        for p in problems:
            print('  ' + p)
        return 1
    print('ABI identical for everything both header sets declare')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libzewholememory exports exactly the functions its installed headers
(api/wholememory/*.h) declare: each declared one is defined and
exported, and nothing else is.

    check_wm_exports.py LIBRARY HEADER_DIR
"""
import glob
import os
import re
import subprocess
import sys


def declared(header_dir):
    names = set()
    for path in sorted(glob.glob(os.path.join(header_dir, '*.h'))):
        text = open(path, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'//[^\n]*', ' ', text)
        text = text.replace('\\\n', ' ')
        text = '\n'.join(line for line in text.split('\n')
                         if not line.lstrip().startswith('#'))
        for stmt in text.split(';'):
            stmt = stmt.strip()
            if 'typedef' in stmt or '(' not in stmt or '{' in stmt:
                # typedefs (function pointer types too) and the pieces
                # of struct bodies
                stmt = stmt.split('}')[-1].strip()
                if 'typedef' in stmt or '(' not in stmt:
                    continue
            m = re.search(r'(\w+)\s*\(', stmt)
            if m and m.group(1) not in ('extern',):
                names.add(m.group(1))
    return names


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib],
                         capture_output=True, text=True, check=True).stdout
    return {f[2] for f in (l.split() for l in out.splitlines())
            if len(f) == 3 and f[1] == 'T'}


def main():
    lib, header_dir = sys.argv[1], sys.argv[2]
    want, have = declared(header_dir), exported(lib)
    missing = sorted(want - have)
    extra = sorted(have - want)
    for n in missing:
        print('declared, not exported:', n)
    for n in extra:
        print('exported, not declared:', n)
    print(f'{len(want)} functions declared, {len(have)} exported')
    return 1 if missing or extra else 0


if __name__ == '__main__':
    sys.exit(main())

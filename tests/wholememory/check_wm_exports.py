#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libzewholememory exports exactly the functions its installed headers
(api/wholememory/*.h) declare: each declared one is defined and
exported, and nothing else is.

    check_wm_exports.py LIBRARY HEADER_DIR

Each header WholeMemory's users include must be there and declare its
functions (a header left out of the directory would leave its functions
unchecked).
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


# header: functions it must declare (a few of each)
REQUIRED = {
    'wholememory.h': ['wholememory_malloc', 'wholememoryx_gather'],
    'wholememory_tensor.h': ['wholememory_create_tensor'],
    'wholememory_op.h': ['wholememory_gather', 'wholememory_scatter'],
    'env_func_ptrs.h': ['wholememoryx_get_default_env_func'],
    'embedding.h': ['wholememory_create_embedding',
                    'wholememory_embedding_gather_gradient_apply',
                    'wholememory_create_embedding_optimizer',
                    'wholememory_create_embedding_cache_policy',
                    'wholememory_embedding_writeback_cache'],
    'wholegraph_op.h': [
        'wholegraph_csr_unweighted_sample_without_replacement',
        'wholegraph_csr_weighted_sample_without_replacement'],
    'graph_op.h': ['graph_append_unique', 'csr_add_self_loop'],
}


def required(header_dir):
    bad = []
    for h, fns in sorted(REQUIRED.items()):
        path = os.path.join(header_dir, h)
        if not os.path.exists(path):
            bad.append(f'missing header: {h}')
            continue
        text = open(path, encoding='utf-8').read()
        for f in fns:
            if not re.search(r'\b' + f + r'\s*\(', text):
                bad.append(f'{h} does not declare {f}')
    return bad


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
    bad = required(header_dir)
    for b in bad:
        print(b)
    print(f'{len(want)} functions declared, {len(have)} exported')
    return 1 if missing or extra or bad else 0


if __name__ == '__main__':
    sys.exit(main())

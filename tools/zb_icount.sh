#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per alloc+free pair (64 B unless SIZE is given) of each kind
# through the loader zemem-bench uses, of glibc malloc+free, and per cold
# IPC open+close pair, from
# callgrind: zemem-bench --count at two N, (Ir(N2) - Ir(N1)) / (N2 - N1), so
# start-up cancels out. Instruction counts are repeatable where times on a
# shared machine are not.
#   tools/zb_icount.sh [build dir] [size]      (default build 64)
set -e
build=${1:-build}
size=${2:-64}
n1=1000
n2=21000
bench=$build/tools/zemem-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {  # kind n [env] -> instructions (Ir) of the whole run
	env $3 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
		"$bench" --count "$1" "$size" "$2" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	sed -n 's/^summary: *//p' "$tmp/out"
}
for kind in malloc host device shared; do
	a=$(count $kind $n1)
	b=$(count $kind $n2)
	echo "$kind $size B: $(( (b - a) / (n2 - n1) )) instructions/pair"
done
# Cold IPC open+close of a 2 MiB handle (the fd in the handle: every step
# but pidfd_getfd itself, which valgrind lacks); fewer pairs, each is an
# mmap and a munmap. Through zemem's loader: it needs a 1.6 call
# (zeMemGetFileDescriptorFromIpcHandleExp) that older loaders lack.
a=$(count ipc 1000 "LD_LIBRARY_PATH=$build/loader")
b=$(count ipc 3000 "LD_LIBRARY_PATH=$build/loader")
echo "ipc cold open+close 2 MiB: $(( (b - a) / 2000 )) instructions/pair" \
	"(zemem's loader)"

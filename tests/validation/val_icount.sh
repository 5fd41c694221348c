#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions the validation layer adds per operation (all three checkers
# on unless switches are set), from callgrind: for each operation, runs
# bench_validation --count at two N, layer on and off, and prints
#   ((on, N2) - (on, N1) - ((off, N2) - (off, N1))) / (N2 - N1).
#   val_icount.sh [build dir] [N1 N2]      (default build 2000 12000)
set -e
build=${1:-build}
n1=${2:-2000}
n2=${3:-12000}
bench=$build/tests/validation/bench_validation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {  # side op n -> instructions (Ir) of the whole run
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
		"$bench" --count "$1" "$2" "$3" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	sed -n 's/^summary: *//p' "$tmp/out"
}
for op in host device props; do
	on1=$(count on $op $n1); on2=$(count on $op $n2)
	off1=$(count off $op $n1); off2=$(count off $op $n2)
	echo "$op: on $(( (on2 - on1) / (n2 - n1) )) off $(( (off2 - off1) / (n2 - n1) )) layer $(( (on2 - on1 - off2 + off1) / (n2 - n1) )) instructions/op"
done

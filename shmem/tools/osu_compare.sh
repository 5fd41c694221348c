#!/bin/sh
# SPDX-License-Identifier: MIT
# The OSU-style latencies of libzeshmem beside Debian's Open MPI
# OpenSHMEM (liboshmem), on the same machine in the same run:
#   shmem/tools/osu_compare.sh BUILD_DIR [RUNS [LOAD]]
# builds shmem/tools/osu_style.c with BUILD_DIR's zeshcc and with oshcc
# (Debian: openmpi-bin libopenmpi-dev), runs each RUNS times (default 5)
# on 2 PEs (zeshrun -n 2; oshrun -np 2 with OMPI_MCA_osc=^rdma), the two
# alternating, and prints per case the median of the runs' figures and
# zemem / Open MPI (below 1: zemem is faster). LOAD (default 0): that
# many CPU-bound processes run beside both for the whole comparison
# (started here, ended at exit). A benchmark: it prints, never asserts.
# Exit 77 (with why) when oshcc or oshrun is missing.
set -eu
build=$(cd "$1" && pwd)
runs=${2:-5}
load=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
for p in oshcc oshrun; do
	command -v "$p" >/dev/null ||
		{ echo "osu_compare: no $p (apt-get install openmpi-bin libopenmpi-dev)"; exit 77; }
done
t=$(mktemp -d /tmp/osu-compare-XXXXXX)
busy=
trap 'for p in $busy; do kill "$p" 2>/dev/null; done; rm -rf "$t"' EXIT
"$build/shmem/tools/zeshcc" -O2 "$here/osu_style.c" -o "$t/osu_zemem"
oshcc -O2 "$here/osu_style.c" -o "$t/osu_ompi" 2>"$t/cc.log" ||
	{ cat "$t/cc.log"; echo "osu_compare: oshcc failed (libopenmpi-dev?)"; exit 77; }
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
i=0
while [ "$i" -lt "$load" ]; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
	i=$((i + 1))
done
i=0
while [ "$i" -lt "$runs" ]; do
	"$build/shmem/tools/zeshrun" -n 2 -- "$t/osu_zemem" |
		sed 's/^/zemem /' >>"$t/all"
	OMPI_MCA_osc=^rdma oshrun $root -np 2 "$t/osu_ompi" 2>/dev/null |
		sed 's/^/ompi /' >>"$t/all"
	i=$((i + 1))
done
echo "osu_compare: 2 PEs, median of $runs runs (each the median of 5" \
	"trials), $load CPU-bound processes beside them"
printf '%-10s %8s %12s %12s %8s\n' case bytes "zemem us" "OpenMPI us" ratio
awk '
function med(k,   n, i, j, a, x) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++)          # insertion sort
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			x = a[j]; a[j] = a[j - 1]; a[j - 1] = x
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $2 " " $3; if (!(k in seen)) { seen[k] = 1; order[++m] = k }
  v[$1 " " k] = v[$1 " " k] " " $4 }
END {
	for (i = 1; i <= m; i++) {
		split(order[i], c, " ")
		z = med("zemem " order[i]); o = med("ompi " order[i])
		printf "%-10s %8s %12.3f %12.3f %7.2fx%s\n", c[1], c[2], z, o,
		       z / o, z <= o ? "" : "  (above)"
		above += z > o
	}
	printf "osu_compare: %d of %d cases above Open MPI\n", above, m
}' "$t/all"

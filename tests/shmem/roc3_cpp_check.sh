#!/bin/sh
# SPDX-License-Identifier: MIT
# A rocSHMEM 3.x-style C++ program (roc3_prog.cpp: <rocshmem/rocshmem.hpp>,
# using namespace rocshmem) built by the build tree's zeshc++ with
# warnings as errors, run by zeshrun on 2, 3 and 8 PEs: every PE says ok;
# then roc3_mpi.cpp: the MPI_Comm start (with a one-rank <mpi.h> stand-in).
#   roc3_cpp_check.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
if ! command -v c++ >/dev/null; then
	echo "SKIP: no C++ compiler (c++) for zeshc++"
	exit 77
fi
t=$(mktemp -d /tmp/roc3-cpp-XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$build/shmem/tools/zeshc++" -std=c++17 -Wall -Wextra -Werror \
	"$src/tests/shmem/roc3_prog.cpp" -o "$t/roc3_prog" ||
	fail "zeshc++ did not build roc3_prog.cpp"
for n in 2 3 8; do
	out=$(ZESHMEM_SYMMETRIC_SIZE=8M ZESHMEM_TIMEOUT=30 \
	      "$build/shmem/tools/zeshrun" -n "$n" -- "$t/roc3_prog" 2>&1) ||
		fail "$n PEs: status $?: $out"
	pe=0
	while [ "$pe" -lt "$n" ]; do
		echo "$out" | grep -qx "PE $pe: roc3 ok" ||
			fail "$n PEs: no 'PE $pe: roc3 ok' in: $out"
		pe=$((pe + 1))
	done
	echo "ok: $n PEs"
done

# rocshmem_init(MPI_Comm) where <mpi.h> is present: a one-rank stand-in
# (mpi_stub/mpi.h), the job started through the unique id, no launcher.
"$build/shmem/tools/zeshc++" -std=c++17 -Wall -Wextra -Werror \
	-I"$src/tests/shmem/mpi_stub" "$src/tests/shmem/roc3_mpi.cpp" \
	-o "$t/roc3_mpi" || fail "zeshc++ did not build roc3_mpi.cpp"
out=$(env -u ZESHMEM_UNIQUEID ZESHMEM_SYMMETRIC_SIZE=8M ZESHMEM_TIMEOUT=30 \
      "$t/roc3_mpi" 2>&1) || fail "roc3_mpi: status $?: $out"
[ "$out" = "roc3_mpi ok" ] || fail "roc3_mpi said: $out"
echo "ok: rocshmem_init(MPI_Comm)"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Upstream's samples/zello_world (Intel's level-zero loader sources, not
# part of this tree), built unchanged against zemem's api/ and linked with
# zemem's libze_loader.so.1, then run over zemem's driver (issue 30).
#
# The sources come from a checkout of github.com/oneapi-src/level-zero
# named by ZEMEM_LEVEL_ZERO_SRC (at test time) or -Dlevel_zero_src (at
# configure time); without one the test is skipped (77) with the reason.
# The sample includes "ze_api.h", "zet_api.h", "loader/ze_loader.h" and
# "include/layers/zel_tracing_api.h" (the last relative to upstream's
# source root): the include path is api/level_zero and a folder whose
# include/ is api/level_zero, nothing else of Level Zero; the compiler's
# list of the headers it read must name no other Level Zero header.
#
# Checks, each with its exact exit status and lines of output:
#  1. zemem's devices are CPUs: the sample, which asks for GPU drivers,
#     finds none (exit 255), as on any machine without a GPU;
#  2. ZEMEM_DEVICE_TYPE=gpu: the sample runs to the end (exit 0) with
#     zeInitDrivers, with -legacy_init (zeInit + zeDriverGet), with
#     -tracerun (zelEnableTracingLayer after init, zelTracerCreate /
#     Destroy, zelDisableTracingLayer) and with -trace
#     (ZE_ENABLE_TRACING_LAYER=1).
# Usage: zello_upstream.sh SRC CXX LOADER_DIR DRIVER API_DIR [SANITIZE]
set -eu
src=${ZEMEM_LEVEL_ZERO_SRC:-$1}
cxx=$2 ldr=$3 drv=$4 api=$5
san=
case ${6:-none} in none|'') ;; *) san=-fsanitize=$6 ;; esac
sample=$src/samples/zello_world/zello_world.cpp
if [ -z "$src" ] || [ ! -f "$sample" ]; then
	echo "skip: upstream's samples/zello_world not available (set" \
		"ZEMEM_LEVEL_ZERO_SRC or -Dlevel_zero_src to a checkout of" \
		"oneapi-src/level-zero; zello_own covers the same calls)"
	exit 77
fi
if [ -z "$cxx" ] || ! command -v "$cxx" >/dev/null; then
	echo "skip: no C++ compiler to build the sample"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$t/root"
ln -s "$api/level_zero" "$t/root/include"
# shellcheck disable=SC2086
"$cxx" $san -std=c++14 -H -I"$api/level_zero" -I"$t/root" \
	-I"$src/samples/include" "$sample" -o "$t/zello_world" \
	-L"$ldr" -lze_loader -Wl,-rpath,"$ldr" 2>"$t/headers" ||
	{ cat "$t/headers" >&2; fail "the sample does not build"; }
grep -E '^\.+ ' "$t/headers" | sed 's/^\.* //' >"$t/read"
for h in ze_api.h zet_api.h loader/ze_loader.h layers/zel_tracing_api.h; do
	grep -q "/$h\$" "$t/read" || fail "the sample did not read $h"
done
# Every Level Zero header read is one of api/level_zero (directly or
# through the include/ link).
if grep -E '/(ze|zet|zes|zer|zel)_[a-z_]*\.h$' "$t/read" |
	grep -v -e "^$api/level_zero/" -e "^$t/root/include/" >"$t/other"; then
	cat "$t/other" >&2
	fail "a Level Zero header from outside api/ was read"
fi
echo "ok: built against api/ only"

run() { # expected-status expected-line [args...]
	want=$1 line=$2
	shift 2
	set +e
	ZE_ENABLE_ALT_DRIVERS=$drv "$t/zello_world" "$@" >"$t/out" 2>&1
	got=$?
	set -e
	[ "$got" = "$want" ] || { cat "$t/out" >&2; fail "$*: exit $got"; }
	n=$(grep -cxF "$line" "$t/out" || true)
	[ "$n" = 1 ] || { cat "$t/out" >&2; fail "$*: '$line' $n times"; }
}
export ZEMEM_LOG_LEVEL=error
run 255 "Did NOT find matching ZE_DEVICE_TYPE_GPU device!"
echo "ok: CPU devices, the sample finds no GPU"
done_line="Congratulations, Executing on Driver #0, Device #0 completed execution!"
export ZEMEM_DEVICE_TYPE=gpu
run 0 "$done_line"
grep -qxF "zelLoaderGetVersions number of components found: 1" "$t/out" ||
	fail "zelLoaderGetVersions"
run 0 "$done_line" -legacy_init
run 0 "$done_line" -tracerun
grep -qxF "Disable Tracing Layer after init" "$t/out" ||
	fail "-tracerun: tracing not disabled"
run 0 "$done_line" -trace
echo "ok: runs to the end (zeInitDrivers, -legacy_init, -tracerun, -trace)"

#!/bin/sh
# SPDX-License-Identifier: MIT
# `meson install` never changes which loader the machine's programs load
# (issue 30, point 4). Installs the build tree into a destdir and checks:
#  1. zemem's libze_loader.so.1 lies in the private folder
#     (<libdir>/zemem), not in <libdir>;
#  2. the dynamic linker's cache built from the installed tree with the
#     system's own ld.so.conf (ldconfig -r: as root only) names no
#     libze_loader.so.1, so after `ldconfig` the system's loader (or none)
#     stays the one found;
#  3. zemem-loader.pc points at the private folder, with an rpath, and a
#     program linked from it records that folder (RUNPATH) and starts;
#  4. level-zero.pc / libze_loader.pc are not installed (Debian's
#     libze-dev owns those names) unless -Dlevel_zero_pc=true.
#  5. the Level Zero headers install under <includedir>/level_zero at
#     upstream's paths, and a program using them builds and runs.
# Usage: install_check.sh BUILD PREFIX LIBDIR LOADER_INSTALL LEVEL_ZERO_PC
#        [SANITIZE] (the build's b_sanitize: the program takes it too)
set -eu
build=$1 prefix=$2 libdir=$3
san=
case ${6:-none} in none) ;; *) san=-fsanitize=$6 ;; esac
if [ "$4" != private ] || [ "$5" != false ]; then
	echo "skip: built with -Dloader_install=$4 -Dlevel_zero_pc=$5;" \
		"this checks the default (private, false)"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

meson install -C "$build" --no-rebuild --quiet --destdir "$t/root" \
	>/dev/null
root=$t/root
priv=$libdir/zemem
[ -e "$root$priv/libze_loader.so.1" ] || fail "no $priv/libze_loader.so.1"
[ -e "$root$libdir/libze_loader.so.1" ] &&
	fail "libze_loader.so.1 installed into $libdir"
# The driver and the runtime install where they did.
[ -e "$root$libdir/libze_zemem.so.1" ] || fail "no driver in $libdir"
echo "ok: loader in $priv"

if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then
	mkdir -p "$root/etc"
	cp -r /etc/ld.so.conf "$root/etc/"
	[ -d /etc/ld.so.conf.d ] && cp -r /etc/ld.so.conf.d "$root/etc/"
	ldconfig -r "$root" -C /etc/zemem-test.cache 2>/dev/null ||
		fail "ldconfig -r"
	ldconfig -p -C "$root/etc/zemem-test.cache" >"$t/cache"
	grep -q libzeshmem.so.1 "$t/cache" ||
		fail "the cache misses libzeshmem (is $libdir searched?)"
	grep libze_loader "$t/cache" &&
		fail "ldconfig would pick zemem's loader"
	echo "ok: ldconfig over the install finds no libze_loader.so.1"
else
	echo "skip: ldconfig -r needs root (chroot); checked the layout only"
fi

pc=$root$libdir/pkgconfig/zemem-loader.pc
[ -f "$pc" ] || fail "no zemem-loader.pc"
grep -q "^libdir=$priv\$" "$pc" || fail "zemem-loader.pc libdir"
for n in level-zero libze_loader; do
	[ -e "$root$libdir/pkgconfig/$n.pc" ] && fail "$n.pc installed"
done
cat >"$t/p.c" <<'C'
#include <level_zero/ze_api.h>
int main(void) { return zeInit(0) == ZE_RESULT_SUCCESS ? 0 : 1; }
C
export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
[ "$(pkg-config --variable=libdir zemem-loader)" = "$priv" ] ||
	fail "pkg-config zemem-loader: libdir"
cf=$(pkg-config --cflags zemem-loader)
lf=$(pkg-config --libs zemem-loader)
unset PKG_CONFIG_PATH
# The flags name the final prefix; the destdir stands in for it here.
# shellcheck disable=SC2086
cc $san -I"$root$prefix/include" $cf "$t/p.c" -o "$t/p" -L"$root$priv" $lf
readelf -d "$t/p" | grep -E "R(UN)?PATH" | grep -q "\[$priv\]" ||
	fail "the program does not record $priv"
LD_LIBRARY_PATH="$root$priv" \
	ZE_ENABLE_ALT_DRIVERS="$root$libdir/libze_zemem.so.1" "$t/p" ||
	fail "the program linked from zemem-loader.pc"
echo "ok: pkg-config zemem-loader"

# The headers a Level Zero program includes, at upstream's paths, one
# include directory: <includedir>/level_zero (issue 30).
inc=$root$prefix/include
for h in ze_api.h ze_ddi.h zes_api.h zes_ddi.h zet_api.h zet_ddi.h \
	zer_api.h zer_ddi.h loader/ze_loader.h layers/zel_tracing_api.h \
	layers/zel_tracing_register_cb.h; do
	[ -f "$inc/level_zero/$h" ] || fail "level_zero/$h not installed"
done
cat >"$t/h.c" <<'C'
#include "ze_api.h"
#include "zet_api.h"
#include "zer_api.h"
#include "loader/ze_loader.h"
#include "layers/zel_tracing_api.h"
#include <zemem/zel_loader.h>
#include <zemem/zel_tracing.h>
#if !defined(ZEMEM_LEVEL_ZERO_ZET_API_H) || \
	!defined(ZEMEM_LEVEL_ZERO_ZEL_TRACING_REGISTER_CB_H)
#error "not zemem's headers"
#endif
int main(void) { return zelCheckIsLoaderInTearDown() ? 1 : 0; }
C
# shellcheck disable=SC2086
cc $san -std=c11 -Wall -Werror -I"$inc/level_zero" -I"$inc" "$t/h.c" \
	-o "$t/h" -L"$root$priv" -lze_loader -Wl,-rpath,"$root$priv" ||
	fail "a program with the installed headers does not build"
"$t/h" || fail "the program with the installed headers"
echo "ok: headers installed under level_zero/ (loader/, layers/ too)"

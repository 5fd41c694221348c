#!/bin/sh
# SPDX-License-Identifier: MIT
# zeshcc and zeshmem.pc, as a user runs them:
#   zeshcc_check.sh BUILD_DIR SOURCE_DIR PREFIX LIBDIR
# 1. the build tree's zeshcc compiles and links a program that runs with no
#    LD_LIBRARY_PATH (NEEDED libzeshmem.so.1, RUNPATH the build's shmem/);
#    -c adds no link flags; ZESHCC_CC picks the compiler; --showme prints;
# 2. pkg-config from build/meson-uninstalled gives -I api/ and
#    -L build/shmem -lzeshmem, and what it links runs (with an rpath);
# 3. `meson install --destdir` puts zeshcc (pointing at PREFIX's include
#    and LIBDIR) in bin/ and zeshmem.pc in LIBDIR/pkgconfig.
set -eu
build=$1
src=$2
prefix=$3
libdir=$4
t=$(mktemp -d /tmp/zeshcc-check-XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$t/p.c" <<'EOC'
#include <stdio.h>
int main(void) { puts("zeshcc program ran"); return 0; }
EOC
zeshcc=$build/shmem/tools/zeshcc
[ -x "$zeshcc" ] || fail "no $zeshcc"

# 1. build tree
show=$("$zeshcc" --showme -Wl,--no-as-needed "$t/p.c" -o "$t/p")
case $show in *"-I$src/api "*) ;; *) fail "showme lacks -I$src/api: $show" ;; esac
case $show in *"-L$build/shmem "*) ;; *) fail "showme lacks -L: $show" ;; esac
case $show in *"-Wl,-rpath,$build/shmem "*) ;; *) fail "no rpath: $show" ;; esac
# The loader by soname (no libze-dev link needed): zemem's, with an rpath.
ldr="-L$build/loader -Wl,-rpath,$build/loader -l:libze_loader.so.1"
case $show in *"-lzeshmem $ldr"*) ;; *) fail "no -l: $show" ;; esac
cshow=$("$zeshcc" --showme -c "$t/p.c")
case $cshow in *-lzeshmem*) fail "-c links: $cshow" ;; esac
ccshow=$(ZESHCC_CC=mycc "$zeshcc" --showme -c "$t/p.c")
case $ccshow in "mycc "*) ;; *) fail "ZESHCC_CC ignored: $ccshow" ;; esac
"$zeshcc" -Wl,--no-as-needed "$t/p.c" -o "$t/p"
out=$(env -u LD_LIBRARY_PATH "$t/p")
[ "$out" = "zeshcc program ran" ] || fail "program said: $out"
readelf -d "$t/p" | grep -q 'NEEDED.*\[libzeshmem.so.1\]' || fail "not linked"
readelf -d "$t/p" | grep -q "PATH.*\[$build/shmem:$build/loader\]" || fail "no runpath"
"$zeshcc" -c "$t/p.c" -o "$t/p.o"
[ -s "$t/p.o" ] || fail "-c made nothing"
echo "ok: build-tree zeshcc"

# 1b. zeshc++: the same with the C++ compiler; <mpp/shmem.h> for legacy
# codes; a one-PE run without a launcher.
if command -v c++ >/dev/null; then
	cat > "$t/p.cpp" <<'EOC'
#include <mpp/shmem.h>
#include <shmem.h>
#include <cstdio>
int main() {
	shmem_init();
	int n = shmem_n_pes(), me = shmem_my_pe();
	long *x = static_cast<long *>(shmem_malloc(sizeof(long)));
	shmem_long_p(x, 42, me);
	shmem_quiet();
	std::printf("c++ PE %d of %d: %ld\n", me, n, *x);
	shmem_free(x);
	shmem_finalize();
	return 0;
}
EOC
	xshow=$("$build/shmem/tools/zeshc++" --showme "$t/p.cpp")
	case $xshow in *++*" -I$src/api "*) ;; *) fail "zeshc++: $xshow" ;; esac
	"$build/shmem/tools/zeshc++" "$t/p.cpp" -o "$t/pp"
	out=$(env -u LD_LIBRARY_PATH "$t/pp")
	[ "$out" = "c++ PE 0 of 1: 42" ] || fail "c++ program said: $out"
	echo "ok: zeshc++ and <mpp/shmem.h>"
else
	echo "skip: no C++ compiler (c++): zeshc++ not checked"
fi

# 2. pkg-config, uninstalled
if command -v pkg-config >/dev/null; then
	export PKG_CONFIG_PATH=$build/meson-uninstalled
	cf=$(pkg-config --cflags zeshmem)
	lf=$(pkg-config --libs zeshmem)
	case $cf in *"-I$src/api"*) ;; *) fail "cflags: $cf" ;; esac
	case $lf in *"-L$build/shmem -lzeshmem"*) ;; *) fail "libs: $lf" ;; esac
	# A sanitizer build's library wants its runtime in the program too.
	san=$(sed -n "s/^san='\(.*\)'\$/\1/p" "$zeshcc")
	# shellcheck disable=SC2086
	cc $san $cf "$t/p.c" -o "$t/q" -Wl,--no-as-needed $lf \
		-Wl,-rpath,"$build/shmem"
	env -u LD_LIBRARY_PATH "$t/q" >/dev/null || fail "pkg-config program"
	unset PKG_CONFIG_PATH
	echo "ok: pkg-config zeshmem (uninstalled)"
fi

# 3. install
meson install -C "$build" --no-rebuild --quiet --destdir "$t/root" \
	>/dev/null
inst=$t/root$prefix/bin/zeshcc
[ -x "$inst" ] || fail "no installed zeshcc"
grep -q "^incdir='$prefix/include'$" "$inst" || fail "installed incdir"
grep -q "^libdir='$libdir'$" "$inst" || fail "installed libdir"
grep -q "$build" "$inst" && fail "installed zeshcc names the build tree"
pc=$t/root$libdir/pkgconfig/zeshmem.pc
[ -f "$pc" ] || fail "no installed zeshmem.pc"
grep -q "^Libs: -L\${libdir} -lzeshmem" "$pc" || fail "pc Libs"
[ -e "$t/root$libdir/libzeshmem.so.1" ] || fail "no installed library"
[ "$(readlink "$t/root$prefix/bin/zeshc++")" = zeshcc ] ||
	fail "no installed zeshc++"
[ -f "$t/root$prefix/include/mpp/shmem.h" ] || fail "no mpp/shmem.h"
echo "ok: installed zeshcc, zeshc++ and zeshmem.pc"

# 4. oshcc / oshc++ / oshrun: not over another implementation's (a fake
# oshcc on PATH), installed when asked (ZESHMEM_OSH_NAMES=true).
mkdir -p "$t/other"
printf '#!/bin/sh\nexit 0\n' > "$t/other/oshcc"
chmod +x "$t/other/oshcc"
PATH="$t/other:$PATH" ZESHMEM_OSH_NAMES=auto meson install -C "$build" \
	--no-rebuild --quiet --destdir "$t/r2" >/dev/null
[ -e "$t/r2$prefix/bin/oshcc" ] && fail "oshcc over another's"
ZESHMEM_OSH_NAMES=true meson install -C "$build" --no-rebuild --quiet \
	--destdir "$t/r3" >/dev/null
for pair in oshcc:zeshcc oshc++:zeshc++ oshrun:zeshrun; do
	[ "$(readlink "$t/r3$prefix/bin/${pair%%:*}")" = "${pair#*:}" ] ||
		fail "${pair%%:*} is not ${pair#*:}"
done
echo "ok: osh names (skipped beside another OpenSHMEM, else installed)"

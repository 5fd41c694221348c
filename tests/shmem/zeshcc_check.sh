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
case $show in *"-lzeshmem -lze_loader"*) ;; *) fail "no -l: $show" ;; esac
cshow=$("$zeshcc" --showme -c "$t/p.c")
case $cshow in *-lzeshmem*) fail "-c links: $cshow" ;; esac
ccshow=$(ZESHCC_CC=mycc "$zeshcc" --showme -c "$t/p.c")
case $ccshow in "mycc "*) ;; *) fail "ZESHCC_CC ignored: $ccshow" ;; esac
"$zeshcc" -Wl,--no-as-needed "$t/p.c" -o "$t/p"
out=$(env -u LD_LIBRARY_PATH "$t/p")
[ "$out" = "zeshcc program ran" ] || fail "program said: $out"
readelf -d "$t/p" | grep -q 'NEEDED.*\[libzeshmem.so.1\]' || fail "not linked"
readelf -d "$t/p" | grep -q "PATH.*\[$build/shmem\]" || fail "no runpath"
"$zeshcc" -c "$t/p.c" -o "$t/p.o"
[ -s "$t/p.o" ] || fail "-c made nothing"
echo "ok: build-tree zeshcc"

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
echo "ok: installed zeshcc and zeshmem.pc"

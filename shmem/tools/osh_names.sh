#!/bin/sh
# SPDX-License-Identifier: MIT
# meson install script: oshcc, oshc++ and oshrun as symlinks to zeshcc,
# zeshc++ and zeshrun in BINDIR, unless they would replace another
# OpenSHMEM's (Open MPI's openmpi-bin installs all three in /usr/bin):
#   osh_names.sh BINDIR auto|true|false
# auto: skip a name that another program answers to on PATH or in BINDIR;
# true: skip it only where BINDIR holds another program under it; false:
# none. ZESHMEM_OSH_NAMES (auto, true, false) overrides the option.
set -eu
bindir=$1
mode=${ZESHMEM_OSH_NAMES:-$2}
[ "$mode" = false ] && exit 0
case $bindir in
/*) ;;
*) bindir=$MESON_INSTALL_PREFIX/$bindir ;;
esac
dest=${DESTDIR:+$DESTDIR}$bindir
for pair in oshcc:zeshcc oshc++:zeshc++ oshrun:zeshrun; do
	name=${pair%%:*}
	ours=${pair#*:}
	at=$dest/$name
	if [ -e "$at" ] || [ -L "$at" ]; then
		if [ "$(readlink "$at")" = "$ours" ]; then
			continue
		fi
		echo "zemem: $bindir/$name is another program's: not replaced"
		continue
	fi
	if [ "$mode" = auto ]; then
		other=$(command -v "$name" 2>/dev/null || true)
		if [ -n "$other" ]; then
			echo "zemem: $name is $other (another OpenSHMEM):" \
				"not installed; use $ours"
			continue
		fi
	fi
	ln -s "$ours" "$at"
done

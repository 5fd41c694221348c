#!/bin/sh
# SPDX-License-Identifier: MIT
# libzeshmem under zemem's own loader: the PEs' libze_loader.so.1 must be
# the build tree's (checked with ldd first), then the cases run as a job.
#   zemem_loader.sh LOADER_DIR ZESHRUN SHMEM_PE N CASE...
set -u
dir=$1 zeshrun=$2 pe=$3 n=$4
shift 4
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
got=$(ldd "$pe" | sed -n 's/.*libze_loader\.so\.1 => \([^ ]*\).*/\1/p')
case $got in
"$dir"/*) ;;
*) echo "the PE would load libze_loader.so.1 from '$got', not $dir"; exit 1 ;;
esac
for c in "$@"; do
	out=$(timeout 240 "$zeshrun" -n "$n" -- "$pe" "$c" 2>&1)
	st=$?
	ok=$(printf '%s\n' "$out" | grep -c "^PE [0-9]*: $c ok")
	if [ "$st" -ne 0 ] || [ "$ok" -ne "$n" ]; then
		echo "case $c under zemem's loader: status $st, $ok of $n PEs ok:"
		echo "$out"
		exit 1
	fi
	echo "$c: $n PEs ok under $got"
done

#!/bin/sh
# SPDX-License-Identifier: MIT
# One memory-registration mode of the network transport (issue 16):
# a job of 2 PEs, every PE a node of its own (all traffic over
# libfabric), with ZESHMEM_OFI_MR=MODE over PROVIDER, running CASEs of
# shmem_pe; every PE must print "PE <n>: CASE ok". A mode the provider
# does not accept (init logs "ZESHMEM_OFI_MR: ... unsupported here")
# skips (77) with the reason. OFI_EXPECT (optional): a pattern the
# transport's info line must match (the fragment size, say).
#   ofi_mr.sh ZESHRUN SHMEM_PE PROVIDER MODE CASE...
set -u
zeshrun=$1 pe=$2 prov=$3 mode=$4
shift 4
export ZESHMEM_FORCE_NETWORK=1 ZESHMEM_PROVIDER="$prov" ZESHMEM_OFI_MR="$mode"
export ZESHMEM_SYMMETRIC_SIZE=8M ZESHMEM_TIMEOUT=60 SHMEM_PE_NODE_PES=1
export ZEMEM_LOG_LEVEL=warn,shmem:info
for c in "$@"; do
	out=$(timeout 120 "$zeshrun" -n 2 -- "$pe" "$c" 2>&1)
	st=$?
	why=$(printf '%s\n' "$out" | grep -m1 'ZESHMEM_OFI_MR: .*unsupported here')
	if [ -n "$why" ]; then
		echo "SKIP: $prov, ZESHMEM_OFI_MR=$mode: ${why#*shmem: }"
		exit 77
	fi
	n=$(printf '%s\n' "$out" | grep -c ": $c ok")
	if [ "$st" != 0 ] || [ "$n" != 2 ]; then
		echo "FAIL: $prov, ZESHMEM_OFI_MR=$mode, $c: status $st, $n of 2 ok"
		printf '%s\n' "$out"
		exit 1
	fi
	# the transport's line says which mode it used: the provider's
	# mr_mode, and the bits applied for ZESHMEM_OFI_MR beyond it; a
	# required local / endpoint must be in one or the other
	line=$(printf '%s\n' "$out" | grep -m1 'network transport:')
	echo "${line#*shmem: }"
	mm=$(echo "$line" | sed -E 's/.*mr_mode (0x[0-9a-f]+).*/\1/')
	for req in local:4:LOCAL endpoint:512:ENDPOINT; do
		b=${req%%:*}; v=${req#*:}; v=${v%%:*}; B=${req##*:}
		echo ",$mode," | tr '|' ',' | grep -q ",$b," || continue
		[ $((mm & v)) != 0 ] && continue
		case "$line" in *"FI_MR_$B applied"*) continue ;; esac
		echo "FAIL: $prov, ZESHMEM_OFI_MR=$mode: FI_MR_$B not in use"
		exit 1
	done
	if [ -n "${OFI_EXPECT:-}" ] && ! echo "$line" | grep -q -- "$OFI_EXPECT"
	then
		echo "FAIL: $prov: the transport's line lacks '$OFI_EXPECT'"
		exit 1
	fi
	echo "ok: $prov, ZESHMEM_OFI_MR=$mode, $c"
done
exit 0

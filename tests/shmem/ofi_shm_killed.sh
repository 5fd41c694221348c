#!/bin/sh
# SPDX-License-Identifier: MIT
# A PE killed while its libfabric shm endpoint is open (ZESHMEM_PROVIDER=shm,
# every PE a node of its own) leaves /dev/shm/zeshmem_<pid>_*: zeshrun
# must remove it when the PE ends, so nothing survives the job.
#   ofi_shm_killed.sh ZESHRUN SHMEM_PE
set -u
zeshrun=$1 pe=$2
dead() { # entries of zeshmem_<pid>_ whose pid is gone
	for f in /dev/shm/zeshmem_*_*; do
		[ -e "$f" ] || continue
		pid=${f#/dev/shm/zeshmem_}; pid=${pid%%_*}
		kill -0 "$pid" 2>/dev/null || echo "$f"
	done
}
before=$(dead | wc -l)
out=$(timeout 120 "$zeshrun" -n 2 -- "$pe" nodekill 2>&1)
st=$?
if [ "$st" -eq 0 ] || [ "$st" -eq 124 ]; then
	echo "zeshrun ended with $st (want a killed PE's status):"; echo "$out"
	exit 1
fi
case $out in
*"zeshmem: PE 1 (pid"*"killed by signal 9"*) ;;
*) echo "no line naming the killed PE 1:"; echo "$out"; exit 1 ;;
esac
after=$(dead | wc -l)
if [ "$after" -ne "$before" ]; then
	echo "/dev/shm entries of dead PEs: $before before, $after after:"
	dead
	exit 1
fi
echo "ok: PE 1 killed, zeshrun $st, no endpoint entry left"

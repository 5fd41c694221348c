#!/bin/sh
# SPDX-License-Identifier: MIT
# A PE of a unique-id job (no launcher: `shmem_pe uid 3 MODE`, the PEs
# forked by PE 0) over the network transport dies (SIGKILL) while the
# others wait for it (issue 26, points 4 and 5): MODE kill in a barrier,
# killwait in a wait_until, killget in a get from it.
#   ofi_uid_fault.sh SHMEM_PE PROVIDER MODE CALL
# 4: ZESHMEM_TIMEOUT is 600 s: only the bootstrap's news of the dead PE
#    can end the survivors before the test's bound (timeout 120): PE 0
#    must end with status 1 and "zeshmem: PE 0: CALL: PE 2 ended".
# 5 (PROVIDER shm): the survivors end through sh_fatal: their
#    /dev/shm/zeshmem_<pid>_* entries must be gone; the killed PE's one
#    (nothing of it can run) must be gone after the next job of this user
#    (`shmem_pe uid 2`), which reaps the entries of dead pids.
# Every process of the jobs is in a session of its own, killed at the end.
set -u
pe=$1 prov=$2 mode=$3 call=$4
export ZESHMEM_FORCE_NETWORK=1 ZESHMEM_PROVIDER="$prov"
export ZESHMEM_SYMMETRIC_SIZE=8M ZESHMEM_TIMEOUT=600 SHMEM_PE_NODE_PES=1
tmp=$(mktemp -d /tmp/ofi_uid_fault.XXXXXX) || exit 1
cleanup() {
	for f in "$tmp"/sid.*; do
		[ -e "$f" ] && kill -9 -- "-$(cat "$f")" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
entries() { ls /dev/shm 2>/dev/null | grep '^zeshmem_' | sort; }
# job NAME ARGS...: runs shmem_pe ARGS in a new session (its id in
# sid.NAME), output in out.NAME, status in st
job() {
	n=$1; shift
	timeout -k 5 120 setsid sh -c 'echo $$ >"$0"; exec "$@"' \
		"$tmp/sid.$n" "$pe" "$@" >"$tmp/out.$n" 2>&1
	st=$?
}
entries >"$tmp/before"
job kill uid 3 "$mode"
if [ "$st" != 1 ] || ! grep -q \
	"zeshmem: PE 0: $call: PE 2 ended$" "$tmp/out.kill"; then
	echo "FAIL: PE 0 ended with $st (want 1, naming PE 2):"
	cat "$tmp/out.kill"
	exit 1
fi
echo "ok: PE 0 noticed the dead PE 2 in $call (status $st)"
[ "$prov" = shm ] || exit 0
# the session's other processes (PE 1) end on their own; wait for them
for i in $(seq 1 100); do
	ps -o pid= -s "$(cat "$tmp/sid.kill")" >/dev/null 2>&1 || break
	sleep 0.1
done
entries >"$tmp/after"
new=$(comm -13 "$tmp/before" "$tmp/after")
left=0
for f in $new; do
	pid=${f#zeshmem_}; pid=${pid%%_*}
	if kill -0 "$pid" 2>/dev/null; then
		continue # a live process's (another job running now)
	fi
	left=$((left + 1))
	echo "left by the job: /dev/shm/$f"
done
if [ "$left" -gt 1 ]; then
	echo "FAIL: $left entries of the job's PEs left (want only the" \
		"killed PE's)"
	exit 1
fi
job next uid 2
if [ "$st" != 0 ]; then
	echo "FAIL: the next job ended with $st:"; cat "$tmp/out.next"
	exit 1
fi
for f in $new; do
	if [ -e "/dev/shm/$f" ]; then
		pid=${f#zeshmem_}; pid=${pid%%_*}
		kill -0 "$pid" 2>/dev/null && continue
		echo "FAIL: /dev/shm/$f (pid $pid, gone) not reaped by the" \
			"next job"
		exit 1
	fi
done
echo "ok: the survivors removed their entries ($left left by the" \
	"killed PE), the next job reaped it"

#!/bin/sh
# SPDX-License-Identifier: MIT
# netns_job.sh's leak checks (NETNS_JOB_LEAKS=1, as py-wg-netns-* use
# them) on 2 nodes of 1 PE: a clean job passes; a job whose PEs leave a
# /dev/shm entry, or a process in their namespace, fails and names it;
# the run fails, and no namespace, process or entry of it is left.
# Skips (77) as netns_job.sh does.
here=$(dirname "$0")
tag=$$
out=$(mktemp) || exit 1
NETNS_JOB_LEAKS=1 sh "$here/../shmem/netns_job.sh" 2 1 \
	"$here/netns_leak_pe.sh" clean "shm.$tag" "proc.$tag" >"$out" 2>&1
rc=$?
fail=0
if [ "$rc" = 77 ]; then
	cat "$out"
	rm -f "$out"
	exit 77
fi
[ "$rc" = 1 ] || { echo "FAIL: status $rc, not 1"; fail=1; }
grep -q "^ok: clean on 2 nodes x 1 PEs$" "$out" ||
	{ echo "FAIL: the clean job did not pass"; fail=1; }
n=$(grep "^FAIL: shm.$tag on 2 nodes x 1 PEs left processes: ;" "$out" |
	grep -o "zemem-netnsleak\.[0-9]*\.$tag" | wc -l)
[ "$n" = 2 ] || { echo "FAIL: $n of 2 /dev/shm entries named"; fail=1; }
pat="^FAIL: proc.$tag on 2 nodes x 1 PEs left processes: [0-9]+( [0-9]+)+;"
grep -qE "$pat" "$out" ||
	{ echo "FAIL: the processes left are not named"; fail=1; }
[ "$fail" = 0 ] || cat "$out"
rm -f "$out"
# this run's entries go (netns_job.sh only reports them)
left=$(ls /dev/shm | grep -c "^zemem-netnsleak\.[0-9]*\.$tag$")
rm -f /dev/shm/zemem-netnsleak.*."$tag"
[ "$left" = 2 ] || { echo "FAIL: $left entries of this run"; fail=1; }
# the processes left went with their namespaces (the cleanup)
if pgrep -f "netnsleak\.$tag\$" >/dev/null; then
	echo "FAIL: processes of this run left:"
	pgrep -af "netnsleak\.$tag\$"
	fail=1
fi
exit $fail

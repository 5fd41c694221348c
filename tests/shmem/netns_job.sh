#!/bin/sh
# SPDX-License-Identifier: MIT
#
# netns_job.sh: libzeshmem jobs on "nodes" made of network namespaces of
# this machine (issue 16), started by Open MPI's mpirun over PMIx.
#
#   netns_job.sh NODES PPN SHMEM_PE CASE...
#
# Makes NODES namespaces zsh-<pid>-<i> plus one zsh-<pid>-sw holding a
# bridge; node i has one veth "zshn" (its peer on the bridge) with
# 10.211.77.<i+1>/24, an address that exists only inside these
# namespaces, and lo. mpirun runs inside node 0 with its own hostname
# (unshare --uts); the other nodes' daemons are started by an
# plm_rsh_agent script that enters the node's namespace and sets its
# hostname, so every node has its own host identity (separate nodes for
# libzeshmem: SHMEM_TEAM_SHARED is the node, the node-local transport
# within it, libfabric tcp;ofi_rxm on zshn between nodes). Control traffic
# (oob, btl) is confined to zshn; nothing can leave the namespaces.
#
# Each CASE runs as one job of NODES * PPN PEs of SHMEM_PE (consecutive
# ranks per node); every PE must print "PE <n>: CASE ok" (nodekill and
# nodekill_wait: the
# last node's PEs die mid-job; every other PE must print "zeshmem: PE
# <s>: <call>: PE <n> ended|unreachable" naming one of them, mpirun must
# end non-zero before the timeout and leave no process behind). The namespaces
# and every process in them are removed at the end, also on failure or
# interruption (trap). NETNS_JOB_SHOW=1: print each job's output and
# check only its exit status (for zeshmem-ofi-bench). NETNS_JOB_TIMEOUT:
# each job's deadline in seconds (240 unless set). NETNS_JOB_LEAKS=1:
# a job that passed must also have left no process in the namespaces and
# no /dev/shm entry of libzeshmem or zemem (zeshmem_<pid>_*, zemem*) of a
# process that is gone. Every caller: a namespace still listed after the
# cleanup fails the run. Exit 77 (skip) with
# the reason when not root, `ip` or mpirun is missing, or the kernel
# refuses namespaces.
set -u

nodes=$1; ppn=$2; pe=$3; shift 3
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root (network namespaces need CAP_SYS_ADMIN)"
command -v ip >/dev/null 2>&1 || skip "no ip (iproute2)"
command -v unshare >/dev/null 2>&1 || skip "no unshare (util-linux)"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (openmpi-bin)"
[ -x "$pe" ] || { echo "no $pe"; exit 1; }

# What a run killed with SIGKILL (no trap runs) left behind: namespaces
# zsh-<pid>-* of a pid that is gone, with no process left in them.
for ns in $(ip netns list 2>/dev/null | sed -n 's/^\(zsh-[0-9]*-[a-z0-9]*\).*/\1/p'); do
	owner=${ns#zsh-}; owner=${owner%%-*}
	[ -d "/proc/$owner" ] && continue
	[ -n "$(ip netns pids "$ns" 2>/dev/null)" ] && continue
	ip netns del "$ns" 2>/dev/null &&
		echo "netns_job: removed $ns, left by a run of pid $owner that is gone"
done

tag="zsh-$$"
tmp=$(mktemp -d "/tmp/$tag.XXXXXX") || exit 1
created=""

cleanup() {
	trap - EXIT INT TERM HUP
	for ns in $created; do
		# every process still in the namespace, then the namespace
		# (deleting it removes its veth and so the peer end too)
		for i in 1 2 3 4 5; do
			pids=$(ip netns pids "$ns" 2>/dev/null)
			[ -z "$pids" ] && break
			kill -9 $pids 2>/dev/null
			sleep 0.2
		done
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkns() {
	ip netns add "$1" 2>"$tmp/err" || {
		cat "$tmp/err"
		skip "ip netns add refused"
	}
	created="$created $1"
	ip -n "$1" link set lo up
}

sw="$tag-sw"
mkns "$sw"
ip -n "$sw" link add br0 type bridge || skip "no bridge support"
ip -n "$sw" link set br0 up
hostfile="$tmp/hosts"
: >"$hostfile"
agentmap="$tmp/map"
: >"$agentmap"
i=0
while [ "$i" -lt "$nodes" ]; do
	ns="$tag-$i"
	addr="10.211.77.$((i + 1))"
	mkns "$ns"
	ip link add "zshv$$x$i" netns "$ns" type veth peer name "p$i" \
		netns "$sw" || skip "no veth support"
	ip -n "$ns" link set "zshv$$x$i" name zshn
	ip -n "$ns" addr add "$addr/24" dev zshn
	ip -n "$ns" link set zshn up
	ip -n "$sw" link set "p$i" master br0
	ip -n "$sw" link set "p$i" up
	echo "$addr slots=$ppn" >>"$hostfile"
	echo "$addr $ns zshnode$i" >>"$agentmap"
	i=$((i + 1))
done

# The rsh agent: mpirun calls it as `agent [options] HOST COMMAND...`
# (the command is one string for a remote shell, as with ssh).
agent="$tmp/agent"
cat >"$agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case "\$1" in -*) shift ;; *) break ;; esac
done
host=\$1; shift
line=\$(grep "^\$host " "$agentmap")
[ -n "\$line" ] || { echo "agent: unknown host \$host" >&2; exit 1; }
ns=\$(echo "\$line" | cut -d' ' -f2)
name=\$(echo "\$line" | cut -d' ' -f3)
cmd="$tmp/cmd.\$\$"
printf '%s\n' "\$*" >"\$cmd"
exec ip netns exec "\$ns" unshare --uts /bin/sh -c "hostname \$name && exec /bin/sh \$cmd"
EOF
chmod +x "$agent"

np=$((nodes * ppn))
xs=""
# (PY, PYTHONPATH, PYTHONDONTWRITEBYTECODE, LD_PRELOAD: a Python PE
# program, tests/python/wg_netns_pe.sh, with the sanitizer runtime
# preloaded in a sanitizer build)
for v in LSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS ZE_ENABLE_ALT_DRIVERS \
    PY PYTHONPATH PYTHONDONTWRITEBYTECODE LD_PRELOAD; do
	eval "[ -n \"\${$v:-}\" ]" && xs="$xs -x $v"
done
# a job's deadline (NETNS_JOB_TIMEOUT seconds, 240 unless set)
jt=${NETNS_JOB_TIMEOUT:-240}
# libzeshmem's and zemem's /dev/shm entries
shm_list() { ls /dev/shm 2>/dev/null | grep -E '^(zeshmem_|zemem)' | sort; }
# those made since shm.before whose process (the pid in the name) is
# gone: left by the job (other jobs' entries belong to live processes)
shm_left() {
	shm_list | grep -vxF -f "$tmp/shm.before" | while read -r f; do
		p=$(echo "$f" | sed -nE 's/^[^0-9]*([0-9]+).*/\1/p')
		[ -n "$p" ] && kill -0 "$p" 2>/dev/null && continue
		echo "$f"
	done
}
# the processes still in the namespaces (a moment for mpirun's daemons
# to end after it)
ns_left() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		l=""
		for ns in $created; do
			l="$l $(ip netns pids "$ns" 2>/dev/null)"
		done
		[ -z "$(echo $l)" ] && return
		sleep 0.5
	done
	echo $l
}
fail=0
for c in "$@"; do
	out="$tmp/out.$c"
	t0=$(date +%s)
	shm_list >"$tmp/shm.before"
	# bounded: timeout ends a stuck job (the trap cleans the rest)
	timeout -k 5 "$jt" ip netns exec "$tag-0" unshare --uts /bin/sh -c \
		"hostname zshnode0 && exec mpirun --allow-run-as-root \
		--bind-to none --oversubscribe -np $np --hostfile $hostfile \
		--mca plm_rsh_agent $agent --mca plm_rsh_no_tree_spawn 1 \
		--mca oob_tcp_if_include zshn --mca btl_tcp_if_include zshn \
		--mca btl self,tcp --mca osc ^rdma \
		-x OMPI_MCA_osc=^rdma -x FI_TCP_IFACE=zshn \
		-x ZESHMEM_PROVIDER='tcp;ofi_rxm' -x ZESHMEM_SYMMETRIC_SIZE=8M \
		-x ZESHMEM_CHECK_SYMMETRY=1 -x ZESHMEM_TIMEOUT=60 \
		-x SHMEM_PE_NODE_PES=$ppn -x ZEMEM_LOG_LEVEL=warn \
		$xs $pe $c" >"$out" 2>&1
	rc=$?
	if [ "$c" = nodekill ] || [ "$c" = nodekill_wait ]; then
		# a node's PEs killed: mpirun must end non-zero (not by the
		# timeout) and leave no process in any namespace
		el=$(($(date +%s) - t0))
		left=$(ns_left)
		# every survivor said which PE it lost, before it was ended:
		# "zeshmem: PE <s>: <call>: PE <n> ended|unreachable", n on
		# the killed node
		first_dead=$(((np - 1) / ppn * ppn))
		quiet=""
		s=0
		while [ "$s" -lt "$first_dead" ]; do
			grep -E "^zeshmem: PE $s: [a-z_0-9]+: PE [0-9]+ (ended|unreachable)" \
				"$out" | sed -E 's/.*: PE ([0-9]+) (ended|unreachable).*/\1/' |
				awk -v f="$first_dead" '$1 >= f { ok = 1 } END { exit !ok }' ||
				quiet="$quiet $s"
			s=$((s + 1))
		done
		if [ "$rc" = 0 ] || [ "$rc" = 124 ] || [ "$el" -ge "$jt" ] ||
		   [ -n "$left" ] || [ -n "$quiet" ]; then
			echo "FAIL: $c: rc $rc, left: $left," \
			     "survivors without their line:$quiet"
			cat "$out"
			fail=1
		else
			echo "ok: $c on $nodes nodes x $ppn PEs (rc $rc, ${el} s)"
		fi
		continue
	fi
	if [ -n "${NETNS_JOB_SHOW:-}" ]; then
		# a benchmark run by hand: show its output, check only rc
		cat "$out"
		[ "$rc" = 0 ] || fail=1
		continue
	fi
	# counted as occurrences, not lines: mpirun's output forwarding may
	# join two PEs' lines ("PE 1: c okPE 0: c ok")
	n=$(grep -o ": $c ok" "$out" | wc -l)
	if [ "$rc" != 0 ] || [ "$n" != "$np" ]; then
		echo "FAIL: $c on $nodes nodes x $ppn PEs: rc $rc, $n of $np ok"
		cat "$out"
		fail=1
		continue
	fi
	if [ -n "${NETNS_JOB_LEAKS:-}" ]; then
		lp=$(ns_left)
		ls=$(shm_left)
		if [ -n "$lp" ] || [ -n "$ls" ]; then
			echo "FAIL: $c on $nodes nodes x $ppn PEs left" \
			     "processes: $lp; /dev/shm entries:" $ls
			cat "$out"
			fail=1
			continue
		fi
	fi
	echo "ok: $c on $nodes nodes x $ppn PEs"
done
# the namespaces go now (the trap's cleanup); none may be left
cleanup
for ns in $created; do
	if ip netns list | grep -qE "^$ns( |\$)"; then
		echo "FAIL: network namespace $ns left"
		fail=1
	fi
done
exit $fail

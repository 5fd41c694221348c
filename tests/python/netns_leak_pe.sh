#!/bin/sh
# SPDX-License-Identifier: MIT
# A PE program for netns_leaks.sh: `netns_leak_pe.sh clean|shm.TAG|
# proc.TAG` prints its ok line; shm.TAG leaves
# /dev/shm/zemem-netnsleak.<pid>.TAG, proc.TAG a process in its
# namespace (a detached sh whose command line has netnsleak.TAG).
case "$1" in
shm.*) : >"/dev/shm/zemem-netnsleak.$$.${1#shm.}" ;;
proc.*) setsid sh -c "sleep 60; true netnsleak.${1#proc.}" \
	</dev/null >/dev/null 2>&1 & ;;
esac
echo "PE ${OMPI_COMM_WORLD_RANK:-?}: $1 ok"

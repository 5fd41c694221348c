#!/bin/sh
# SPDX-License-Identifier: MIT
# One rank of a pylibwholegraph job on network-namespace nodes: the PE
# program of tests/shmem/netns_job.sh (py-wg-netns-* in meson.build),
# which runs `wg_netns_pe.sh CASES` under mpirun in every node and
# passes PY, PYTHONPATH, ZE_ENABLE_ALT_DRIVERS (and LD_PRELOAD in a
# sanitizer build) on. CASES: CASE[:MEMORY_TYPE[:LOCATION]] joined by
# "+", run by wg_cases.py in one job.
exec "${PY:-python3}" "$(dirname "$0")/wg_cases.py" "$@"

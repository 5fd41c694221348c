#!/bin/sh
# SPDX-License-Identifier: MIT
# The bad ends of symmetric static data (issue 17):
#   static_check.sh ZESHRUN STATIC_PE STATIC_PE_BIG
# 1. a put into a shared library's global ends the PE with libzeshmem's
#    one line naming the address, "not in the symmetric heap or the
#    program's static data", exit 1 (the put is never accepted);
# 2. a job whose PEs run programs with different static data (PE 1 runs
#    STATIC_PE_BIG: one more .bss array) fails init on every PE, and
#    each PE names the other's static data before any PE leaves (the
#    launcher ends the job at the first exit); nothing runs past init.
set -eu
zeshrun=$1
pe=$2
big=$3
t=$(mktemp -d /tmp/static-check-XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; cat "$t/out" 2>/dev/null; exit 1; }

# 1.
st=0
timeout 120 "$zeshrun" -n 2 -- "$pe" shlib >"$t/out" 2>&1 || st=$?
[ "$st" -ne 0 ] || fail "shlib: exit 0"
grep -q "zeshmem: PE 0: shmem_int_put: dest 0x[0-9a-f]* is not a symmetric address (pe 1): not in the symmetric heap or the program's static data" "$t/out" ||
	fail "shlib: no error line"
! grep -q "was accepted" "$t/out" || fail "shlib: the put was accepted"
echo "ok: a shared library's global refused"

# 2.
cat >"$t/two.sh" <<EOS
#!/bin/sh
if [ "\$ZESHMEM_RANK" = 1 ]; then exec "$big" ops; fi
exec "$pe" ops
EOS
chmod +x "$t/two.sh"
st=0
timeout 120 "$zeshrun" -n 2 -- "$t/two.sh" >"$t/out" 2>&1 || st=$?
[ "$st" -ne 0 ] || fail "mismatch: exit 0"
grep -q "PE 1's static data is [0-9]* bytes at link address 0x[0-9a-f]*, this PE's [0-9]* at 0x[0-9a-f]*: every PE must run the same program" "$t/out" ||
	fail "mismatch: no line naming PE 1"
grep -q "PE 0's static data is [0-9]* bytes at link address 0x[0-9a-f]*, this PE's [0-9]* at 0x[0-9a-f]*: every PE must run the same program" "$t/out" ||
	fail "mismatch: no line naming PE 0"
! grep -q "ops ok" "$t/out" || fail "mismatch: a PE ran on"
echo "ok: PEs with different static data refused at init"

#!/usr/bin/env bash
# libtaulop_output.sh TLOP ROOT — tlop against numbers libtaulop itself printed, the worked
# examples of LIBTAULOP.md §4.4–4.5 (../shared/design), over the measured tables of
# ../shared/params that libtaulop read: where the semantics agree, tlop gives the library's
# value within its float32 table parsing (1e-6 relative; 5e-3 where the document gives
# three digits); where they do not (a quirk of §11), tlop's own value, as docs/stdlib.md
# says. Skipped (77) without ../shared/params.
set -u
tlop=$1 root=$2
params=$root/../shared/params
[ -d "$params/lusitania" ] && [ -d "$params/metropolis" ] || { echo "skipped: no $params"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cat > "$work/lib.tlop" <<TLOP
import "mpich/bcast";
platform lusitania {
  channel shm = table "$params/lusitania/SHM.txt" { T(m, τ) = o(m) + 2 * L(m, τ); }
  channel net = table "$params/lusitania/IB.txt" { T(m, τ) = o(m) + L(m, τ); }
}
platform metropolis {
  channel shm = table "$params/metropolis/SHM.txt" { T(m, τ) = o(m) + 2 * L(m, τ); }
  channel net = table "$params/metropolis/TCP.txt" {
    T(m, τ) = o(m) + 2 * L[shm](m, τ) + L(m, τ);
  }
}
# two ranks of node 0 send to two ranks of node 1; to one rank each of nodes 1 and 2
algorithm to_one_node(m: size) = messages on sequential(2) { send 0 -> 2 : m; send 1 -> 3 : m; };
algorithm to_two_nodes(m: size) = messages on nodes(0, 0, 1, 2) { send 0 -> 2 : m; send 1 -> 3 : m; };
TLOP
passed=0 failed=0
# agrees PLATFORM EXPR EXPECTED REL WHAT: tlop evaluates EXPR within REL of EXPECTED
agrees() {
  local got
  got=$("$tlop" eval "$work/lib.tlop" "$2" --platform "$1" --format plain 2>&1) ||
    { echo "FAIL $5: $got"; failed=$((failed + 1)); return; }
  if awk -v g="$got" -v e="$3" -v r="$4" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= r * e) }'; then
    echo "ok: $5: $got s (expected $3 s)"; passed=$((passed + 1))
  else
    echo "FAIL $5: tlop $got s, expected $3 s"; failed=$((failed + 1))
  fi
}
# §4.5: the transmissions through shared memory, and MPICH's binomial broadcast on one node
# (three stages of 1, 2, 4 concurrent sends), in closed form and as messages on one node
agrees lusitania 'T[shm](1024 B, 1)' 1.0717800194015581e-06 1e-6 "lusitania T_SHM(1024, 1)"
agrees lusitania 'T[shm](1024 B, 2)' 1.5093339982286125e-06 1e-6 "lusitania T_SHM(1024, 2)"
agrees lusitania 'T[shm](1024 B, 4)' 1.5459220605862356e-06 1e-6 "lusitania T_SHM(1024, 4)"
agrees lusitania 'bcast_binomial_mpich(1024 B, 8)' 4.1270360782164062e-06 1e-6 \
  "bcast_binomial_mpich, P = 8, one node, m = 1 KiB"
agrees lusitania 'bcast_binomial_mpich(1024 B, 8, 1, nodes(0, 0, 0, 0, 0, 0, 0, 0))' \
  4.1270360782164062e-06 1e-6 "the same as messages on an explicit one-node mapping"
# §4.4: two messages to the same node over TCP share the channel: T(1024, τ = 2)
agrees metropolis 'to_one_node(1024 B)' 9.96e-5 5e-3 "metropolis, two TCP messages to one node"
# §4.4 quirk (LIBTAULOP.md §11: residue rounds): to two nodes the library charges
# T(1024) + T(1023) = 2.078e-4 s on TCP; tlop, as docs/stdlib.md says, one T(1024, 1) —
# which is what the library gives on IB ("a single T(1024)")
tcp1=$("$tlop" eval "$work/lib.tlop" 'T[net](1024 B, 1)' --platform metropolis --format plain)
agrees metropolis 'to_two_nodes(1024 B)' "$tcp1" 1e-12 "metropolis, TCP messages to two nodes (tlop's departure)"
ib1=$("$tlop" eval "$work/lib.tlop" 'T[net](1024 B, 1)' --platform lusitania --format plain)
agrees lusitania 'to_two_nodes(1024 B)' "$ib1" 1e-12 "lusitania, IB messages to two nodes: a single T(1024)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

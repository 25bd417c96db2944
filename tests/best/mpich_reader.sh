#!/usr/bin/env bash
# mpich_reader.sh TLOP ROOT — MPICH itself loads the CSEL JSON file `tlop best` writes
# (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) and takes the algorithm tlop chose, to the
# byte. As in ompi_reader.sh, tests/best/reader.tlop puts a crossover from the binomial tree
# to scatter-allgather at P = 2; MPICH prints nothing about its choice, so the traffic
# shows it: the 2 ranks talk over UCX's TCP transport (MPIR_CVAR_NOLOCAL=1,
# UCX_TLS=tcp,self) and strace counts the bytes rank 1 sends — its half of the message
# under scatter-allgather, a few hundred bytes of handshakes under the binomial tree.
# Without the file MPICH's own choice for 2 processes is the binomial tree. Skipped (77)
# without Debian's MPICH beside Open MPI (mpicc.mpich, mpiexec.mpich), a strace allowed to
# trace, or 2 cores.
set -uo pipefail
tlop=$1 root=$2
here=$root/tests/best

skip() { echo "skipped: $*"; exit 77; }
for t in mpicc.mpich mpiexec.mpich strace; do command -v $t >/dev/null || skip "no $t"; done
[ "$(nproc)" -ge 2 ] || skip "needs 2 cores (never oversubscribed)"
strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not allowed)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mpicc.mpich -O2 -o "$work/coll_once" "$here/coll_once.c" || fail "cannot build coll_once.c"
"$tlop" best "$here/reader.tlop" --collective bcast --grid m=1KiB..1MiB:*2 --grid P=2 --refine \
  --emit mpich-json -o "$work/bcast.json" || fail "tlop best"
cat "$work/bcast.json"
# bcast is the first collective of MPICH's tree, so the first bound is tlop's at P = 2
crossover=$(sed -n 's/.*"avg_msg_size<=\([0-9]*\)".*/\1/p' "$work/bcast.json" | head -1)
[ -n "$crossover" ] || fail "the file has no avg_msg_size bound at P = 2"
crossover=$((crossover + 1))

# run SIZE JSON|none: the bytes rank 1 sends in one broadcast of SIZE bytes, in $sent (not
# echoed: a fail inside $(…) would end the subshell only). mpiexec reads /dev/null: hydra
# forwards its stdin to rank 0 and can wait on an open one (as in mpich_obey.sh).
run() {
  local env=(MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self)
  [ "$2" = none ] || env+=(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$2")
  env "${env[@]}" timeout 60 strace -f -qq -e trace=sendto,sendmsg,writev,write -o "$work/trace" \
    mpiexec.mpich -n 2 "$work/coll_once" "$1" < /dev/null > "$work/out" 2>&1 || { cat "$work/out"; fail "mpiexec with $2"; }
  local pid
  pid=$(awk '$1 == "rank" && $2 == 1 { print $4 }' "$work/out")
  [ -n "$pid" ] || { cat "$work/out"; fail "rank 1 did not report"; }
  sent=$(grep "^$pid " "$work/trace" | grep -E "sendmsg|sendto|writev" |
    awk '{ if (match($0, /= [0-9]+$/)) s += substr($0, RSTART + 2) } END { print s + 0 }')
}

handshakes=4096 # rank 1's bytes besides the message: connection set-up, well under a half
run $((crossover - 1)) "$work/bcast.json"; got=$sent
[ "$got" -lt $handshakes ] || fail "at $((crossover - 1)) B the file says binomial, but rank 1 sent $got B"
echo "ok: $((crossover - 1)) B under the file: binomial (rank 1 sent $got B of handshakes)"
run $crossover "$work/bcast.json"; got=$sent
[ "$got" -ge $((crossover / 2)) ] ||
  fail "at $crossover B the file says scatter-allgather (rank 1 sends its half), but rank 1 sent $got B"
echo "ok: $crossover B under the file: scatter-allgather (rank 1 sent $got B, its half and handshakes)"
run $crossover none; got=$sent
[ "$got" -lt $handshakes ] || fail "without the file MPICH's binomial tree was expected, but rank 1 sent $got B"
echo "ok: $crossover B without the file: rank 1 sent $got B (the file made the difference)"

#!/usr/bin/env bash
# ompi_reader.sh TLOP ROOT — Open MPI itself loads the rules file `tlop best` writes and
# takes the algorithm tlop chose. tests/best/reader.tlop makes the binomial tree win below
# a crossover near 94 KiB and scatter-allgather above it at P = 2; the file tlop writes is
# handed to `mpirun -n 2 --mca coll_tuned_dynamic_rules_filename`. Open MPI 4.1's tuned
# component prints nothing about its rules outside debug builds, so the algorithm is seen
# from its traffic, which the pml monitoring component counts: the binomial tree at P = 2
# is one message from rank 0, scatter-allgather makes rank 1 send its half back. Without
# the file (the fixed decision) rank 1 sends nothing at that size. The tuned component's
# selection for MPI_COMM_WORLD is shown by coll_base_verbose. Then allreduce the same way:
# tests/best/reader_allreduce.tlop makes recursive doubling win below a crossover near
# 90 KiB and the ring above it at P = 2; recursive doubling is one message from rank 1,
# the ring two (a reduce-scatter step and an allgather step of half the vector each).
# Skipped (77)
# without mpicc/mpirun, with another MPI than Open MPI, or on fewer than 2 cores.
set -uo pipefail
tlop=$1 root=$2
here=$root/tests/best

skip() { echo "skipped: $*"; exit 77; }
command -v mpicc >/dev/null && command -v mpirun >/dev/null || skip "no mpicc/mpirun"
mpirun --version 2>&1 | grep -q "Open MPI" || skip "not Open MPI: $(mpirun --version 2>&1 | head -1)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 cores (never oversubscribed)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=0
fail() { echo "FAIL: $*"; exit 1; }

mpicc -O2 -o "$work/coll_once" "$here/coll_once.c" || fail "cannot build coll_once.c"
"$tlop" best "$here/reader.tlop" --collective bcast --grid m=1KiB..1MiB:*2 --grid P=2 --refine \
  --emit ompi-rules-v1 -o "$work/bcast.rules" || fail "tlop best"
cat "$work/bcast.rules"
crossover=$(awk '$2 == 8 { print $1 }' "$work/bcast.rules")
[ -n "$crossover" ] || fail "the file has no scatter_allgather (8) rule at P = 2"

# run SIZE RULES|none [allreduce]: "BYTES MESSAGES" rank 1 sends to rank 0 in one
# broadcast (or allreduce) of SIZE bytes
run() {
  local rules=()
  [ "$2" = none ] || rules=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$2")
  rm -f "$work"/mon*
  mpirun -n 2 --bind-to core --mca btl self,vader "${rules[@]}" --mca coll_base_verbose 10 \
    --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
    --mca pml_monitoring_filename "$work/mon" "$work/coll_once" "$1" "${3-bcast}" > "$work/out" 2>&1 ||
    { cat "$work/out"; fail "mpirun with $2"; }
  grep -q "coll:base:comm_select: selecting *tuned, priority *[0-9]*, Enabled" "$work/out" ||
    { cat "$work/out"; fail "coll_base_verbose does not show the tuned component selected"; }
  # monitoring lines "I <from> <to> <bytes> bytes <n> msgs sent …": internal traffic
  cat "$work"/mon* | awk '$1 == "I" && $2 == 1 && $3 == 0 { s += $4; n += $6 } END { print s + 0, n + 0 }'
}

# One byte either side of the crossover: Open MPI's message size for bcast is the bytes of
# the message (count × type size), tlop's m; the rule starting at the crossover must apply
# from exactly there.
small=$((crossover - 1)) large=$crossover
read -r got _ < <(run $small "$work/bcast.rules")
[ "$got" = 0 ] || fail "at $small B the rules say binomial (rank 1 sends nothing), but rank 1 sent $got B"
echo "ok: $small B under the file: binomial (rank 1 sent nothing)"
read -r got _ < <(run $large "$work/bcast.rules")
[ "$got" = $((large - large / 2)) ] || [ "$got" = $((large / 2)) ] ||
  fail "at $large B the rules say scatter_allgather (rank 1 sends its half, $((large / 2)) B), but rank 1 sent $got B"
echo "ok: $large B under the file: scatter_allgather (rank 1 sent its half back, $got B)"
read -r got _ < <(run $large none)
[ "$got" = 0 ] || fail "without the file Open MPI's fixed decision was expected to send nothing from rank 1, not $got B"
echo "ok: $large B without the file: rank 1 sent nothing (the file made the difference)"
# a file Open MPI would misread is refused by tlop lint before it gets there
sed 's/^0 6 0 0/64 6 0 0/' "$work/bcast.rules" > "$work/broken.rules"
lint=$("$tlop" lint --format ompi-rules-v1 "$work/broken.rules" 2>&1)
grep -q "must start at message size 0" <<< "$lint" || fail "lint passed a file whose first rule does not start at 0: $lint"
echo "ok: tlop lint refuses the broken file"

# allreduce: Open MPI's message size is the vector's bytes (count × type size), tlop's m
"$tlop" best "$here/reader_allreduce.tlop" --collective allreduce allreduce_recursive_doubling \
  allreduce_ring --grid m=1KiB..1MiB:*2 --grid P=2 --refine --emit ompi-rules-v1 \
  -o "$work/allreduce.rules" || fail "tlop best (allreduce)"
cat "$work/allreduce.rules"
crossover=$(awk '$2 == 4 { print $1 }' "$work/allreduce.rules")
[ -n "$crossover" ] || fail "the file has no ring (4) rule at P = 2"
small=$((crossover - 1)) large=$crossover
read -r got msgs < <(run $small "$work/allreduce.rules" allreduce)
[ "$msgs" = 1 ] && [ "$got" = $small ] ||
  fail "at $small B the rules say recursive doubling (rank 1 sends its vector once), but rank 1 sent $got B in $msgs messages"
echo "ok: $small B under the file: recursive doubling (rank 1 sent $got B in 1 message)"
read -r got msgs < <(run $large "$work/allreduce.rules" allreduce)
[ "$msgs" = 2 ] && [ "$got" = $large ] ||
  fail "at $large B the rules say ring (rank 1 sends two halves), but rank 1 sent $got B in $msgs messages"
echo "ok: $large B under the file: ring (rank 1 sent $got B in 2 messages)"

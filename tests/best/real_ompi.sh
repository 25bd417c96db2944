#!/usr/bin/env bash
# real_ompi.sh TLOP ROOT run|obey — a real program (all_colls.c: barrier, bcast, allreduce,
# reduce, reduce_scatter, allgather, gather, scatter, alltoall, alltoallv at several sizes,
# every byte checked) under the files `tlop best` writes for Open MPI (every one of these
# collectives tuned), with Open MPI 4.1 itself.
#   run:  at P = 2, 3, 4 under each of them (ompi-rules-v1, which 4.1 reads; ompi-rules
#         and ompi-json, which it does not) the program runs to the end with right results.
#   obey: at P = 2, 3, 4, one byte either side of every crossover of bcast, allreduce,
#         allgather and reduce_scatter in the ompi-rules-v1 file (for barrier and
#         alltoallv, which Open MPI decides by P alone, at one size), the coll base
#         function each call reaches (logged by the LD_PRELOAD shim ompi_shim.c) is the
#         algorithm the file names;
#         a file whose first rule is not at 0 is refused by tlop lint, and Open MPI
#         ignores it silently: every call reaches what it reaches with no file at all.
# Skipped (77) without mpicc/mpirun, with another MPI than Open MPI, or off x86-64.
set -uo pipefail
tlop=$1 root=$2 what=$3
here=$root/tests/best

skip() { echo "skipped: $*"; exit 77; }
command -v mpicc >/dev/null && command -v mpirun >/dev/null || skip "no mpicc/mpirun"
mpirun --version 2>&1 | grep -q "Open MPI" || skip "not Open MPI: $(mpirun --version 2>&1 | head -1)"
[ "$(uname -m)" = x86_64 ] || skip "the shim's stubs are x86-64 assembly"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*"; exit 1; }

mpicc -O2 -o "$work/all_colls" "$here/all_colls.c" || fail "cannot build all_colls.c"
colls=bcast,allreduce,allgather,reduce,alltoall,gather,scatter,reduce_scatter,barrier,alltoallv
for f in ompi-rules-v1 ompi-rules ompi-json; do
  "$tlop" best "$here/real.tlop" --collective $colls --grid m=1..1MiB:*4 --grid P=2,3,4 --refine \
    --emit $f -o "$work/$f" > "$work/best.out" 2>&1 || { cat "$work/best.out"; fail "tlop best --emit $f"; }
done

# mpi P FILE|none ARGS…: all_colls on P processes under the file (none: Open MPI's own
# decisions); its output in $work/out
mpi() {
  local P=$1 file=$2 rules=()
  shift 2
  [ "$file" = none ] || rules=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$file")
  timeout 60 mpirun -n "$P" --oversubscribe --mca btl self,vader "${rules[@]}" "$@" > "$work/out" 2>&1
}

if [ "$what" = run ]; then
  for P in 2 3 4; do
    for f in ompi-rules-v1 ompi-rules ompi-json; do
      mpi $P "$work/$f" "$work/all_colls" || { cat "$work/out"; fail "all_colls at P = $P under $f"; }
      grep -q "^all_colls: $P processes, 50 calls, 0 wrong bytes" "$work/out" ||
        { cat "$work/out"; fail "all_colls at P = $P under $f: wrong results"; }
      echo "ok: P = $P under $f: 50 calls, every byte right"
    done
  done
  exit 0
fi

cc -O2 -shared -fPIC -o "$work/shim.so" "$here/ompi_shim.c" -ldl || fail "cannot build ompi_shim.c"
# The rules as "COLLID P SIZE ALG" lines: the file's numbers in order, comments dropped.
awk '{ sub(/#.*/, ""); for (i = 1; i <= NF; i++) print $i }' "$work/ompi-rules-v1" |
  awk 'NR == 1 { ncoll = $1; state = "coll"; next }
       state == "coll" { coll = $1; state = "ncomm"; next }
       state == "ncomm" { ncomm = $1; state = "comm"; next }
       state == "comm" { comm = $1; state = "nmsg"; next }
       state == "nmsg" { nmsg = $1; k = 0; state = "rule"; f = 0; next }
       state == "rule" { r[f++] = $1; if (f == 4) { print coll, comm, r[0], r[1]; f = 0;
                           if (++k == nmsg) state = (--ncomm > 0) ? "comm" : "coll" } }' > "$work/rules"

# Open MPI 4.1's coll base function of each coll_tuned id (ompi_coll_tuned_*_intra_do_this)
fn() {
  local bcast=(basic_linear chain pipeline split_bintree bintree binomial knomial
    scatter_allgather scatter_allgather_ring)
  local allreduce=(basic_linear nonoverlapping recursivedoubling ring ring_segmented redscat_allgather)
  local allgather=(basic_linear bruck recursivedoubling ring neighborexchange two_procs)
  local reduce_scatter=(nonoverlapping basic_recursivehalving ring butterfly)
  local barrier=(basic_linear doublering recursivedoubling bruck two_procs tree)
  local alltoallv=(basic_linear pairwise)
  local -n names=$1
  echo "ompi_coll_base_$1_intra_${names[$2 - 1]}"
}

# Each crossover C of the file at P: tlop's m one byte below and at it (Open MPI measures
# bcast and allreduce by the message, allgather and reduce_scatter by all P blocks:
# C = m·P), and the algorithm the file names for each; barrier and alltoallv (one rule at
# size 0 per P) at 100 B.
declare -A id=([bcast]=7 [allreduce]=2 [allgather]=0 [reduce_scatter]=12 [barrier]=6 [alltoallv]=4)
crossovers=0
for P in 2 3 4; do
  args=() want=()
  for coll in barrier alltoallv; do
    read -r _ alg < <(awk -v c=${id[$coll]} -v p=$P '$1 == c && $2 == p { print $3, $4 }' "$work/rules")
    [ -n "${alg-}" ] || fail "no $coll rule at P = $P"
    args+=("$coll:100") want+=("$(fn $coll "$alg")")
  done
  for coll in bcast allreduce allgather reduce_scatter; do
    mapfile -t rules < <(awk -v c=${id[$coll]} -v p=$P '$1 == c && $2 == p { print $3, $4 }' "$work/rules")
    for ((k = 1; k < ${#rules[@]}; k++)); do
      read -r C alg <<< "${rules[k]}"
      read -r _ before <<< "${rules[k - 1]}"
      case $coll in allgather | reduce_scatter) m=$((C / P)) ;; *) m=$C ;; esac
      args+=("$coll:$((m - 1))" "$coll:$m")
      want+=("$(fn $coll "$before")" "$(fn $coll "$alg")")
      crossovers=$((crossovers + 1))
    done
  done
  rm -f "$work"/log.*
  TLOP_SHIM_LOG=$work/log mpi $P "$work/ompi-rules-v1" -x LD_PRELOAD="$work/shim.so" -x TLOP_SHIM_LOG \
    "$work/all_colls" "${args[@]}" || { cat "$work/out"; fail "all_colls at the crossovers, P = $P"; }
  grep -q " 0 wrong bytes" "$work/out" || { cat "$work/out"; fail "wrong results at P = $P"; }
  logs=("$work"/log.*)
  [ ${#logs[@]} = $P ] || fail "the shim logged ${#logs[@]} processes, not $P"
  for log in "${logs[@]}"; do
    # the first coll base function after each mark: the one coll_tuned chose
    mapfile -t got < <(awk '$1 == "mark" { if (m) print "none"; m = 1; next }
                           $1 == "call" && m { print $2; m = 0 } END { if (m) print "none" }' "$log")
    for ((i = 0; i < ${#args[@]}; i++)); do
      [ "${got[i]-}" = "${want[i]}" ] ||
        fail "P = $P, ${args[i]}: the file names ${want[i]}, Open MPI ran ${got[i]-nothing}"
    done
  done
  for ((i = 0; i < ${#args[@]}; i++)); do echo "ok: P = $P, ${args[i]}: ${want[i]}"; done
done
[ $crossovers -ge 3 ] || fail "only $crossovers crossovers in the file: the test needs some of each collective"

# A file Open MPI 4.1 drops: bcast's first rule at P = 2 moved from 0 to 64 B.
awk '!done && /^0 [0-9]+ 0 0/ && seen { sub(/^0/, "64"); done = 1 } /# bcast/ { seen = 1 } 1' \
  "$work/ompi-rules-v1" > "$work/broken.rules"
cmp -s "$work/broken.rules" "$work/ompi-rules-v1" && fail "could not break the file"
lint=$("$tlop" lint --format ompi-rules-v1 "$work/broken.rules" 2>&1) && fail "tlop lint passed the broken file"
grep -q "Open MPI ignores the whole file" <<< "$lint" || fail "tlop lint's message: $lint"
echo "ok: tlop lint refuses the broken file: $(head -1 <<< "$lint")"
mapfile -t rules < <(awk '$1 == 7 && $2 == 2 { print $3 }' "$work/rules")
args=(bcast:64 bcast:$((${rules[1]:-200000})))
for f in broken none good; do
  file=$work/broken.rules
  [ $f = none ] && file=none
  [ $f = good ] && file=$work/ompi-rules-v1
  rm -f "$work"/log.*
  TLOP_SHIM_LOG=$work/log mpi 2 "$file" -x LD_PRELOAD="$work/shim.so" -x TLOP_SHIM_LOG \
    "$work/all_colls" "${args[@]}" || { cat "$work/out"; fail "all_colls under the $f file"; }
  awk '$1 == "call" { print $2 }' "$work"/log.* | sort | uniq -c > "$work/calls.$f"
done
cmp -s "$work/calls.broken" "$work/calls.none" ||
  fail "under the broken file Open MPI ran $(cat "$work/calls.broken"), without a file $(cat "$work/calls.none")"
cmp -s "$work/calls.good" "$work/calls.none" &&
  fail "the good file makes no difference at ${args[*]}: the test proves nothing"
echo "ok: Open MPI ignores the broken file silently: the calls reach what they reach with no file"
echo "    ($(tr -s ' \n' ' ' < "$work/calls.none")), not what the file says ($(tr -s ' \n' ' ' < "$work/calls.good"))"

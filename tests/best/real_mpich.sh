#!/usr/bin/env bash
# real_mpich.sh TLOP ROOT — a real program (all_colls.c: barrier, bcast, allreduce, reduce,
# reduce_scatter, allgather, gather, scatter, alltoall, alltoallv at several sizes, every
# byte checked) under the MPICH file `tlop best` writes for bcast, allreduce, allgather,
# reduce, alltoall, gather, scatter, barrier and alltoallv together (reduce_scatter is
# MPICH's own decision, which the tree carries), with MPICH 4.0.2 itself, at P = 2, 3, 4, in
# MPICH's default shared-memory mode and with MPIR_CVAR_NOLOCAL=1 (every message through
# the network module). The file is MPICH's whole MPIR-level tree: a collective it left out would abort
# the program at its first call (which tlop lint reports). Skipped (77) without Debian's
# MPICH (mpicc.mpich, mpirun.mpich).
. "$2/tests/best/mpich_tree.sh" "$1" "$2" all_colls bcast,allreduce,allgather,reduce,alltoall,gather,scatter,barrier,alltoallv

for P in 2 3 4; do
  for mode in shm nolocal; do
    env=(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/tree.json")
    [ $mode = nolocal ] && env+=(MPIR_CVAR_NOLOCAL=1)
    env "${env[@]}" timeout 60 mpirun.mpich -n $P "$work/all_colls" < /dev/null > "$work/out" 2>&1 ||
      { cat "$work/out"; fail "all_colls at P = $P ($mode) under the file"; }
    grep -q "^all_colls: $P processes, 50 calls, 0 wrong bytes" "$work/out" ||
      { cat "$work/out"; fail "all_colls at P = $P ($mode): wrong results"; }
    echo "ok: P = $P, $mode: 50 calls, every byte right"
  done
done

# The same program under a file of bcast alone (what tlop wrote before MPICH's defaults
# filled the rest) aborts at its first barrier, and tlop lint says why.
awk '/"collective=bcast"/ { keep = 1 } keep { print } keep && /^  }/ { exit }' "$work/tree.json" |
  sed '$ s/},$/}/' | { echo "{"; cat; echo "}"; } > "$work/bcast_only.json"
lint=$("$tlop" lint --format mpich-json "$work/bcast_only.json" 2>&1) && fail "tlop lint passed the bcast-only file"
grep -q "no allreduce, allgather" <<< "$lint" || fail "tlop lint's message: $lint"
MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/bcast_only.json" timeout 60 \
  mpirun.mpich -n 2 "$work/all_colls" < /dev/null > "$work/out" 2>&1 && fail "MPICH ran the program under a bcast-only tree"
echo "ok: under a bcast-only tree MPICH aborts ($(grep -m1 -o "Assertion failed.*" "$work/out")), and tlop lint says so"

# aborts_under COLL INTRA INTER P LINT_SAYS MPICH_SAYS WHAT: the tree with COLL's block
# replaced by INTRA for every intra call (INTER for inter calls) is refused by tlop lint,
# which says LINT_SAYS, and aborts the program at P processes with MPICH_SAYS in its output.
aborts_under() {
  local coll=$1 intra=$2 inter=$3 P=$4 lint_says=$5 mpich_says=$6 what=$7 lint
  awk -v coll="$coll" -v intra="$intra" -v inter="$inter" '
    $0 ~ "^  \"collective=" coll "\"" { skip = 1
      printf "  \"collective=%s\": {\"comm_type=intra\": {\"algorithm=%s\": {}}, \"comm_type=inter\": {\"algorithm=%s\": {}}},\n", coll, intra, inter }
    !skip { print }
    skip && /^  }/ { skip = 0 }' "$work/tree.json" > "$work/$coll.any.json"
  lint=$("$tlop" lint --format mpich-json "$work/$coll.any.json" 2>&1) && fail "tlop lint passed a tree naming $what for every call"
  grep -q "$lint_says" <<< "$lint" || fail "tlop lint's message: $lint"
  MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/$coll.any.json" timeout 60 \
    mpirun.mpich -n "$P" "$work/all_colls" < /dev/null > "$work/out" 2>&1 && fail "MPICH ran $what at P = $P"
  grep -q "$mpich_says" "$work/out" || { cat "$work/out"; fail "MPICH failed otherwise than by $what's assertion"; }
  echo "ok: under a tree naming $what for every call MPICH aborts at P = $P ($(grep -m1 -o "Assertion failed.*" "$work/out")), and tlop lint says so"
}

# MPICH 4.0.2's recursive-doubling allgather asserts a power-of-two communicator size (the
# non-power-of-two branch of its code is marked experimental): a tree naming it for every
# size aborts the program at P = 3, and tlop lint says so.
aborts_under allgather MPIR_Allgather_intra_recursive_doubling MPIR_Allgather_inter_local_gather_remote_bcast 3 \
  "not a power of two" "comm_size & (comm_size - 1)" "recursive doubling's allgather"

# The barrier and alltoallv of the tree are tlop's (blocks by communicator size), with
# MPICH's smp barrier kept for communicators split by node: that algorithm asserts such a
# communicator, so a tree naming it for every call aborts the program even on one node (its
# own barrier on the node's communicator reaches it again), and tlop lint says so.
for coll in barrier alltoallv; do
  grep -A4 "^  \"collective=$coll\"" "$work/tree.json" | grep -q '"comm_size<=2"' ||
    fail "the tree's $coll is not tlop's decision"
done
aborts_under barrier MPIR_Barrier_intra_smp MPIR_Barrier_inter_bcast 2 \
  "split by node only" "MPIR_Comm_is_parent_comm" "the smp barrier"

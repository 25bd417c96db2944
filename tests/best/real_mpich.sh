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

# MPICH 4.0.2's recursive-doubling allgather asserts a power-of-two communicator size (the
# non-power-of-two branch of its code is marked experimental): a tree naming it for every
# size aborts the program at P = 3, and tlop lint says so.
awk '/^  "collective=allgather"/ { skip = 1
       print "  \"collective=allgather\": {\"comm_type=intra\": {\"algorithm=MPIR_Allgather_intra_recursive_doubling\": {}}, \"comm_type=inter\": {\"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast\": {}}}," }
     !skip { print }
     skip && /^  }/ { skip = 0 }' "$work/tree.json" > "$work/rd_any.json"
lint=$("$tlop" lint --format mpich-json "$work/rd_any.json" 2>&1) && fail "tlop lint passed a tree naming recursive doubling at any P"
grep -q "not a power of two" <<< "$lint" || fail "tlop lint's message: $lint"
MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/rd_any.json" timeout 60 \
  mpirun.mpich -n 3 "$work/all_colls" < /dev/null > "$work/out" 2>&1 && fail "MPICH ran recursive doubling's allgather at P = 3"
grep -q "comm_size & (comm_size - 1)" "$work/out" || { cat "$work/out"; fail "MPICH failed otherwise than by its power-of-two assertion"; }
echo "ok: under a tree naming recursive doubling's allgather at P = 3 MPICH aborts ($(grep -m1 -o "Assertion failed.*" "$work/out")), and tlop lint says so"

# The barrier and alltoallv of the tree are tlop's (blocks by communicator size), with
# MPICH's smp barrier kept for communicators split by node: that algorithm asserts such a
# communicator, so a tree naming it for every call aborts the program even on one node (its
# own barrier on the node's communicator reaches it again), and tlop lint says so.
for coll in barrier alltoallv; do
  grep -A4 "^  \"collective=$coll\"" "$work/tree.json" | grep -q '"comm_size<=2"' ||
    fail "the tree's $coll is not tlop's decision"
done
awk '/^  "collective=barrier"/ { skip = 1
       print "  \"collective=barrier\": {\"comm_type=intra\": {\"algorithm=MPIR_Barrier_intra_smp\": {}}, \"comm_type=inter\": {\"algorithm=MPIR_Barrier_inter_bcast\": {}}}," }
     !skip { print }
     skip && /^  }/ { skip = 0 }' "$work/tree.json" > "$work/smp_any.json"
lint=$("$tlop" lint --format mpich-json "$work/smp_any.json" 2>&1) && fail "tlop lint passed a tree naming the smp barrier for every call"
grep -q "split by node only" <<< "$lint" || fail "tlop lint's message: $lint"
MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/smp_any.json" timeout 60 \
  mpirun.mpich -n 2 "$work/all_colls" < /dev/null > "$work/out" 2>&1 && fail "MPICH ran the smp barrier on a communicator not split by node"
grep -q "MPIR_Comm_is_parent_comm" "$work/out" || { cat "$work/out"; fail "MPICH failed otherwise than by the smp barrier's assertion"; }
echo "ok: under a tree naming the smp barrier for every call MPICH aborts ($(grep -m1 -o "Assertion failed.*" "$work/out")), and tlop lint says so"

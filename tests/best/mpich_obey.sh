#!/usr/bin/env bash
# mpich_obey.sh TLOP ROOT — MPICH 4.0.2 obeys the bcast and allreduce decisions of the
# tree `tlop best` writes (tests/best/real.tlop at P = 2, 3, 4), at one byte below and at
# every crossover, shown by each rank's bytes. MPICH prints nothing about its choice and
# its MPIR_*_intra_* functions are not exported (no shim can log them), so the traffic
# shows it: with MPIR_CVAR_NOLOCAL=1 and UCX_TLS=tcp,self every message crosses a
# loopback TCP socket, and coll_once.c reads the kernel's count of the bytes it sent
# (tcp_info's tcpi_bytes_sent) around one call, on every rank and with no tracer (four
# MPICH processes under strace on two loaded cores time out). Each algorithm's bytes per
# rank follow from MPICH 4.0.2's code (see expected below); a crossover whose two
# algorithms send the same bytes on every rank — MPICH's allreduce at P = 2 and 3, its
# two scatter-allgather broadcasts at P = 4 — cannot be told apart this way, and the test
# says so instead of claiming it. Skipped (77) without Debian's MPICH (mpicc.mpich,
# mpiexec.mpich), UCX's TCP transport, or a kernel that counts a socket's bytes.
. "$2/tests/best/mpich_tree.sh" "$1" "$2" coll_once bcast,allreduce

# The crossovers of bcast and allreduce in the tree: "COLL P LAST BELOW AT", LAST the last
# byte count of algorithm BELOW, AT the algorithm from LAST + 1 (comm_size=any is P = 4).
awk '/^  "collective=/ { coll = $1; gsub(/[":]|collective=/, "", coll); below = "" }
     coll != "bcast" && coll != "allreduce" { next }
     /"comm_size<=/ { P = $1; gsub(/[^0-9]/, "", P); below = "" }
     /"comm_size=any"/ { P = 4; below = "" }
     /"avg_msg_size/ { match($0, /algorithm=[A-Za-z_]+/); alg = substr($0, RSTART + 10, RLENGTH - 10)
                       if (below != "") print coll, P, last, below, alg
                       below = alg; last = $1; gsub(/[^0-9]/, "", last) }' \
  "$work/tree.json" > "$work/crossovers"
[ "$(wc -l < "$work/crossovers")" -ge 4 ] || { cat "$work/tree.json"; fail "fewer crossovers than expected"; }

# expected ALG P M: the bytes each rank sends in one call, from MPICH 4.0.2's code (root 0;
# s = ⌈M/P⌉, the scatter's block). Binomial bcast: M to each child, r + k for the powers of
# two k below r's lowest set bit. Scatter-allgather: the binomial scatter sends a child the
# blocks of its subtree, then the ring sends every block but the next rank's, recursive
# doubling (P a power of two) every block but the other half's. Allreduce: with
# pof2 ≤ P the largest power of two and rem = P − pof2, ranks below 2·rem pair up (the
# even one sends M to the odd one and gets the result back); the pof2 others send M at
# each of log2(pof2) steps (recursive doubling) or 2·(pof2 − 1)/pof2·M (reduce-scatter
# then allgather).
expected() {
  awk -v alg="$1" -v P="$2" -v M="$3" 'BEGIN {
    s = int((M + P - 1) / P); pof2 = 1; while (pof2 * 2 <= P) pof2 *= 2; rem = P - pof2
    steps = 0; for (k = 1; k < pof2; k *= 2) steps++
    for (r = 0; r < P; r++) {
      low = P; if (r) for (low = 1; r % (2 * low) == 0; low *= 2) {}
      b = 0
      if (alg ~ /^MPIR_Bcast/)
        for (k = 1; k < low && r + k < P; k *= 2) {
          c = r + k; hi = c + k < P ? c + k : P
          if (alg ~ /binomial/) b += M
          else { x = (hi * s < M ? hi * s : M) - c * s; b += x > 0 ? x : 0 }
        }
      if (alg ~ /ring_allgather/) { nb = ((r + 1) % P) * s; x = (M - nb < s ? M - nb : s); b += M - (x > 0 ? x : 0) }
      if (alg ~ /recursive_doubling_allgather/) b += M - M / P
      if (alg ~ /^MPIR_Allreduce/) {
        if (r < 2 * rem && r % 2 == 0) b = M
        else {
          b = alg ~ /recursive_doubling/ ? steps * M : 2 * (pof2 - 1) / pof2 * M
          if (r < 2 * rem) b += M
        }
      }
      printf "%d%s", b, r < P - 1 ? " " : "\n"
    }
  }'
}

# run COLL P M: the bytes each rank sent, in rank order. The ranks report them before
# MPI_Finalize, which over UCX's TCP transport now and then hangs on a loaded machine (seen
# about once in five runs at P = 3, after every rank had reported): a run cut short there
# still counts, and the log says so.
run() {
  MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$work/tree.json" MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self \
    timeout 30 mpiexec.mpich -n "$2" "$work/coll_once" "$3" "$1" tcp < /dev/null > "$work/out" 2>&1 ||
    echo "  (mpiexec.mpich -n $2 coll_once $3 $1: exit $?, after the ranks below reported)" >&2
  grep -q "tcp unknown" "$work/out" && skip "this kernel's tcp_info has no tcpi_bytes_sent or tcpi_bytes_retrans"
  awk '$1 == "rank" && $3 == "tcp" { b[$2] = $4; n++ } END { for (r = 0; r < n; r++) printf "%s%s", b[r], r < n - 1 ? " " : "\n" }' "$work/out"
}

# A run whose bytes do not match is run again, at most three times in all: the noise of a
# loaded machine only adds bytes (one CI run saw rank 0 send a block more than MPICH's code
# does); each run is judged alone against the same pattern, and a MPICH that chose the
# other algorithm would miss it three times.
# Rank r matches an algorithm within slack: UCX's connection set-up, message headers and the
# barrier after the call (about 700 B per rank measured) and the blocks' rounding.
slack() { echo $(( 3072 + $1 / 100 )); }
# within GOT WANT M: every rank's bytes within slack of the pattern
within() { awk -v got="$1" -v want="$2" -v tol="$(slack "$3")" 'BEGIN {
  n = split(got, g); split(want, w); for (r = 1; r <= n; r++) if (g[r] - w[r] > tol || w[r] - g[r] > tol) exit 1 }'; }

checked=0
while read -r coll P last below at; do
  want_below=$(expected "$below" "$P" "$last") want_at=$(expected "$at" "$P" $((last + 1)))
  if within "$want_below" "$want_at" $((last + 1)); then
    echo "not told apart: $coll at P = $P, $below and $at send the same bytes per rank ($want_below B at $last B)"
    continue
  fi
  for m in "$last" $((last + 1)); do
    alg=$below want=$want_below
    [ "$m" = "$last" ] || alg=$at want=$want_at
    for try in 1 2 3; do
      got=$(run "$coll" "$P" "$m")
      [ "$(wc -w <<< "$got")" = "$P" ] || { cat "$work/out"; fail "$coll at P = $P, $m B: not every rank reported"; }
      within "$got" "$want" "$m" && break
      [ $try = 3 ] && fail "$coll at P = $P, $m B: the tree says $alg (bytes per rank $want), MPICH's ranks sent $got (3 runs)"
      echo "  ($coll at P = $P, $m B: bytes per rank $got, not $alg's $want; run again)" >&2
    done
    echo "ok: $coll at P = $P, $m B: $alg, bytes per rank $got (expected $want)"
    checked=$((checked + 1))
  done
done < "$work/crossovers"
[ $checked -ge 6 ] || fail "only $checked calls told apart"
echo "ok: $checked calls at crossovers obeyed, each rank's bytes those of the tree's algorithm"

/* test_jit_sweep.c — the JIT through the `tlop` command: `sweep` and `eval` print the same
 * bytes (results, warnings, diagnostics, exit status) with --engine jit as with --engine
 * interp, for every algorithm of the stdlib, a measured table crossing its rows and τ
 * columns, both τ rules, one and several threads; `auto` compiles a large grid (its object
 * lands in the cache) and interprets a small one; a bad TLOP_ENGINE is a usage error. */
#define _DEFAULT_SOURCE
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

static char dir[64];
static const char *tlop, *src;

static const char *TABLE =
    "#m 6\n#tau 4\n#m\to\tL1\tL2\tL3\tL4\n"
    "16\t1e-7\t2e-7\t3e-7\t5e-7\t6e-7\n"
    "64\t1.5e-7\t3e-7\t5e-7\t7e-7\t9e-7\n"
    "1024\t2e-7\t1e-6\t1.8e-6\t2.9e-6\t3.7e-6\n"
    "16384\t3e-7\t5e-6\t9e-6\t1.4e-5\t1.8e-5\n"
    "65536\t4e-7\t2e-5\t3.9e-5\t5.8e-5\t7.5e-5\n"
    "262144\t5e-7\t8e-5\t1.5e-4\t2.3e-4\t3.1e-4\n";

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return strdup("(missing)");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = 0;
  fclose(f);
  return s;
}

/* Runs `tlop ARGS` with an environment prefix; returns its status, output and errors. */
static int run(const char *envs, const char *args, char **out, char **err) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "cd %s && env %s XDG_CACHE_HOME=%s/cache '%s' %s >%s/out 2>%s/err",
           dir, envs, dir, tlop, args, dir, dir);
  int st = system(cmd);
  char path[128];
  snprintf(path, sizeof path, "%s/out", dir);
  *out = slurp(path);
  snprintf(path, sizeof path, "%s/err", dir);
  *err = slurp(path);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The same command with both engines: the same bytes; the exit status must be `status`. */
static void same(const char *args, const char *jit_extra, int status) {
  char a[8192], b[8192], *o1, *e1, *o2, *e2;
  snprintf(a, sizeof a, "%s --engine interp", args);
  snprintf(b, sizeof b, "%s --engine jit %s", args, jit_extra);
  int s1 = run("", a, &o1, &e1), s2 = run("", b, &o2, &e2);
  CHECK(s1 == status && s2 == status);
  CHECK(strlen(status ? e1 : o1) > 0);
  CHECK_STR(o1, o2);
  CHECK_STR(e1, e2);
  if (s1 != s2 || strcmp(o1, o2) || strcmp(e1, e2))
    fprintf(stderr, "  for: tlop %s\n", b);
  free(o1), free(e1), free(o2), free(e2);
}

static int cache_objects(void) {
  char path[128];
  snprintf(path, sizeof path, "%s/cache/tlop", dir);
  DIR *d = opendir(path);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    n += strstr(e->d_name, ".o") != NULL;
  if (d)
    closedir(d);
  return n;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_jit_sweep TLOP SOURCE_DIR\n");
    return 1;
  }
  tlop = argv[1], src = argv[2];
  snprintf(dir, sizeof dir, "/tmp/tlop_test_jit_sweepXXXXXX");
  if (!mkdtemp(dir))
    return 1;
  char path[128];
  snprintf(path, sizeof path, "%s/shm.txt", dir);
  FILE *f = fopen(path, "w");
  fputs(TABLE, f);
  fclose(f);

  /* every algorithm of mpich/bcast, below the first row, across rows, beyond the last row
   * and the last τ column; those that exist for a power of two only (another P is an
   * error) over powers of two */
  char args[4096];
  const char *algos = "bcast_binomial bcast_binomial_mpich bcast_binomial_full "
                      "bcast_binomial_seg bcast_binomial_iter scatter_binomial "
                      "allgather_ring allgather_ring_seg bcast_scatter_ring bcast";
  const char *pof2_algos = "scatter_binomial_seg allgather_rda allgather_rda_iter bcast_scatter_rda";
  for (int rule = 0; rule < 2; rule++) {
    for (int big = 0; big < 2; big++) {
      /* 910 × 14 points: enough for three threads of 4096 (MIN_POINTS_PER_THREAD) */
      snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop %s --grid m=1..64MiB:*%s "
               "--grid P=1..40:+3 --params shm.txt --tau-beyond %s", src, algos,
               big ? "1.02" : "1.7", rule ? "clamp" : "proportional");
      same(args, big ? "--no-cache -j 3" : "--no-cache -j 1", 0);
      snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop %s --grid m=1..64MiB:*%s "
               "--grid P=1..64:*2 --params shm.txt --tau-beyond %s", src, pof2_algos,
               big ? "1.02" : "1.7", rule ? "clamp" : "proportional");
      same(args, big ? "--no-cache -j 3" : "--no-cache -j 1", 0);
    }
  }
  /* on several nodes, messages stages (the segmented and iterative forms' split stages and
   * gatherv_linear's too): both mappings and a list (P ≤ 16, naming nodes 0 … 3, so M ≥ 4:
   * docs/language.md), and a point where a one-node form refuses M > 1 */
  static const char *const maps[] = {"sequential", "round_robin",
                                     "nodes(0,1,1,2,3,0,2,3,1,0,3,2,2,1,0,3)"};
  static const char *const node_counts[] = {"1..4:+1", "1..4:+1", "4..6:+1"};
  for (int i = 0; i < 3; i++) {
    snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop bcast_binomial "
             "bcast_binomial_mpich scatter_binomial gather_binomial allgather_ring "
             "bcast_scatter_ring bcast bcast_binomial_seg allgather_ring_iter gatherv_linear --grid m=1..64MiB:*4 --grid P=1..16:+1 --grid M=%s "
             "--set 'map=%s' --params shm.txt", src, node_counts[i], maps[i]);
    same(args, "--no-cache -j 2", 0);
    snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop allgather_rda bcast_scatter_rda "
             "allgather_rda_seg bcast_scatter_ring_iter --grid m=1..64MiB:*4 --grid P=1..16:*2 --grid M=%s --set 'map=%s' "
             "--params shm.txt", src, node_counts[i], maps[i]);
    same(args, "--no-cache -j 2", 0);
  }
  snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop bcast_binomial_full --grid m=1KiB "
           "--grid P=8 --grid M=1,2 --params shm.txt", src);
  same(args, "--no-cache", 1);
  /* a failing point: the interpreter's diagnostic and exit status, through the JIT */
  snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop allgather_rda --grid m=1KiB "
           "--grid P=4,0,8 --params shm.txt", src);
  same(args, "--no-cache", 1);
  /* eval, and the format of its output */
  snprintf(args, sizeof args, "eval %s/stdlib/mpich/bcast.tlop 'bcast(m, P) + allgather_ring(m, P)' "
           "--set m=300KiB,P=12 --params shm.txt --format plain", src);
  same(args, "--no-cache", 0);
  snprintf(args, sizeof args, "eval %s/stdlib/mpich/bcast.tlop 'log2(P - 12) * T(m)' "
           "--set m=3KiB,P=12", src);
  same(args, "--no-cache", 1);

  /* auto: a large grid is compiled (and cached), a small one interpreted */
  char *o, *e;
  snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop allgather_ring --grid m=1..2MiB:+7 "
           "--grid P=2..9:+1 -o /dev/null", src);
  CHECK(run("", args, &o, &e) == 0 && cache_objects() == 1);
  free(o), free(e);
  snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop bcast_binomial --grid m=1..2MiB:+7 "
           "--grid P=2 --no-cache -o /dev/null", src);
  CHECK(run("", args, &o, &e) == 0 && cache_objects() == 1); /* --no-cache writes nothing */
  free(o), free(e);
  snprintf(args, sizeof args, "sweep %s/stdlib/mpich/bcast.tlop bcast_binomial --grid m=1,2 "
           "--grid P=2", src);
  CHECK(run("", args, &o, &e) == 0 && cache_objects() == 1); /* interpreted: nothing new */
  free(o), free(e);
  CHECK(run("TLOP_ENGINE=fast", args, &o, &e) == 2 && strstr(e, "TLOP_ENGINE takes auto, jit or interp"));
  free(o), free(e);
  CHECK(run("TLOP_ENGINE=jit", args, &o, &e) == 0 && cache_objects() == 2);
  free(o), free(e);

  char rm[128];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return unit_report("test_jit_sweep");
}

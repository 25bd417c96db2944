/* measure.c — estimates L(m,τ) and o(m) on this machine with the set-ups of the τ-Lop
 * paper (2015, §5): threads pinned to cores move messages through shared buffers of
 * `slots` segments, synchronised by lock-free flags (C11 atomics); the time l of one
 * message of k segments gives L = l/(transfers·k). Each cell is sampled until the
 * confidence interval of its median is narrow enough. The table is streamed to a
 * temporary file renamed into place only when complete, so an interrupted run leaves
 * nothing behind. The library never prints: progress goes through a callback. */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np, sched_getaffinity */
#include "measure/measure.h"
#include "tlop_measure.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE 64          /* bytes of a cache line: flags get one each */
#define MIN_SAMPLES 5
#define MAX_SLOTS 4096
#define SPINS_BEFORE_YIELD 2000

/* The message sizes of the libtaulop tables: 1 B to 4 MiB, 30 rows. */
static const double default_sizes[] = {
    1,      64,     128,    256,     512,     1024,    1536,    2048,    3072,    4096,
    5120,   6144,   7168,   8192,    16384,   32768,   49152,   65536,   98304,   131072,
    196608, 262144, 393216, 524288,  786432,  1048576, 1572864, 2097152, 3145728, 4194304};

size_t tlop_measure_default_sizes(const double **sizes) {
  *sizes = default_sizes;
  return sizeof default_sizes / sizeof *default_sizes;
}

const char *tlop_setup_name(tlop_setup s) {
  return s == TLOP_SETUP_RING ? "ring" : s == TLOP_SETUP_BCAST ? "bcast" : "ping";
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ======================= the machine, from /proc and sysfs ======================= */

/* "0-3,8,10-11" → its numbers, in order; false on a malformed list. */
static bool cpulist_parse(const char *s, int **out, size_t *n) {
  int *v = NULL;
  size_t cnt = 0, cap = 0;
  while (*s && *s != '\n') {
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10), b = a;
    if (end == s || errno || a < 0 || a > 1 << 20)
      goto bad;
    s = end;
    if (*s == '-') {
      b = strtol(s + 1, &end, 10);
      if (end == s + 1 || errno || b < a || b > 1 << 20)
        goto bad;
      s = end;
    }
    for (long c = a; c <= b; c++)
      VEC_PUSH(v, cnt, cap, (int)c);
    if (*s == ',' && s[1] >= '0' && s[1] <= '9')
      s++;
    else if (*s && *s != '\n')
      goto bad;
  }
  if (!cnt)
    goto bad;
  *out = v;
  *n = cnt;
  return true;
bad:
  free(v);
  return false;
}

tlop_status tlop_measure_parse_cores(tlop_ctx *ctx, const char *text, int **cores, size_t *n) {
  if (!ctx || !text || !cores || !n)
    return TLOP_ERR_ARG;
  if (cpulist_parse(text, cores, n))
    return TLOP_OK;
  diag_error(ctx, (span){0}, "'%s' is not a list of cores such as 0-3,8", text);
  return TLOP_ERR_ARG;
}

static char *read_small_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return xstrdup(buf);
}

static char *cpu_model(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  char *model = NULL;
  while (f && !model && fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) && strncmp(line, "Processor", 9) &&
        strncmp(line, "cpu\t", 4)) /* x86, Arm, POWER */
      continue;
    char *colon = strchr(line, ':');
    if (!colon)
      continue;
    char *s = colon + 1;
    while (*s == ' ' || *s == '\t')
      s++;
    s[strcspn(s, "\n")] = 0;
    model = xstrdup(s);
  }
  if (f)
    fclose(f);
  return model ? model : xstrdup("unknown");
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The NUMA nodes' CPU lists in node order (ids may have gaps); 0 nodes without sysfs. */
static int numa_nodes(int ***cpus, size_t **ncpus) {
  *cpus = NULL;
  *ncpus = NULL;
  DIR *d = opendir("/sys/devices/system/node");
  int *ids = NULL;
  size_t nids = 0, cap = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    char *end;
    if (strncmp(e->d_name, "node", 4) || !e->d_name[4])
      continue;
    long id = strtol(e->d_name + 4, &end, 10);
    if (!*end && id >= 0 && id < 1 << 20)
      VEC_PUSH(ids, nids, cap, (int)id);
  }
  if (d)
    closedir(d);
  if (nids)
    qsort(ids, nids, sizeof *ids, cmp_int);
  *cpus = xcalloc(nids, sizeof **cpus);
  *ncpus = xcalloc(nids, sizeof **ncpus);
  for (size_t i = 0; i < nids; i++) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", ids[i]);
    char *text = read_small_file(path);
    if (!text || !cpulist_parse(text, &(*cpus)[i], &(*ncpus)[i]))
      (*ncpus)[i] = 0; /* a node of memory only has no CPU */
    free(text);
  }
  free(ids);
  return (int)nids;
}

/* The largest cache of cpu0 (the last level), in bytes; 0 when unknown. */
static double llc_bytes(void) {
  double best = 0;
  int best_level = 0;
  for (int i = 0; i < 16; i++) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    char *lv = read_small_file(path);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    char *sz = read_small_file(path);
    if (lv && sz) {
      int level = atoi(lv);
      char *end;
      double v = strtod(sz, &end);
      v *= *end == 'K' ? 1024 : *end == 'M' ? 1048576 : *end == 'G' ? 1073741824 : 1;
      if (level >= best_level && v > 0) {
        best_level = level;
        best = v;
      }
    }
    free(lv);
    free(sz);
    if (!lv)
      break;
  }
  return best;
}

/* The CPUs this process may run on, NUMA node after NUMA node (the paper fills NUMA 0,
 * then NUMA 1, …). */
static bool default_cores(int **out, size_t *n) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return false;
  int *v = NULL;
  size_t cnt = 0, cap = 0;
  int **node_cpus;
  size_t *node_n;
  int nodes = numa_nodes(&node_cpus, &node_n);
  for (int nd = 0; nd < nodes; nd++) {
    for (size_t i = 0; i < node_n[nd]; i++) {
      int c = node_cpus[nd][i];
      if (c < CPU_SETSIZE && CPU_ISSET(c, &set)) {
        VEC_PUSH(v, cnt, cap, c);
        CPU_CLR(c, &set);
      }
    }
    free(node_cpus[nd]);
  }
  free(node_cpus);
  free(node_n);
  for (int c = 0; c < CPU_SETSIZE; c++) /* CPUs of no node (no sysfs) */
    if (CPU_ISSET(c, &set))
      VEC_PUSH(v, cnt, cap, c);
  *out = v;
  *n = cnt;
  return cnt > 0;
}

/* ======================= lock-free synchronisation ======================= */

/* One flag per cache line, so that polling one does not slow the writer of another. */
typedef struct flag {
  _Alignas(LINE) atomic_ullong v;
} flag;

static void spin_pause(unsigned *spins) {
  if (++*spins >= SPINS_BEFORE_YIELD) { /* oversubscribed, or a long wait: let others run */
    *spins = 0;
    sched_yield();
  }
}

static void wait_at_least(atomic_ullong *f, unsigned long long v) {
  unsigned spins = 0;
  while (atomic_load_explicit(f, memory_order_acquire) < v)
    spin_pause(&spins);
}

/* A sense-reversing barrier of n threads. */
typedef struct barrier {
  _Alignas(LINE) atomic_int count;
  _Alignas(LINE) atomic_int phase;
  int n;
} barrier;

static void barrier_wait(barrier *b) {
  int ph = atomic_load_explicit(&b->phase, memory_order_acquire);
  if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) == b->n - 1) {
    atomic_store_explicit(&b->count, 0, memory_order_relaxed);
    atomic_store_explicit(&b->phase, ph + 1, memory_order_release);
    return;
  }
  unsigned spins = 0;
  while (atomic_load_explicit(&b->phase, memory_order_acquire) == ph)
    spin_pause(&spins);
}

/* A shared intermediate buffer: one writer, `readers` readers, `slots` segments.
 * full[s] = j+1 once segment j is in slot s; done[s] counts the reads of slot s. */
typedef struct channel {
  char *buf;
  flag *full, *done;
  int readers;
} channel;

static void produce(channel *ch, int slots, size_t seg, unsigned long long j, const char *src,
                    size_t len) {
  size_t s = (size_t)(j % (unsigned)slots);
  /* every reader has taken the segment this slot held before */
  wait_at_least(&ch->done[s].v, (j / (unsigned)slots) * (unsigned long long)ch->readers);
  memcpy(ch->buf + s * seg, src, len);
  atomic_store_explicit(&ch->full[s].v, j + 1, memory_order_release);
}

static void consume(channel *ch, int slots, size_t seg, unsigned long long j, char *dst,
                    size_t len) {
  size_t s = (size_t)(j % (unsigned)slots);
  wait_at_least(&ch->full[s].v, j + 1);
  memcpy(dst, ch->buf + s * seg, len);
  atomic_fetch_add_explicit(&ch->done[s].v, 1, memory_order_release);
}

/* ======================= one cell: τ threads, one message size ======================= */

typedef struct run_cfg {
  int slots;
  double seg;
  bool off_cache;
  double llc;
  int reps, max_reps;
  double rel_err, min_time;
  volatile sig_atomic_t *stop;
} run_cfg;

typedef struct cell_run {
  const run_cfg *cfg;
  int nthreads;
  const int *cores;
  size_t ncores;
  size_t m, k, seg;        /* message bytes, segments, slot size (bytes of a segment) */
  int slots;
  int transfers;           /* transfers of each thread per segment: 2 in a ring */
  channel *ch;
  int nch;
  int *write, *read;       /* channel thread i writes / reads, or -1 */
  bool *read_first;        /* thread i takes its segment before passing one on */
  barrier bar;
  _Alignas(LINE) atomic_long iters; /* messages per sample; 0 stops the threads */
  atomic_int go;           /* 0: wait until every thread exists; 1: run; -1: give up */
  atomic_int failed;       /* a thread could not allocate or pin */
  long sample_iters;       /* messages per kept sample */
  /* thread 0's bookkeeping */
  double *samples;
  size_t nsamples, cap;
  bool interrupted, converged;
} cell_run;

typedef struct thread_arg {
  cell_run *c;
  int id;
} thread_arg;

/* A user buffer: the message itself in cache; out of cache, a region a message moves
 * through so that the next message never finds its bytes in the last-level cache. */
typedef struct user_buf {
  char *base;
  size_t stride, positions;
} user_buf;

static bool user_buf_new(user_buf *u, const cell_run *c) {
  size_t m = c->m ? c->m : 1;
  u->stride = (m + 4095) / 4096 * 4096;
  u->positions = 1;
  if (c->cfg->off_cache) {
    double region = fmax(2.0 * (double)m, c->cfg->llc > 0 ? c->cfg->llc : 64.0 * 1048576);
    u->positions = (size_t)ceil(region / (double)u->stride);
  }
  u->base = aligned_alloc(4096, u->stride * u->positions);
  if (u->base) /* first touch: the pages live on this thread's NUMA node */
    memset(u->base, 1, u->stride * u->positions);
  return u->base != NULL;
}

static char *user_at(const user_buf *u, unsigned long long msg) {
  return u->base + (msg % u->positions) * u->stride;
}

static bool pin(int core) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (core < 0 || core >= CPU_SETSIZE)
    return false;
  CPU_SET(core, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the sorted samples and the 95 % confidence interval of the median from
 * order statistics (distribution-free: ranks n/2 ∓ 1.96·√n/2). */
static void median_ci(const double *x, size_t n, double *med, double *lo, double *hi) {
  *med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
  double h = 1.96 * sqrt((double)n) / 2;
  long j = (long)floor((double)n / 2 - h), k = (long)ceil((double)n / 2 + h);
  *lo = x[j < 1 ? 0 : j - 1];
  *hi = x[k > (long)n ? (long)n - 1 : k - 1];
}

/* Thread 0, after a sample: record it, then set the messages of the next (0: done). */
static void decide(cell_run *c, double elapsed, bool *calibrating) {
  const run_cfg *cfg = c->cfg;
  long iters = atomic_load(&c->iters);
  long next = iters;
  if ((cfg->stop && *cfg->stop) || atomic_load(&c->failed)) {
    c->interrupted = cfg->stop && *cfg->stop;
    next = 0;
  } else if (*calibrating) {
    /* warm-up: grow the batch until a sample lasts min_time; these samples are dropped */
    if (elapsed < cfg->min_time) {
      double f = elapsed > 0 ? ceil(1.2 * cfg->min_time / elapsed) : 100;
      next = iters * (long)fmin(fmax(f, 2), 100);
    } else {
      *calibrating = false;
    }
  } else {
    c->samples = grow_array(c->samples, &c->cap, c->nsamples + 1, sizeof *c->samples);
    c->samples[c->nsamples++] = elapsed / (double)iters;
    c->sample_iters = iters;
    size_t n = c->nsamples;
    if (cfg->reps) {
      c->converged = true;
      next = n >= (size_t)cfg->reps ? 0 : iters;
    } else if (n >= MIN_SAMPLES) {
      /* on thread 0, the others waiting at the barrier: out of memory ends the process
       * through the handler (tlop_set_oom_handler), as on the caller's thread */
      double *s = xmalloc(n * sizeof *s), med, lo, hi;
      memcpy(s, c->samples, n * sizeof *s);
      qsort(s, n, sizeof *s, cmp_double);
      median_ci(s, n, &med, &lo, &hi);
      free(s);
      c->converged = (hi - lo) / 2 <= cfg->rel_err * med;
      if (c->converged || n >= (size_t)cfg->max_reps)
        next = 0;
    }
  }
  atomic_store(&c->iters, next);
}

static void *worker(void *arg) {
  thread_arg *a = arg;
  cell_run *c = a->c;
  int id = a->id, w = c->write[id], r = c->read[id];
  bool rf = c->read_first[id];
  user_buf src = {0}, dst = {0};
  unsigned spins = 0;
  while (atomic_load(&c->go) == 0)
    spin_pause(&spins);
  if (atomic_load(&c->go) < 0)
    return NULL;
  if (!pin(c->cores[(size_t)id % c->ncores]) || (w >= 0 && !user_buf_new(&src, c)) ||
      (r >= 0 && !user_buf_new(&dst, c)))
    atomic_store(&c->failed, 1);
  if (w >= 0) { /* the writer owns the intermediate buffer (first touch) */
    size_t bytes = (size_t)c->slots * c->seg;
    channel *ch = &c->ch[w];
    ch->buf = aligned_alloc(LINE, (bytes + LINE) / LINE * LINE); /* not 0 for m = 0 */
    if (ch->buf)
      memset(ch->buf, 0, bytes);
    else
      atomic_store(&c->failed, 1);
  }
  barrier_wait(&c->bar);
  bool calibrating = true;
  unsigned long long j = 0, msg = 0; /* segments and messages so far: same in every thread */
  for (;;) {
    barrier_wait(&c->bar);
    double t0 = id == 0 ? now() : 0;
    long iters = atomic_load(&c->iters);
    if (iters == 0 || atomic_load(&c->failed))
      break;
    for (long t = 0; t < iters; t++, msg++) {
      const char *from = w >= 0 ? user_at(&src, msg) : NULL;
      char *to = r >= 0 ? user_at(&dst, msg) : NULL;
      for (size_t i = 0; i < c->k; i++, j++) {
        size_t off = i * c->seg, len = c->m - off < c->seg ? c->m - off : c->seg;
        if (r >= 0 && rf)
          consume(&c->ch[r], c->slots, c->seg, j, to + off, len);
        if (w >= 0)
          produce(&c->ch[w], c->slots, c->seg, j, from + off, len);
        if (r >= 0 && !rf)
          consume(&c->ch[r], c->slots, c->seg, j, to + off, len);
      }
    }
    barrier_wait(&c->bar);
    if (id == 0)
      decide(c, now() - t0, &calibrating);
  }
  free(src.base);
  free(dst.base);
  return NULL;
}

/* Who writes and reads which buffer in each set-up, with `nthreads` threads. τ = 1 is one
 * transfer alone in all of them: two threads on two cores pass each segment there and
 * back, one copy at a time (4 transfers in series; the data crosses cores as in every
 * real transfer); on a single core, a thread writes a buffer and reads it back. */
static bool roles(cell_run *c, tlop_setup setup, int tau) {
  bool serial = tau == 1 && c->ncores >= 2;
  int n = c->nthreads = serial ? 2 : tau;
  c->write = xmalloc((size_t)n * sizeof *c->write);
  c->read = xmalloc((size_t)n * sizeof *c->read);
  c->read_first = xcalloc((size_t)n, sizeof *c->read_first);
  if (serial) {
    c->nch = 2;
    c->transfers = 4;
    c->write[0] = c->read[1] = 0;
    c->write[1] = c->read[0] = 1;
    c->read_first[1] = true;
  } else if (tau == 1 || setup == TLOP_SETUP_RING) {
    c->nch = tau;
    c->transfers = 2;
    for (int i = 0; i < tau; i++) {
      c->write[i] = i;
      c->read[i] = (i + tau - 1) % tau; /* the buffer shared with the left neighbour */
    }
  } else if (setup == TLOP_SETUP_BCAST) {
    c->nch = 1;
    c->transfers = 1;
    for (int i = 0; i < tau; i++) {
      c->write[i] = i == 0 ? 0 : -1;
      c->read[i] = i == 0 ? -1 : 0;
    }
  } else { /* ping: pairs (2p, 2p+1) */
    c->nch = tau / 2;
    c->transfers = 1;
    for (int i = 0; i < tau; i++) {
      c->write[i] = i % 2 ? -1 : i / 2;
      c->read[i] = i % 2 ? i / 2 : -1;
    }
  }
  c->ch = xcalloc((size_t)c->nch, sizeof *c->ch);
  for (int i = 0; i < c->nch; i++) {
    c->ch[i].full = aligned_alloc(LINE, (size_t)c->slots * sizeof(flag));
    c->ch[i].done = aligned_alloc(LINE, (size_t)c->slots * sizeof(flag));
    if (!c->ch[i].full || !c->ch[i].done)
      return false;
    for (int s = 0; s < c->slots; s++) {
      atomic_init(&c->ch[i].full[s].v, 0);
      atomic_init(&c->ch[i].done[s].v, 0);
    }
  }
  for (int i = 0; i < n; i++)
    if (c->read[i] >= 0)
      c->ch[c->read[i]].readers++;
  return true;
}

static void cell_run_free(cell_run *c) {
  for (int i = 0; c->ch && i < c->nch; i++) {
    free(c->ch[i].buf);
    free(c->ch[i].full);
    free(c->ch[i].done);
  }
  free(c->ch);
  free(c->write);
  free(c->read);
  free(c->read_first);
  free(c->samples);
}

/* Measures one cell: messages of m bytes among tau threads. */
static tlop_status run_cell(tlop_ctx *ctx, const run_cfg *cfg, tlop_setup setup, int slots,
                            const int *cores, size_t ncores, double m, int tau,
                            tlop_measure_cell *out) {
  cell_run c = {.cfg = cfg, .cores = cores, .ncores = ncores, .slots = slots};
  c.m = (size_t)m;
  c.seg = (size_t)fmin(cfg->seg, m);
  c.k = c.seg ? (c.m + c.seg - 1) / c.seg : 1; /* m = 0: one segment of nothing, flags only */
  atomic_init(&c.iters, 1);
  atomic_init(&c.go, 0);
  atomic_init(&c.failed, 0);
  atomic_init(&c.bar.count, 0);
  atomic_init(&c.bar.phase, 0);
  tlop_status st = TLOP_OK;
  pthread_t *th = NULL;
  thread_arg *args = NULL;
  int started = 0, n = 0;
  if (!roles(&c, setup, tau)) {
    st = TLOP_ERR_NOMEM;
    goto done;
  }
  th = xcalloc((size_t)c.nthreads, sizeof *th);
  args = xcalloc((size_t)c.nthreads, sizeof *args);
  n = c.bar.n = c.nthreads;
  for (; started < n; started++) {
    args[started] = (thread_arg){&c, started};
    if (pthread_create(&th[started], NULL, worker, &args[started]) != 0)
      break;
  }
  atomic_store(&c.go, started < n ? -1 : 1);
  for (int i = 0; i < started; i++)
    pthread_join(th[i], NULL);
  if (started < n) {
    diag_error(ctx, (span){0}, "cannot start %d threads", n);
    st = TLOP_ERR_INTERNAL;
  } else if (c.interrupted) {
    st = TLOP_ERR_INTERRUPTED;
  } else if (atomic_load(&c.failed) || !c.nsamples) {
    diag_error(ctx, (span){0}, "cannot measure m = %.17g B, τ = %d: out of memory or a core "
               "this process may not run on", m, tau);
    st = TLOP_ERR_NOMEM;
  } else {
    qsort(c.samples, c.nsamples, sizeof *c.samples, cmp_double);
    memset(out, 0, sizeof *out);
    median_ci(c.samples, c.nsamples, &out->median, &out->ci_lo, &out->ci_hi);
    out->min = c.samples[0];
    out->max = c.samples[c.nsamples - 1];
    out->samples = (int)c.nsamples;
    out->iterations = c.sample_iters;
    out->k = (int)c.k;
    out->transfers = c.transfers;
    out->converged = c.converged;
    out->value = out->median / c.transfers; /* one transfer of m bytes: k segments */
  }
done:
  cell_run_free(&c);
  free(th);
  free(args);
  return st;
}

/* ======================= the table and its sidecar ======================= */

static void table_header(strbuf *b, tlop_table_format f, size_t nrows, int ntau) {
  if (f == TLOP_TABLE_CSV) {
    sb_puts(b, "m,o");
    for (int t = 1; t <= ntau; t++)
      sb_printf(b, ",L%d", t);
  } else {
    sb_printf(b, "#m\t%zu\n#tau\t%d\n#m\to(m)", nrows, ntau);
    for (int t = 1; t <= ntau; t++)
      sb_printf(b, "\tL(m, %d)", t);
  }
  sb_puts(b, "\n");
}

/* Seven significant digits: the noise of a measurement is far above 1e-7. */
static void table_row(strbuf *b, tlop_table_format f, const tlop_measure_result *r, size_t i) {
  const char *sep = f == TLOP_TABLE_CSV ? "," : "\t";
  sb_printf(b, "%.17g%s%.6e", r->m[i], sep, r->o.value);
  for (int t = 0; t < r->ntau; t++)
    sb_printf(b, "%s%.6e", sep, r->L[i * (size_t)r->ntau + (size_t)t].value);
  sb_puts(b, "\n");
}

char *tlop_measure_table(const tlop_measure_result *r, tlop_table_format f) {
  if (!r)
    return NULL;
  strbuf b = {0};
  table_header(&b, f, r->nsizes, r->ntau);
  for (size_t i = 0; i < r->nsizes; i++)
    table_row(&b, f, r, i);
  return sb_take(&b);
}

static void json_str(strbuf *b, const char *s) {
  sb_puts(b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      sb_printf(b, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      sb_printf(b, "\\u%04x", (unsigned char)*s);
    else
      sb_putn(b, s, 1);
  }
  sb_puts(b, "\"");
}

/* A number JSON accepts (NaN and infinities are not numbers there). */
static void json_num(strbuf *b, double v) {
  if (isfinite(v))
    sb_printf(b, "%.9g", v);
  else
    sb_puts(b, "null");
}

static void json_cell(strbuf *b, const tlop_measure_cell *c) {
  sb_puts(b, "\"value\": ");
  json_num(b, c->value);
  if (c->derived) {
    sb_puts(b, ", \"derived\": true}");
    return;
  }
  sb_puts(b, ", \"median_l\": ");
  json_num(b, c->median);
  sb_puts(b, ", \"ci95_l\": [");
  json_num(b, c->ci_lo);
  sb_puts(b, ", ");
  json_num(b, c->ci_hi);
  sb_puts(b, "], \"rel_halfwidth\": ");
  json_num(b, c->median > 0 ? (c->ci_hi - c->ci_lo) / 2 / c->median : 0);
  sb_puts(b, ", \"min_l\": ");
  json_num(b, c->min);
  sb_puts(b, ", \"max_l\": ");
  json_num(b, c->max);
  sb_printf(b, ", \"samples\": %d, \"messages_per_sample\": %ld, \"k\": %d, \"transfers\": %d, "
            "\"converged\": %s}", c->samples, c->iterations, c->k, c->transfers,
            c->converged ? "true" : "false");
}

char *tlop_measure_json(const tlop_measure_result *r) {
  if (!r)
    return NULL;
  strbuf b = {0};
  sb_printf(&b, "{\n  \"tool\": \"tlop measure %s\",\n  \"date\": ", TLOP_VERSION);
  json_str(&b, r->date);
  sb_puts(&b, ",\n  \"machine\": {\"cpu_model\": ");
  json_str(&b, r->cpu_model ? r->cpu_model : "unknown");
  sb_printf(&b, ", \"online_cpus\": %d, \"numa_nodes\": %d, \"llc_bytes\": ", r->online_cpus,
            r->numa_nodes);
  json_num(&b, r->llc_bytes);
  sb_printf(&b, "},\n  \"setup\": {\"name\": \"%s\", \"slots\": %d, \"seg\": ",
            tlop_setup_name(r->setup), r->slots);
  json_num(&b, r->seg);
  sb_printf(&b, ", \"off_cache\": %s, \"cores\": [", r->off_cache ? "true" : "false");
  for (int t = 0; t < r->ntau; t++)
    sb_printf(&b, "%s%d", t ? ", " : "", r->cores[t]);
  sb_printf(&b, "]},\n  \"sampling\": {\"reps\": %d, \"rel_err\": ", r->reps);
  json_num(&b, r->rel_err);
  sb_printf(&b, ", \"max_reps\": %d, \"min_time\": ", r->max_reps);
  json_num(&b, r->min_time);
  sb_puts(&b, ", \"statistic\": \"median of l; 95% order-statistic interval\"},\n  \"o\": {");
  json_cell(&b, &r->o);
  sb_puts(&b, ",\n  \"L_seg\": [");
  for (int t = 0; t < r->ntau; t++) {
    sb_printf(&b, "%s{\"tau\": %d, \"value\": ", t ? ", " : "", t + 1);
    json_num(&b, r->L_seg[t]);
    sb_puts(&b, "}");
  }
  sb_puts(&b, "],\n  \"cells\": [");
  for (size_t i = 0; i < r->nsizes; i++)
    for (int t = 0; t < r->ntau; t++) {
      sb_printf(&b, "%s\n    {\"m\": %.17g, \"tau\": %d, ", i || t ? "," : "", r->m[i], t + 1);
      json_cell(&b, &r->L[i * (size_t)r->ntau + (size_t)t]);
    }
  sb_puts(&b, "\n  ]\n}\n");
  return sb_take(&b);
}

void tlop_measure_free(tlop_measure_result *r) {
  if (!r)
    return;
  free(r->m);
  free(r->L);
  free(r->L_seg);
  free(r->cores);
  free(r->cpu_model);
  free(r);
}

/* A file that appears under its name only once complete: written as NAME.tmp.PID in the
 * same directory (so that rename is atomic), removed on failure. */
typedef struct staged {
  const char *path;
  char *tmp;
  FILE *f;
} staged;

static bool staged_open(tlop_ctx *ctx, staged *s, const char *path) {
  s->path = path;
  strbuf b = {0};
  sb_printf(&b, "%s.tmp.%ld", path, (long)getpid());
  s->tmp = sb_take(&b);
  s->f = fopen(s->tmp, "w");
  if (!s->f)
    diag_error(ctx, (span){0}, "cannot write '%s': %s", s->tmp, strerror(errno));
  return s->f != NULL;
}

static bool staged_write(tlop_ctx *ctx, staged *s, const char *text) {
  if (fputs(text, s->f) >= 0 && fflush(s->f) == 0)
    return true;
  diag_error(ctx, (span){0}, "cannot write '%s': %s", s->tmp, strerror(errno));
  return false;
}

static void staged_drop(staged *s) {
  if (s->f) {
    fclose(s->f);
    remove(s->tmp);
  }
  s->f = NULL;
  free(s->tmp);
  s->tmp = NULL;
}

static bool staged_close(tlop_ctx *ctx, staged *s) {
  int bad = fclose(s->f);
  s->f = NULL;
  if (bad || rename(s->tmp, s->path) != 0) {
    diag_error(ctx, (span){0}, "cannot write '%s': %s", s->path, strerror(errno));
    remove(s->tmp);
    free(s->tmp);
    s->tmp = NULL;
    return false;
  }
  free(s->tmp);
  s->tmp = NULL;
  return true;
}

/* ======================= the whole measurement ======================= */

static tlop_status check_opts(tlop_ctx *ctx, const tlop_measure_opts *o, run_cfg *cfg,
                              int *max_tau, size_t ncores) {
  span none = {0};
  cfg->slots = o->slots ? o->slots : 2;
  cfg->seg = o->seg > 0 ? o->seg : 8192;
  cfg->rel_err = o->rel_err > 0 ? o->rel_err : 0.05;
  cfg->max_reps = o->max_reps > 0 ? o->max_reps : 200;
  cfg->min_time = o->min_time > 0 ? o->min_time : 2e-3;
  cfg->reps = o->reps;
  cfg->off_cache = o->off_cache;
  cfg->stop = o->stop;
  *max_tau = o->max_tau > 0 ? o->max_tau : (int)ncores;
  if (cfg->slots < 1 || cfg->slots > MAX_SLOTS) {
    diag_error(ctx, none, "the shared buffers need 1 to %d slots, not %d", MAX_SLOTS, cfg->slots);
    return TLOP_ERR_ARG;
  }
  if (!(cfg->seg >= 1 && cfg->seg <= 1073741824.0) || cfg->seg != floor(cfg->seg)) {
    diag_error(ctx, none, "the segment size must be a whole number of bytes, 1 B to 1 GiB");
    return TLOP_ERR_ARG;
  }
  if (o->reps < 0 || !(cfg->rel_err < 1) || o->max_tau < 0 || *max_tau > 4096 ||
      !(cfg->min_time <= 60)) {
    diag_error(ctx, none, "bad sampling options: reps >= 0, 0 < rel_err < 1, max_tau <= 4096, "
               "min_time <= 60 s");
    return TLOP_ERR_ARG;
  }
  if ((size_t)*max_tau > ncores && !o->oversubscribe) {
    diag_error(ctx, none, "τ = %d needs %d cores and only %zu %s available: measured with "
               "threads sharing cores, L(m,τ) would be the scheduler's, not the memory's "
               "(--oversubscribe to measure anyway)", *max_tau, *max_tau, ncores,
               ncores == 1 ? "is" : "are");
    return TLOP_ERR_ARG;
  }
  for (size_t i = 0; i < o->nsizes; i++)
    if (!(o->sizes[i] >= 0 && o->sizes[i] <= 1073741824.0) || o->sizes[i] != floor(o->sizes[i]) ||
        (i && o->sizes[i] <= o->sizes[i - 1])) {
      diag_error(ctx, none, "the message sizes must be whole numbers of bytes up to 1 GiB, "
                 "increasing (size %zu is %.17g)", i + 1, o->sizes[i]);
      return TLOP_ERR_ARG;
    }
  return TLOP_OK;
}

static bool cores_allowed(tlop_ctx *ctx, const int *cores, size_t n) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return true; /* pinning will tell */
  for (size_t i = 0; i < n; i++)
    if (cores[i] < 0 || cores[i] >= CPU_SETSIZE || !CPU_ISSET(cores[i], &set)) {
      diag_error(ctx, (span){0}, "core %d is not one this process may run on", cores[i]);
      return false;
    }
  return true;
}

static tlop_measure_result *result_new(const tlop_measure_opts *o, const run_cfg *cfg,
                                       const double *sizes, size_t nsizes, int ntau,
                                       const int *cores, size_t ncores) {
  tlop_measure_result *r = xcalloc(1, sizeof *r);
  r->setup = o->setup;
  r->slots = cfg->slots;
  r->seg = cfg->seg;
  r->off_cache = cfg->off_cache;
  r->nsizes = nsizes;
  r->ntau = ntau;
  r->reps = cfg->reps;
  r->max_reps = cfg->max_reps;
  r->rel_err = cfg->rel_err;
  r->min_time = cfg->min_time;
  r->m = xmalloc(nsizes * sizeof *r->m);
  r->L = xcalloc(nsizes * (size_t)ntau, sizeof *r->L);
  r->L_seg = xmalloc((size_t)ntau * sizeof *r->L_seg);
  r->cores = xmalloc((size_t)ntau * sizeof *r->cores);
  r->cpu_model = cpu_model();
  memcpy(r->m, sizes, nsizes * sizeof *r->m);
  for (int t = 0; t < ntau; t++)
    r->cores[t] = cores[(size_t)t % ncores];
  r->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
  int **node_cpus;
  size_t *node_n;
  r->numa_nodes = numa_nodes(&node_cpus, &node_n);
  for (int i = 0; i < r->numa_nodes; i++)
    free(node_cpus[i]);
  free(node_cpus);
  free(node_n);
  if (r->numa_nodes == 0)
    r->numa_nodes = 1;
  r->llc_bytes = llc_bytes();
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return r;
}

/* Ping cannot make odd τ > 1 out of pairs: the cell lies between its even neighbours
 * (beyond the last, L(m,τ−1)·τ/(τ−1), the table's own proportional rule). */
static void ping_fill_odd(tlop_measure_cell *row, int ntau) {
  for (int t = 3; t <= ntau; t += 2) {
    tlop_measure_cell *c = &row[t - 1];
    memset(c, 0, sizeof *c);
    c->derived = true;
    c->value = t < ntau ? (row[t - 2].value + row[t].value) / 2
                        : row[t - 2].value * t / (t - 1);
  }
}

bool tlop_measure_seg_row(const tlop_measure_result *r, size_t i, int tau, double *L_seg) {
  if (r->m[i] < r->seg || fmod(r->m[i], r->seg) != 0)
    return false;
  const tlop_measure_cell *c = &r->L[i * (size_t)r->ntau + (size_t)(tau - 1)];
  *L_seg = c->derived ? NAN : c->value / c->k; /* value: one transfer of k segments */
  return true;
}

/* L(S,τ) as Fig. 18b: the mean over the rows m = k·S of L(m,τ)/k. */
void measure_seg_estimates(tlop_measure_result *r) {
  for (int t = 1; t <= r->ntau; t++) {
    double sum = 0, L;
    int n = 0;
    for (size_t i = 0; i < r->nsizes; i++)
      if (tlop_measure_seg_row(r, i, t, &L) && !isnan(L)) {
        sum += L;
        n++;
      }
    r->L_seg[t - 1] = n ? sum / n : NAN;
  }
}

static tlop_status measure_rows(tlop_ctx *ctx, const tlop_measure_opts *o, const run_cfg *cfg,
                                const int *cores, size_t ncores, tlop_measure_result *r,
                                staged *table) {
  size_t total = r->nsizes * (size_t)r->ntau + 1, done = 0;
  /* o(m): a zero-byte message between the first two cores, half the round trip (the
   * synchronisation alone; O_p = 0: no protocol, so one value for every m) */
  tlop_status st = run_cell(ctx, cfg, o->setup, 1, cores, ncores, 0, 1, &r->o);
  if (st != TLOP_OK)
    return st;
  r->o.value = r->o.median / 2;
  r->o.transfers = 2; /* value = median/transfers, as for every cell */
  if (o->progress)
    o->progress(o->progress_user, ++done, total, 0, 0);
  for (size_t i = 0; i < r->nsizes; i++) {
    tlop_measure_cell *row = &r->L[i * (size_t)r->ntau];
    for (int t = 1; t <= r->ntau; t++) {
      if (o->setup == TLOP_SETUP_PING && t > 1 && t % 2) {
        done++;
        continue;
      }
      st = run_cell(ctx, cfg, o->setup, cfg->slots, cores, ncores, r->m[i], t, &row[t - 1]);
      if (st != TLOP_OK)
        return st;
      if (o->progress)
        o->progress(o->progress_user, ++done, total, r->m[i], t);
    }
    if (o->setup == TLOP_SETUP_PING)
      ping_fill_odd(row, r->ntau);
    if (table->f) {
      strbuf b = {0};
      table_row(&b, o->format, r, i);
      char *text = sb_take(&b);
      bool ok = staged_write(ctx, table, text);
      free(text);
      if (!ok)
        return TLOP_ERR_IO;
    }
  }
  return TLOP_OK;
}

tlop_status tlop_measure(tlop_ctx *ctx, const tlop_measure_opts *o, tlop_measure_result **out) {
  if (!ctx || !o || !out || (o->cores && !o->ncores) || (o->sizes && !o->nsizes))
    return TLOP_ERR_ARG;
  *out = NULL;
  int *cores = NULL;
  size_t ncores = 0;
  if (o->cores) {
    cores = xcalloc(o->ncores, sizeof *cores);
    memcpy(cores, o->cores, o->ncores * sizeof *cores);
    ncores = o->ncores;
    if (!cores_allowed(ctx, cores, ncores)) {
      free(cores);
      return TLOP_ERR_ARG;
    }
  } else if (!default_cores(&cores, &ncores)) {
    diag_error(ctx, (span){0}, "cannot tell which cores this process may run on");
    return TLOP_ERR_INTERNAL;
  }
  run_cfg cfg;
  int ntau;
  tlop_status st = check_opts(ctx, o, &cfg, &ntau, ncores);
  const double *sizes = o->sizes;
  size_t nsizes = o->nsizes;
  if (!sizes)
    nsizes = tlop_measure_default_sizes(&sizes);
  tlop_measure_result *r = NULL;
  staged table = {0}, json = {0};
  if (st == TLOP_OK) {
    r = result_new(o, &cfg, sizes, nsizes, ntau, cores, ncores);
    cfg.llc = r->llc_bytes;
  }
  /* the files are opened first: an unwritable place fails before minutes of measuring */
  if (st == TLOP_OK && o->output && !staged_open(ctx, &table, o->output))
    st = TLOP_ERR_IO;
  if (st == TLOP_OK && o->json && !staged_open(ctx, &json, o->json))
    st = TLOP_ERR_IO;
  if (st == TLOP_OK && table.f) {
    strbuf b = {0};
    table_header(&b, o->format, nsizes, ntau);
    char *text = sb_take(&b);
    if (!staged_write(ctx, &table, text))
      st = TLOP_ERR_IO;
    free(text);
  }
  if (st == TLOP_OK)
    st = measure_rows(ctx, o, &cfg, cores, ncores, r, &table);
  if (st == TLOP_OK) {
    measure_seg_estimates(r);
    if (json.f) {
      char *text = tlop_measure_json(r);
      if (!staged_write(ctx, &json, text) || !staged_close(ctx, &json))
        st = TLOP_ERR_IO;
      free(text);
    }
    if (st == TLOP_OK && table.f && !staged_close(ctx, &table))
      st = TLOP_ERR_IO;
  }
  staged_drop(&table);
  staged_drop(&json);
  free(cores);
  if (st != TLOP_OK) {
    tlop_measure_free(r);
    return st;
  }
  *out = r;
  return TLOP_OK;
}

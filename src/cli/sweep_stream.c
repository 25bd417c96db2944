/* sweep_stream.c — `tlop sweep`'s grid in chunks of a fixed size, so that memory does not
 * grow with the grid and the first rows come at once. With -j N (N > 1) and compiled
 * kernels, N worker threads each take whole chunks: its points, every kernel at them
 * (tlop_kernels_run touches no shared state) and its rows' text; the main thread takes
 * the chunks in the grid's order, settles what the interpreter owes them (the points the
 * kernels do not vouch for, the diagnostics, the warnings: the context is the main
 * thread's) and writes them. So the work is split evenly and nothing but the writing
 * (and a rare interpreted point) is serial. With one job, or the interpreter, the main
 * thread does the same steps alone. */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Points a chunk holds: enough that a kernel call's fixed cost does not show, few enough
 * that the rows come at once and the last chunk does not leave a thread idle long. The
 * interpreter's are smaller, so that the bar moves (microseconds a point, not ns). */
#define CHUNK 8192
#define INTERP_CHUNK 4096

typedef struct chunk {
  size_t due;    /* the chunk the slot holds, or takes once the one before is written */
  bool worked;   /* its points evaluated by the kernels (and formatted when it could be) */
  size_t first, k;
  double *pts, *res;           /* k × naxes; k × nalgo, algorithm by algorithm */
  unsigned char *flags;        /* k × nalgo: the points' extrapolations */
  tlop_kernels_owed *owed;     /* nalgo */
  bool *compiled;              /* nalgo: evaluated by its kernel (else the interpreter's) */
  bool formatted;
  char *text;
  size_t len;
} chunk;

typedef struct sweep {
  cli *c;
  const cli_grid *g;
  const cli_evaluator *ev;
  size_t nalgo;
  rows_writer *w;
  cli_progress *prog;
  size_t chunk_points, nchunks;
  chunk *slots; /* chunk i is in slots[i % nslots] */
  size_t nslots;
  pthread_mutex_t mu;
  pthread_cond_t worked, freed;
  size_t next; /* the next chunk a worker takes */
  bool stop;
} sweep;

/* calloc or abort, as the command does when out of memory (pages untouched stay free) */
static void *xalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    abort();
  return p;
}

static void slots_open(sweep *s) {
  size_t cap = s->chunk_points, naxes = s->g->naxes, nalgo = s->nalgo;
  s->slots = xalloc(s->nslots, sizeof *s->slots);
  for (size_t i = 0; i < s->nslots; i++)
    s->slots[i] = (chunk){.due = i,
                          .pts = xalloc(cap * naxes, sizeof(double)),
                          .res = xalloc(cap * nalgo, sizeof(double)),
                          .flags = xalloc(cap * nalgo, 1),
                          .owed = xalloc(nalgo, sizeof(tlop_kernels_owed)),
                          .compiled = xalloc(nalgo, sizeof(bool)),
                          .text = xalloc(cap, s->w->row_max)};
}

static void slots_close(sweep *s) {
  for (size_t i = 0; i < s->nslots; i++) {
    chunk *ch = &s->slots[i];
    free(ch->pts);
    free(ch->res);
    free(ch->flags);
    free(ch->owed);
    free(ch->compiled);
    free(ch->text);
  }
  free(s->slots);
}

/* What a worker does with chunk i, touching nothing shared: its points, every kernel at
 * them, and its text where no point is left to the interpreter. */
static void work(const sweep *s, chunk *ch, size_t i) {
  ch->first = i * s->chunk_points;
  ch->k = s->g->npts - ch->first < s->chunk_points ? s->g->npts - ch->first : s->chunk_points;
  size_t k = ch->k;
  cli_grid_fill(s->g, ch->first, k, ch->pts);
  ch->formatted = true;
  for (size_t a = 0; a < s->nalgo; a++) {
    ch->compiled[a] = cli_evaluator_run_compiled(s->ev, a, ch->pts, k, ch->res + a * k,
                                                 ch->flags + a * k, &ch->owed[a]);
    ch->formatted = ch->formatted && ch->compiled[a] && ch->owed[a].bad == k;
  }
  if (ch->formatted)
    ch->len = rows_text(s->w, ch->first, ch->pts, ch->res, k, ch->text);
}

static bool cannot_write(const cli *c) {
  fprintf(stderr, "tlop sweep: cannot write '%s': %s\n", c->o.output ? c->o.output : "-",
          strerror(errno));
  return false;
}

/* The points the bar counts done at step `step` of a chunk's settling: its algorithms one
 * after the other, then its writing; so the bar reaches all points only when it is done. */
static double chunk_part_done(const sweep *s, const chunk *ch, size_t step) {
  return (double)ch->first + (double)ch->k * (double)step / (double)(s->nalgo + 1);
}

/* The main thread's part of a worked chunk, in the grid's order: what the interpreter owes
 * it (every algorithm, as one call over the grid would give its warnings), its text if the
 * interpreter changed it, then the text written. The output is opened once the first
 * chunk has been evaluated, so a sweep failing there leaves the file alone. */
static bool settle_and_write(sweep *s, chunk *ch) {
  size_t k = ch->k;
  for (size_t a = 0; a < s->nalgo; a++) {
    cli_progress_show(s->prog, chunk_part_done(s, ch, a), "evaluating");
    tlop_ctx_set_warn_group(s->c->ctx, a);
    if (cli_evaluator_settle(s->ev, a, ch->pts, k, ch->res + a * k, ch->flags + a * k,
                             ch->compiled[a] ? &ch->owed[a] : NULL) != TLOP_OK)
      return false;
  }
  if (!ch->formatted)
    ch->len = rows_text(s->w, ch->first, ch->pts, ch->res, k, ch->text);
  if (ch->first == 0) {
    if (!(s->w->out = cli_output(s->c)))
      return false;
    rows_begin(s->w, s->g->npts);
  }
  cli_progress_show(s->prog, chunk_part_done(s, ch, s->nalgo), "writing");
  return rows_put(s->w, ch->text, ch->len) || cannot_write(s->c);
}

/* A worker: the next chunk, once its slot's previous chunk is written, until none is left
 * or the main thread stops. */
static void *worker(void *p) {
  sweep *s = p;
  pthread_mutex_lock(&s->mu);
  while (!s->stop && s->next < s->nchunks) {
    size_t i = s->next++;
    chunk *ch = &s->slots[i % s->nslots];
    while (!s->stop && ch->due != i)
      pthread_cond_wait(&s->freed, &s->mu);
    if (s->stop)
      break;
    pthread_mutex_unlock(&s->mu);
    work(s, ch, i);
    pthread_mutex_lock(&s->mu);
    ch->worked = true;
    pthread_cond_signal(&s->worked);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* The main thread with workers: each chunk in turn, once worked, settled and written, its
 * slot then handed to the chunk nslots further. */
static bool run_workers(sweep *s, size_t nworkers) {
  pthread_t *th = xalloc(nworkers, sizeof *th);
  size_t started = 0;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->worked, NULL);
  pthread_cond_init(&s->freed, NULL);
  while (started < nworkers && pthread_create(&th[started], NULL, worker, s) == 0)
    started++;
  bool ok = true;
  for (size_t i = 0; i < s->nchunks && ok; i++) {
    chunk *ch = &s->slots[i % s->nslots];
    pthread_mutex_lock(&s->mu);
    while (started && !(ch->due == i && ch->worked))
      pthread_cond_wait(&s->worked, &s->mu);
    pthread_mutex_unlock(&s->mu);
    if (!started) /* no thread: the main thread works alone */
      work(s, ch, i);
    ok = settle_and_write(s, ch);
    pthread_mutex_lock(&s->mu);
    ch->worked = false;
    ch->due = i + s->nslots;
    s->stop = !ok;
    pthread_cond_broadcast(&s->freed);
    pthread_mutex_unlock(&s->mu);
  }
  for (size_t t = 0; t < started; t++)
    pthread_join(th[t], NULL);
  pthread_cond_destroy(&s->freed);
  pthread_cond_destroy(&s->worked);
  pthread_mutex_destroy(&s->mu);
  free(th);
  return ok;
}

static size_t cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (size_t)n : 1;
}

bool sweep_stream(cli *c, const cli_grid *g, const cli_evaluator *ev, size_t nalgo,
                  rows_writer *w, cli_progress *prog) {
  sweep s = {.c = c, .g = g, .ev = ev, .nalgo = nalgo, .w = w, .prog = prog,
             .chunk_points = ev->kern ? CHUNK : INTERP_CHUNK};
  s.nchunks = (g->npts + s.chunk_points - 1) / s.chunk_points;
  /* threads for the kernels only: the interpreter is the context's, the main thread's */
  size_t jobs = c->o.jobs > 0 ? (size_t)c->o.jobs : cores();
  size_t nworkers = ev->kern && jobs > 1 && s.nchunks > 1 ? jobs : 0;
  s.nslots = nworkers ? 2 * nworkers : 1; /* the workers run ahead while a chunk is written */
  slots_open(&s);
  tlop_ctx_set_warn_once(c->ctx, 1); /* each algorithm warns as for one call */
  bool ok = run_workers(&s, nworkers);
  slots_close(&s);
  if (!ok)
    return false;
  tlop_ctx_set_warn_once(c->ctx, 0);
  if (g->npts == 0 && !(w->out = cli_output(c)))
    return false;
  if (g->npts == 0)
    rows_begin(w, 0);
  rows_end(w);
  cli_progress_show(prog, (double)g->npts, "done");
  return true;
}

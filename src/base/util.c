/* util.c — the small machinery every stage uses: arenas (memory by lifetime), growable
 * arrays, interned symbols, pointer maps, string buffers and number formatting. */
#define _DEFAULT_SOURCE /* madvise */
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- arenas: chunks freed all at once with their owner ---- */

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t data[];
} chunk;

struct arena {
  chunk *head;
};

/* ---- out of memory: the application's handler, else abort ---- */

static tlop_oom_fn oom_handler;

tlop_oom_fn tlop_set_oom_handler(tlop_oom_fn fn) {
  tlop_oom_fn previous = oom_handler;
  oom_handler = fn;
  return previous;
}

/* Out of memory is not an input error: there is nothing sensible to hand back. */
void out_of_memory(size_t bytes) {
  if (oom_handler)
    oom_handler(bytes);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory(n);
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) /* calloc refuses a product that overflows: name the largest size there is */
    out_of_memory(size && count > SIZE_MAX / size ? SIZE_MAX : count * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory(n);
  return q;
}

char *xstrndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *d = xmalloc(len + 1);
  memcpy(d, s, len);
  d[len] = 0;
  return d;
}

char *xstrdup(const char *s) { return xstrndup(s, SIZE_MAX); }

/* Chunks of the usual size freed with their arena, kept (at most SPARE_CHUNKS) for the next
 * one: the prover opens and frees an arena per claim and per case, and glibc gave each
 * freed top of the heap back to the system and took it again (a brk and a TLB flush each
 * time, a tenth of `tlop prove examples/claims.tlop`). A spare chunk is zeroed again only
 * as far as it was used. */
#define CHUNK_BYTES 65536
#define SPARE_CHUNKS 64

static struct {
  pthread_mutex_t lock;
  chunk *head;
  size_t n;
} spare = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

static chunk *chunk_reused(void) {
  pthread_mutex_lock(&spare.lock);
  chunk *c = spare.head;
  if (c)
    spare.head = c->next, spare.n--;
  pthread_mutex_unlock(&spare.lock);
  if (c) {
    memset(c->data, 0, c->used);
    c->used = 0;
  }
  return c;
}

/* Keeps c as a spare when it has the usual size and there is room; false otherwise. */
static bool chunk_kept(chunk *c) {
  if (c->size != CHUNK_BYTES)
    return false;
  pthread_mutex_lock(&spare.lock);
  bool kept = spare.n < SPARE_CHUNKS;
  if (kept)
    c->next = spare.head, spare.head = c, spare.n++;
  pthread_mutex_unlock(&spare.lock);
  return kept;
}

arena *arena_new(void) {
  arena *a = xcalloc(1, sizeof *a);
  a->head = NULL;
  return a;
}

void arena_free(arena *a) {
  if (!a)
    return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    if (!chunk_kept(c))
      free(c);
  }
  free(a);
}

enum { ARENA_CHUNK_MAX = 4 << 20 };

/* A chunk of the largest size is filled to its end (the arena is a big one already, a
 * 50 MB model's syntax tree): its pages are mapped in one call rather than by a fault
 * each, a third of checking such a model's time here. Where the kernel cannot (before
 * Linux 5.14, elsewhere), the pages are faulted in as they are written. */
static void chunk_prefault(chunk *c) {
#ifdef MADV_POPULATE_WRITE
  uintptr_t page = 4096, lo = ((uintptr_t)c->data + page - 1) & ~(page - 1);
  uintptr_t hi = ((uintptr_t)c->data + c->size) & ~(page - 1);
  if (hi > lo)
    (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
  (void)c;
#endif
}

void *arena_alloc_aligned(arena *a, size_t size, size_t align) {
  chunk *c = a->head;
  size_t at = c ? (c->used + align - 1) / align * align : 0;
  if (!c || at > c->size || c->size - at < size) {
    /* Each chunk twice the last, up to 4 MiB: a large file's arena takes few chunks, and
     * from 128 KiB on they are fresh mappings, zeroed by the kernel, not by calloc. The
     * first, of the usual size, may be a spare. */
    size_t cap = c ? (c->size < ARENA_CHUNK_MAX / 2 ? c->size * 2 : ARENA_CHUNK_MAX) : CHUNK_BYTES;
    if (cap < size)
      cap = size;
    c = cap == CHUNK_BYTES ? chunk_reused() : NULL;
    if (!c) {
      c = xcalloc(1, sizeof *c + cap);
      c->size = cap;
      c->used = 0;
      if (cap == ARENA_CHUNK_MAX)
        chunk_prefault(c);
    }
    c->next = a->head;
    a->head = c;
    at = 0;
  }
  c->used = at + size;
  return (char *)c->data + at;
}

void *arena_alloc(arena *a, size_t size) {
  /* the alignment, not the size, of max_align_t (16 and 32 bytes on x86-64): a symbol
   * or a leaf of the syntax tree would take twice its room */
  return arena_alloc_aligned(a, size, _Alignof(max_align_t));
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *d = arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void *grow_array(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  size_t c = *cap ? *cap : 8;
  while (c < need)
    c *= 2;
  void *q = xrealloc(p, c * elem);
  *cap = c;
  return q;
}

/* ---- symbols ---- */

struct symtab {
  arena *ar;
  struct symbol **slots;
  size_t cap;
  uint32_t count;
};

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

symtab *symtab_new(void) {
  symtab *t = xcalloc(1, sizeof *t);
  t->ar = arena_new();
  t->cap = 256;
  t->slots = xcalloc(t->cap, sizeof *t->slots);
  t->count = 0;
  return t;
}

void symtab_free(symtab *t) {
  if (!t)
    return;
  arena_free(t->ar);
  free(t->slots);
  free(t);
}

uint32_t symtab_count(const symtab *t) { return t->count; }

/* Open addressing stays fast up to three quarters full; tables of 600 000 names or
 * parameters are common enough (generated models) that half full would cost megabytes. */
static bool table_full(size_t count, size_t cap) { return 4 * (count + 1) > 3 * cap; }

sym sym_intern(symtab *t, const char *s, size_t n) {
  if (table_full(t->count, t->cap)) {
    size_t cap = t->cap * 2;
    struct symbol **slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
      struct symbol *y = t->slots[i];
      if (!y)
        continue;
      size_t j = y->hash & (cap - 1);
      while (slots[j])
        j = (j + 1) & (cap - 1);
      slots[j] = y;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
  }
  uint32_t h = hash_bytes(s, n);
  size_t j = h & (t->cap - 1);
  for (; t->slots[j]; j = (j + 1) & (t->cap - 1)) {
    const struct symbol *y = t->slots[j];
    if (y->hash == h && strncmp(y->name, s, n) == 0 && y->name[n] == 0)
      return y;
  }
  /* the name right after the symbol: one allocation, 24 bytes for a short name */
  struct symbol *y = arena_alloc_aligned(t->ar, sizeof *y + n + 1, _Alignof(struct symbol));
  char *name = (char *)(y + 1);
  memcpy(name, s, n);
  name[n] = 0;
  y->name = name;
  y->hash = h;
  y->id = t->count++;
  t->slots[j] = y;
  return y;
}

/* ---- pointer maps (open addressing) ---- */

static size_t ptr_hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

size_t ptrmap_slot(const ptrmap *m, const void *key) {
  if (!m->cap)
    return 0;
  for (size_t j = ptr_hash(key) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1))
    if (m->keys[j] == key)
      return j;
  return m->cap;
}

void *ptrmap_get(const ptrmap *m, const void *key) {
  size_t j = ptrmap_slot(m, key);
  return j < m->cap ? m->vals[j] : NULL;
}

/* m with room for `count` keys: its slots doubled until they are enough. */
static void ptrmap_grow(ptrmap *m, size_t count) {
  size_t cap = m->cap ? m->cap : 16;
  while (table_full(count, cap))
    cap *= 2;
  if (cap == m->cap)
    return;
  ptrmap bigger = {.cap = cap};
  bigger.keys = xcalloc(bigger.cap, sizeof *bigger.keys);
  bigger.vals = xcalloc(bigger.cap, sizeof *bigger.vals);
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i])
      ptrmap_put(&bigger, m->keys[i], m->vals[i]);
  ptrmap_free(m);
  *m = bigger;
}

void ptrmap_reserve(ptrmap *m, size_t more) { ptrmap_grow(m, m->count + more); }

void ptrmap_put(ptrmap *m, const void *key, void *val) {
  ptrmap_grow(m, m->count);
  size_t j = ptr_hash(key) & (m->cap - 1);
  for (; m->keys[j]; j = (j + 1) & (m->cap - 1))
    if (m->keys[j] == key) {
      m->vals[j] = val;
      return;
    }
  m->keys[j] = key;
  m->vals[j] = val;
  m->count++;
}

void ptrmap_free(ptrmap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---- string buffers ---- */

void sb_putn(strbuf *b, const char *s, size_t n) {
  b->s = grow_array(b->s, &b->cap, b->len + n + 1, 1);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void sb_puts(strbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0)
    return;
  b->s = grow_array(b->s, &b->cap, b->len + (size_t)n + 1, 1);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

char *sb_take(strbuf *b) {
  char *s = b->s ? b->s : xcalloc(1, 1); /* "" */
  b->s = NULL;
  b->len = b->cap = 0;
  return s;
}

/* ---- numbers ---- */

void fmt_double(char *buf, size_t n, double v) {
  char tmp[40] = "0";
  for (int prec = 15; v != 0 && prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  if (n > 0) {
    size_t len = strlen(tmp) < n - 1 ? strlen(tmp) : n - 1;
    memcpy(buf, tmp, len);
    buf[len] = 0;
  }
}

void tlop_format_size(char *buf, size_t n, double bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = bytes;
  int u = 0;
  /* Use a binary unit only when the value is a whole number of it. */
  while (u < 4 && fabs(v) >= 1024 && fmod(v, 1024) == 0) {
    v /= 1024;
    u++;
  }
  char num[40];
  fmt_double(num, sizeof num, v);
  snprintf(buf, n, "%s %s", num, units[u]);
}

void tlop_format_time(char *buf, size_t n, double s) {
  double a = fabs(s);
  if (a == 0 || !isfinite(s))
    snprintf(buf, n, "%g s", s);
  else if (a < 1e-6)
    snprintf(buf, n, "%.4g ns", s * 1e9);
  else if (a < 1e-3)
    snprintf(buf, n, "%.4g µs", s * 1e6);
  else if (a < 1)
    snprintf(buf, n, "%.4g ms", s * 1e3);
  else
    snprintf(buf, n, "%.4g s", s);
}

double clock_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define FILE_MAX_BYTES ((size_t)FILE_MAX_MIB << 20)
#define STRINGIFY(x) #x
#define MIB_TEXT(n) STRINGIFY(n) " MiB"

/* Reads what `fd` holds, up to `limit` bytes; `size` is the regular file's size (0 for a
 * stream), read at once; a stream grows its buffer. One byte past either tells a file
 * that grew, or a stream over the limit. */
static const char *read_fd(arena *ar, int fd, size_t size, bool stream, char **text, size_t *len) {
  size_t cap = (stream ? 64 << 10 : size + 1) + 1, n = 0;
  char *buf = ar && !stream ? arena_alloc(ar, cap) : xmalloc(cap);
  for (;;) {
    if (n + 1 == cap) {
      if (!stream || n > FILE_MAX_BYTES)
        break;
      buf = xrealloc(buf, cap = cap * 2 > FILE_MAX_BYTES + 2 ? FILE_MAX_BYTES + 2 : cap * 2);
    }
    ssize_t got = read(fd, buf + n, cap - 1 - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      const char *why = strerror(errno);
      if (!ar || stream)
        free(buf);
      return why;
    }
    if (got == 0)
      break;
    n += (size_t)got;
  }
  const char *why = NULL;
  if (stream && n > FILE_MAX_BYTES)
    why = "larger than " MIB_TEXT(FILE_MAX_MIB);
  else if (!stream && n > size)
    /* files of /proc and the like say size 0 and hold text that changes as it is read */
    why = size == 0 ? "its size is unknown (not a file on disk)" : "the file changed while being read";
  if (why) {
    if (!ar || stream)
      free(buf);
    return why;
  }
  buf[n] = 0;
  if (ar && stream) {
    char *copy = arena_strndup(ar, buf, n);
    free(buf);
    buf = copy;
  }
  *text = buf;
  *len = n;
  return NULL;
}

const char *file_read(arena *ar, const char *path, char **text, size_t *len) {
  bool from_stdin = !strcmp(path, "-");
  /* O_NONBLOCK: opening a FIFO without a writer would wait for one */
  int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0)
    return errno == ELOOP ? "a loop of symbolic links" : strerror(errno);
  struct stat st;
  const char *why = NULL;
  if (fstat(fd, &st) != 0)
    why = strerror(errno);
  else if (S_ISDIR(st.st_mode) || (!from_stdin && !S_ISREG(st.st_mode)))
    why = "not a regular file";
  else if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > FILE_MAX_BYTES)
    why = "larger than " MIB_TEXT(FILE_MAX_MIB);
  else
    why = read_fd(ar, fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, !S_ISREG(st.st_mode),
                  text, len);
  if (!from_stdin)
    close(fd);
  return why;
}

unsigned name_distance(const char *a, const char *b) {
  size_t n = strlen(b);
  if (strlen(a) > 40 || n > 40)
    return 99;
  unsigned row[41];
  for (size_t j = 0; j <= n; j++)
    row[j] = (unsigned)j;
  for (size_t i = 1; a[i - 1]; i++) {
    unsigned diag = row[0];
    row[0] = (unsigned)i;
    for (size_t j = 1; j <= n; j++) {
      unsigned up = row[j];
      unsigned best = diag + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[n];
}

unsigned tlop_name_distance(const char *a, const char *b) { return name_distance(a, b); }

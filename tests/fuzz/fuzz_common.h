/* fuzz_common.h — what the libFuzzer targets of tests/fuzz share: a diagnostic handler
 * that keeps messages in a bounded buffer (the library never prints; a fuzzer must not
 * either), and FUZZ_CHECK, which aborts with a message so that libFuzzer records the
 * input as a crash when a property of the API does not hold. */
#ifndef TLOP_FUZZ_COMMON_H
#define TLOP_FUZZ_COMMON_H

#include "tlop.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Diagnostics of one input: the last 16 KiB of their renderings, and counts. */
typedef struct fuzz_diags {
  char text[16384];
  size_t len;
  int errors, warnings, notes;
} fuzz_diags;

static inline void fuzz_diag_fn(void *user, const tlop_diag *d) {
  fuzz_diags *db = user;
  /* Every diagnostic has a message and a rendering; locations are 1-based or 0. */
  if (!d || !d->message || !d->text || d->line < 0 || d->col < 0 ||
      (d->severity != TLOP_ERROR && d->severity != TLOP_WARNING && d->severity != TLOP_NOTE)) {
    fprintf(stderr, "fuzz: malformed diagnostic\n");
    abort(); /* libFuzzer records the input */
  }
  db->errors += d->severity == TLOP_ERROR;
  db->warnings += d->severity == TLOP_WARNING;
  db->notes += d->severity == TLOP_NOTE;
  size_t n = strlen(d->text);
  if (n + 2 > sizeof db->text - db->len) /* keep the newest: start over when full */
    db->len = 0;
  if (n + 2 > sizeof db->text)
    n = sizeof db->text - 2;
  memcpy(db->text + db->len, d->text, n);
  db->len += n;
  db->text[db->len++] = '\n';
  db->text[db->len] = 0;
}

/* Known open bugs, by name (tests/fuzz/known-bugs): a property guarded by
 * fuzz_known("NAME") is not checked while NAME is listed in the environment variable
 * TLOP_FUZZ_KNOWN (names separated by commas or spaces), which run.sh and ctest set from
 * that file. Deleting a name there turns its check back on. */
static inline int fuzz_known(const char *name) {
  const char *list = getenv("TLOP_FUZZ_KNOWN");
  size_t n = strlen(name);
  while (list && *list) {
    list += strspn(list, ", \t\n");
    size_t k = strcspn(list, ", \t\n");
    if (k == n && strncmp(list, name, n) == 0)
      return 1;
    list += k;
  }
  return 0;
}

/* Where a failed property goes: abort() (libFuzzer records the input), or, when a
 * program that only shows inputs set it, back there to go on with the next input. */
static jmp_buf *fuzz_on_failure;

static inline void fuzz_fail(void) {
  if (fuzz_on_failure)
    longjmp(*fuzz_on_failure, 1);
  abort();
}

static inline const char *fuzz_diag_text(const fuzz_diags *db) { return db ? db->text : ""; }

/* A property that must hold for every input; when it does not, the input is a finding. */
#define FUZZ_CHECK(cond, db, ...)                                                           \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      fprintf(stderr, "fuzz: property failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                         \
      fprintf(stderr, "\n--- diagnostics so far ---\n%s", fuzz_diag_text(db));               \
      fuzz_fail();                                                                            \
    }                                                                                       \
  } while (0)

/* The bytes of an input file (the first 1 MiB), in a buffer the next call reuses; NULL,
 * with the reason on stderr, when it cannot be read. For the plain programs that replay
 * inputs without libFuzzer. */
static inline const uint8_t *fuzz_read_file(const char *path, size_t *len) {
  static uint8_t buf[1 << 20];
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  *len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return buf;
}

#endif

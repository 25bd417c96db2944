/* memory.c — the memory of the command: the bound of --max-memory, enforced by the
 * kernel (RLIMIT_DATA), the library's out-of-memory handler that names it, and the stack
 * that the recursive stages need for the deepest expressions. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "cli.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* AddressSanitizer reserves terabytes of address space and its own heap: no bound there. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* The stack of the command: the recursive stages take about 10 MiB for an expression of
 * the deepest --max-depth (20000 levels), 60 MiB under AddressSanitizer. */
#define CLI_STACK ((rlim_t)64 << 20)

/* The bound in force (bytes), 0 when none, and what set it: named by the out-of-memory
 * message. */
static double memory_bound;
static const char *memory_bound_source = "--max-memory";

/* The library refused an allocation: say why, and fail as a bad input does. */
static void report_out_of_memory(size_t bytes) {
  char size[40];
  if (memory_bound > 0) {
    tlop_format_size(size, sizeof size, memory_bound);
    fprintf(stderr, "tlop: out of memory: more than %s (%s)\n", size, memory_bound_source);
  } else if (bytes) {
    tlop_format_size(size, sizeof size, (double)bytes);
    fprintf(stderr, "tlop: out of memory: the system refused %s\n", size);
  } else {
    fputs("tlop: out of memory\n", stderr);
  }
  exit(EXIT_INPUT);
}

static void new_failed(void) { report_out_of_memory(0); }

static void llvm_alloc_failed(void *data, const char *reason, bool crash_diag) {
  (void)data, (void)reason, (void)crash_diag;
  report_out_of_memory(0);
}

/* A function of the process's C++ libraries by its (mangled) name, NULL when absent. */
static void (*cxx_function(const char *name))(void) {
  void *sym = dlsym(RTLD_DEFAULT, name);
  void (*fn)(void) = NULL;
  if (sym)
    memcpy(&fn, &sym, sizeof sym); /* ISO C casts no object pointer to a function */
  return fn;
}

/* LLVM allocates with C++ new, which past the bound throws std::bad_alloc, and with its
 * own safe_malloc, which reports "LLVM ERROR: out of memory": either would abort the
 * command. Their handlers (std::set_new_handler, llvm::install_bad_alloc_error_handler,
 * which LLVM-C does not wrap; absent without the JIT) report it as the library's own
 * failures are. */
static void catch_failed_cxx_allocations(void) {
  typedef void (*(*set_new_handler_fn)(void (*)(void)))(void);
  typedef void (*install_llvm_fn)(void (*)(void *, const char *, bool), void *);
  set_new_handler_fn set_new_handler = (set_new_handler_fn)cxx_function("_ZSt15set_new_handlerPFvvE");
  install_llvm_fn install_llvm =
      (install_llvm_fn)cxx_function("_ZN4llvm31install_bad_alloc_error_handlerEPFvPvPKcbES0_");
  if (set_new_handler)
    set_new_handler(new_failed);
  if (install_llvm)
    install_llvm(llvm_alloc_failed, NULL);
}

void cli_limit_memory(double bytes) {
  tlop_set_oom_handler(report_out_of_memory);
  catch_failed_cxx_allocations();
  struct rlimit lim;
  if (UNDER_ASAN || getrlimit(RLIMIT_DATA, &lim) != 0)
    return;
  /* the hard limit set by the system stays: only the soft one moves, up or down */
  rlim_t want = bytes >= (double)lim.rlim_max ? lim.rlim_max : (rlim_t)bytes;
  lim.rlim_cur = want;
  if (setrlimit(RLIMIT_DATA, &lim) == 0)
    memory_bound = want == RLIM_INFINITY ? 0 : (double)want;
  /* a smaller bound of the whole address space (ulimit -v) is the one that is met first */
  struct rlimit space;
  if (getrlimit(RLIMIT_AS, &space) == 0 && space.rlim_cur != RLIM_INFINITY &&
      (memory_bound == 0 || (double)space.rlim_cur < memory_bound)) {
    memory_bound = (double)space.rlim_cur;
    memory_bound_source = "the address space's limit, ulimit -v";
  }
}

void cli_grow_stack(void) {
  struct rlimit lim;
  if (getrlimit(RLIMIT_STACK, &lim) != 0 || lim.rlim_cur >= CLI_STACK)
    return;
  /* the main thread's stack grows on demand up to the current limit, so raising it here
   * is enough; the hard limit set by the system stays */
  lim.rlim_cur = lim.rlim_max < CLI_STACK ? lim.rlim_max : CLI_STACK;
  setrlimit(RLIMIT_STACK, &lim);
}

bool cli_memory_value(cli *c, const char *arg, double *bytes) {
  static const struct {
    const char *suffix;
    double scale;
  } units[] = {{"", 1},          {"B", 1},     {"KiB", 0x1p10}, {"MiB", 0x1p20}, {"GiB", 0x1p30},
               {"TiB", 0x1p40},  {"kB", 1e3},  {"MB", 1e6},     {"GB", 1e9},     {"TB", 1e12}};
  char *end;
  errno = 0;
  double v = strtod(arg, &end);
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (!errno && v > 0 && !strcmp(end, units[i].suffix) && isfinite(v * units[i].scale) &&
        v * units[i].scale >= 1) {
      *bytes = v * units[i].scale;
      return true;
    }
  cli_usage_error(c->cmd, "--max-memory takes a size such as 512MiB, 2GiB or a number of "
                  "bytes, not '%s'", arg);
  return false;
}

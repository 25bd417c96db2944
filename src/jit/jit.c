/* jit.c — the LLVM side of the JIT: one-time target set-up, the host target machine, an
 * ORC LLJIT that links objects and resolves libm from the process, the new-pass-manager
 * pipeline, and the object cache on disk. Every module is compiled to an object here and
 * that object is what the JIT links, so a cache hit skips optimisation and codegen. */
#include "jit_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double jit_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

tlop_status jit_fail(tlop_ctx *ctx, LLVMErrorRef err, const char *what) {
  char *msg = LLVMGetErrorMessage(err); /* consumes err */
  diag_error(ctx, (span){0}, "%s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
  return TLOP_ERR_INTERNAL;
}

tlop_status jit_fail_message(tlop_ctx *ctx, char *msg, const char *what) {
  diag_error(ctx, (span){0}, "%s: %s", what, msg ? msg : "(no message)");
  LLVMDisposeMessage(msg);
  return TLOP_ERR_INTERNAL;
}

static void init_targets(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
}

tlop_status jit_target_machine(tlop_ctx *ctx, bool host, LLVMCodeGenOptLevel level,
                               LLVMTargetMachineRef *out) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_targets);
  char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
    LLVMDisposeMessage(triple);
    return jit_fail_message(ctx, msg, "no LLVM target for this machine");
  }
  char *cpu = host ? LLVMGetHostCPUName() : NULL, *features = host ? LLVMGetHostCPUFeatures() : NULL;
  /* This CPU's features, without AVX-512: the kernels are scalar, and its mask registers,
   * which LLVM then uses for every compare and select, made them 10-15 % slower. */
  strbuf feat = {0};
  sb_printf(&feat, "%s%s-avx512f", features ? features : "", features && *features ? "," : "");
  /* Position-independent code: an emitted object links into PIE executables and
   * shared libraries, and JITLink takes it as well. */
  *out = LLVMCreateTargetMachine(target, triple, host ? cpu : "generic", host ? feat.s : "",
                                 level, LLVMRelocPIC, LLVMCodeModelDefault);
  free(feat.s);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  if (!*out) {
    diag_error(ctx, (span){0}, "LLVM cannot create a target machine for this host");
    return TLOP_ERR_INTERNAL;
  }
  return TLOP_OK;
}

tlop_status jit_optimize(tlop_ctx *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm,
                         const char *passes) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, layout);
  LLVMDisposeTargetData(layout);
  char *msg = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
    return jit_fail_message(ctx, msg, "the JIT generated invalid LLVM IR (a tlop bug)");
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(m, passes, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  return err ? jit_fail(ctx, err, "LLVM optimisation failed") : TLOP_OK;
}

/* ---- the JIT instance ---- */

static char *default_cache_dir(void) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  strbuf b = {0};
  if (xdg && xdg[0] == '/')
    sb_printf(&b, "%s/tlop", xdg);
  else if (home && *home)
    sb_printf(&b, "%s/.cache/tlop", home);
  return b.s;
}

tlop_status tlop_jit_new(tlop_ctx *ctx, tlop_jit **out) {
  *out = NULL;
  tlop_jit *jit = xcalloc(1, sizeof *jit);
  jit->ctx = ctx;
  jit->cache_dir = default_cache_dir();
  jit->passes = JIT_PASSES;
  tlop_status st = jit_target_machine(ctx, true, LLVMCodeGenLevelDefault, &jit->tm);
  if (st != TLOP_OK)
    goto fail;
  /* Ownership: the builder passes to LLVMOrcCreateLLJIT, even when that fails. */
  LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit->lljit, LLVMOrcCreateLLJITBuilder());
  if (err) {
    st = jit_fail(ctx, err, "cannot start the LLVM JIT");
    goto fail;
  }
  jit->jd = LLVMOrcLLJITGetMainJITDylib(jit->lljit);
  /* Kernels call libm (pow, log, …): resolve such names in this process. */
  LLVMOrcDefinitionGeneratorRef gen;
  err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &gen, LLVMOrcLLJITGetGlobalPrefix(jit->lljit), NULL, NULL);
  if (err) {
    st = jit_fail(ctx, err, "cannot give the JIT this process's symbols");
    goto fail;
  }
  LLVMOrcJITDylibAddGenerator(jit->jd, gen); /* the JITDylib owns the generator now */
  /* ... and libtlop's run-time routines, which this process need not export (a static
   * libtlop, or hidden symbols): by their address. */
  LLVMJITSymbolFlags callable = {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0};
  LLVMOrcCSymbolMapPair rt[2] = {
      {LLVMOrcLLJITMangleAndIntern(jit->lljit, JIT_RT_MESSAGES),
       {(LLVMOrcExecutorAddress)(uintptr_t)tlop_rt_messages, callable}},
      {LLVMOrcLLJITMangleAndIntern(jit->lljit, JIT_RT_MESSAGES_REGULAR),
       {(LLVMOrcExecutorAddress)(uintptr_t)tlop_rt_messages_regular, callable}}};
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(rt, 2);
  err = LLVMOrcJITDylibDefine(jit->jd, mu); /* owns mu, unless it fails */
  if (err) {
    LLVMOrcDisposeMaterializationUnit(mu);
    st = jit_fail(ctx, err, "cannot give the JIT tlop's run-time routines");
    goto fail;
  }
  jit->llctx = LLVMContextCreate();
  *out = jit;
  return TLOP_OK;
fail:
  tlop_jit_free(jit);
  return st;
}

void tlop_jit_free(tlop_jit *jit) {
  if (!jit)
    return;
  if (jit->lljit) {
    LLVMErrorRef err = LLVMOrcDisposeLLJIT(jit->lljit);
    if (err)
      jit_fail(jit->ctx, err, "stopping the LLVM JIT");
  }
  if (jit->tm)
    LLVMDisposeTargetMachine(jit->tm);
  if (jit->tm_quick)
    LLVMDisposeTargetMachine(jit->tm_quick);
  if (jit->llctx)
    LLVMContextDispose(jit->llctx);
  free(jit->cache_dir);
  free(jit->loaded);
  free(jit);
}

tlop_status tlop_jit_set_cache(tlop_jit *jit, int enabled, const char *dir) {
  char *d = !enabled ? NULL : dir ? xstrdup(dir) : default_cache_dir();
  free(jit->cache_dir);
  jit->cache_dir = d;
  return TLOP_OK;
}

void tlop_jit_set_jobs(tlop_jit *jit, int jobs) { jit->jobs = jobs > 0 ? jobs : 0; }

void tlop_jit_expect_points(tlop_jit *jit, size_t npoints) { jit->points = npoints; }

/* ---- the object cache ---- */

static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* The key of a module: its IR and everything else that shapes the object. The IR is
 * hashed as bitcode, which holds what its text holds, and is written ten times faster
 * (≈ 0.1 ms against 1.3 ms for a stdlib algorithm): most of what a cache hit costs. */
static uint64_t module_key(tlop_jit *jit, LLVMModuleRef m, const char *passes) {
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
  uint64_t h = fnv1a(0xcbf29ce484222325ull, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc));
  LLVMDisposeMemoryBuffer(bc);
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  char *cpu = LLVMGetTargetMachineCPU(jit->tm), *features = LLVMGetTargetMachineFeatureString(jit->tm);
  strbuf b = {0};
  sb_printf(&b, "llvm %u.%u.%u tlop %s %s %s %s", major, minor, patch, TLOP_VERSION, passes, cpu,
            features);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  h = fnv1a(h, b.s, b.len);
  free(b.s);
  return h;
}

static char *cache_path(const tlop_jit *jit, uint64_t key) {
  strbuf b = {0};
  sb_printf(&b, "%s/%016llx.o", jit->cache_dir, (unsigned long long)key);
  return b.s;
}

/* The cached object, or NULL when there is none (or it cannot be read). */
static LLVMMemoryBufferRef cache_read(const tlop_jit *jit, uint64_t key) {
  if (!jit->cache_dir)
    return NULL;
  char *path = cache_path(jit, key);
  LLVMMemoryBufferRef buf = NULL;
  char *text;
  size_t len;
  /* a FIFO or device planted under the cached name is a miss, not a hang */
  if (!file_read(NULL, path, &text, &len)) {
    buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, len, path);
    free(text);
  }
  free(path);
  return buf;
}

static void mkdirs(const char *dir) {
  char *d = xstrdup(dir);
  for (char *p = d + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(d, 0755);
      *p = '/';
    }
  mkdir(d, 0755);
  free(d);
}

/* Best effort: a cache that cannot be written costs a compilation next time, nothing
 * more. The object appears under its name whole or not at all (write, then rename). */
static void cache_write(const tlop_jit *jit, uint64_t key, LLVMMemoryBufferRef obj) {
  if (!jit->cache_dir)
    return;
  mkdirs(jit->cache_dir);
  char *path = cache_path(jit, key);
  strbuf tmp = {0};
  sb_printf(&tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp.s, "wb");
  if (f) {
    size_t n = LLVMGetBufferSize(obj);
    bool ok = fwrite(LLVMGetBufferStart(obj), 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp.s, path) != 0)
      unlink(tmp.s);
  }
  free(tmp.s);
  free(path);
}

static bool was_loaded(const tlop_jit *jit, uint64_t key) {
  for (size_t i = 0; i < jit->nloaded; i++)
    if (jit->loaded[i] == key)
      return true;
  return false;
}

/* Gives the functions names unique to this module's key, so modules never clash in the
 * JIT and a cached object carries the names it is looked up by. */
static tlop_status rename_functions(tlop_jit *jit, LLVMModuleRef m, uint64_t key,
                                    const char *const *fns, size_t n, char **names) {
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, fns[i]);
    if (!fn) {
      diag_error(jit->ctx, (span){0}, "the JIT module has no function '%s' (a tlop bug)", fns[i]);
      return TLOP_ERR_INTERNAL;
    }
    strbuf b = {0};
    sb_printf(&b, "tlop_%016llx_%zu", (unsigned long long)key, i);
    LLVMSetValueName2(fn, b.s, b.len);
    names[i] = b.s;
  }
  return TLOP_OK;
}

static tlop_status compile_object(tlop_jit *jit, LLVMModuleRef m, bool quick,
                                  LLVMMemoryBufferRef *obj) {
  double t0 = jit_now_ms();
  tlop_status st = TLOP_OK;
  if (quick && !jit->tm_quick)
    st = jit_target_machine(jit->ctx, true, LLVMCodeGenLevelNone, &jit->tm_quick);
  LLVMTargetMachineRef tm = quick ? jit->tm_quick : jit->tm;
  if (st == TLOP_OK)
    st = jit_optimize(jit->ctx, m, tm, quick ? JIT_QUICK_PASSES : jit->passes);
  if (st != TLOP_OK)
    return st;
  double t1 = jit_now_ms();
  char *msg = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, obj))
    return jit_fail_message(jit->ctx, msg, "LLVM code generation failed");
  jit->stats.opt_ms = t1 - t0;
  jit->stats.codegen_ms = jit_now_ms() - t1;
  return TLOP_OK;
}

/* Links an object into the JIT; false (the error consumed) when it is not a valid one. */
static bool link_object(tlop_jit *jit, LLVMMemoryBufferRef obj, tlop_status *st, bool quiet) {
  /* Ownership: the buffer passes to the JIT whether or not adding succeeds. */
  LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(jit->lljit, jit->jd, obj);
  if (!err)
    return true;
  if (quiet)
    LLVMConsumeError(err);
  else
    *st = jit_fail(jit->ctx, err, "the JIT cannot link the compiled kernels");
  return false;
}

tlop_status jit_load(tlop_jit *jit, LLVMModuleRef m, bool quick, const char *const *fns,
                     size_t n, void **addrs) {
  jit_stats *s = &jit->stats;
  memset(s, 0, sizeof *s);
  s->quick = quick;
  double t0 = jit_now_ms();
  uint64_t key = module_key(jit, m, quick ? JIT_QUICK_PASSES : jit->passes);
  char **names = xcalloc(n + 1, sizeof *names);
  tlop_status st = rename_functions(jit, m, key, fns, n, names);
  s->hash_ms = jit_now_ms() - t0;
  s->loaded = was_loaded(jit, key);
  if (st == TLOP_OK && !s->loaded) {
    /* A cached object that does not link (damaged) is compiled again. */
    LLVMMemoryBufferRef obj = cache_read(jit, key);
    s->cache_hit = obj && link_object(jit, obj, &st, true);
    if (!s->cache_hit && (st = compile_object(jit, m, quick, &obj)) == TLOP_OK) {
      cache_write(jit, key, obj);
      link_object(jit, obj, &st, false);
    }
    if (st == TLOP_OK)
      VEC_PUSH(jit->loaded, jit->nloaded, jit->loaded_cap, key);
  }
  LLVMDisposeModule(m);
  double t1 = jit_now_ms();
  for (size_t i = 0; i < n && st == TLOP_OK; i++) {
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef err = LLVMOrcLLJITLookup(jit->lljit, &addr, names[i]);
    if (err)
      st = jit_fail(jit->ctx, err, "the JIT cannot find a compiled kernel");
    addrs[i] = (void *)(uintptr_t)addr;
  }
  s->link_ms = jit_now_ms() - t1;
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return st;
}

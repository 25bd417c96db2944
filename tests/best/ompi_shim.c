/* ompi_shim.c — an LD_PRELOAD library that logs which of Open MPI's coll base algorithms
 * each collective call reaches: coll_tuned (mca_coll_tuned.so) calls the exported
 * ompi_coll_base_* functions of libmpi through its PLT, so a function of the same name
 * here is found first. Each stub saves the argument registers, logs its name to
 * $TLOP_SHIM_LOG.<pid> and jumps to the real function (dlsym RTLD_NEXT) with the
 * registers and the stack as they came: no signature needs to be known. x86-64 only.
 * all_colls.c writes its own marks to the same log through tlop_shim_mark. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *log_file(void) {
  static FILE *f;
  if (!f) {
    const char *base = getenv("TLOP_SHIM_LOG");
    char path[4096];
    snprintf(path, sizeof path, "%s.%ld", base ? base : "/tmp/tlop_shim", (long)getpid());
    f = fopen(path, "a");
    if (!f)
      abort();
    setvbuf(f, NULL, _IOLBF, 0);
  }
  return f;
}

void tlop_shim_mark(const char *text) { fprintf(log_file(), "mark %s\n", text); }

/* Called by every stub with its name: logs it, returns the real function. */
void *tlop_shim_hit(const char *name) {
  fprintf(log_file(), "call %s\n", name);
  void *real = dlsym(RTLD_NEXT, name);
  if (!real)
    abort();
  return real;
}

/* The six integer argument registers saved around the call (and the stack kept 16-byte
 * aligned: 6 pushes + the return address = 56 bytes, so 8 more), then a jump. */
#define STUB(name)                                                                            \
  __asm__(".globl " #name "\n.type " #name ", @function\n" #name ":\n"                       \
          "push %rdi\npush %rsi\npush %rdx\npush %rcx\npush %r8\npush %r9\nsub $8, %rsp\n"   \
          "lea name_" #name "(%rip), %rdi\ncall tlop_shim_hit\n"                             \
          "add $8, %rsp\npop %r9\npop %r8\npop %rcx\npop %rdx\npop %rsi\npop %rdi\n"         \
          "jmp *%rax\n.size " #name ", .-" #name "\n"                                         \
          ".section .rodata\nname_" #name ": .asciz \"" #name "\"\n.text\n");

STUB(ompi_coll_base_bcast_intra_basic_linear)
STUB(ompi_coll_base_bcast_intra_chain)
STUB(ompi_coll_base_bcast_intra_pipeline)
STUB(ompi_coll_base_bcast_intra_split_bintree)
STUB(ompi_coll_base_bcast_intra_bintree)
STUB(ompi_coll_base_bcast_intra_binomial)
STUB(ompi_coll_base_bcast_intra_knomial)
STUB(ompi_coll_base_bcast_intra_scatter_allgather)
STUB(ompi_coll_base_bcast_intra_scatter_allgather_ring)
STUB(ompi_coll_base_allreduce_intra_basic_linear)
STUB(ompi_coll_base_allreduce_intra_nonoverlapping)
STUB(ompi_coll_base_allreduce_intra_recursivedoubling)
STUB(ompi_coll_base_allreduce_intra_ring)
STUB(ompi_coll_base_allreduce_intra_ring_segmented)
STUB(ompi_coll_base_allreduce_intra_redscat_allgather)
STUB(ompi_coll_base_allgather_intra_basic_linear)
STUB(ompi_coll_base_allgather_intra_bruck)
STUB(ompi_coll_base_allgather_intra_recursivedoubling)
STUB(ompi_coll_base_allgather_intra_ring)
STUB(ompi_coll_base_allgather_intra_neighborexchange)
STUB(ompi_coll_base_allgather_intra_two_procs)
STUB(ompi_coll_base_reduce_scatter_intra_nonoverlapping)
STUB(ompi_coll_base_reduce_scatter_intra_basic_recursivehalving)
STUB(ompi_coll_base_reduce_scatter_intra_ring)
STUB(ompi_coll_base_reduce_scatter_intra_butterfly)
STUB(ompi_coll_base_barrier_intra_basic_linear)
STUB(ompi_coll_base_barrier_intra_doublering)
STUB(ompi_coll_base_barrier_intra_recursivedoubling)
STUB(ompi_coll_base_barrier_intra_bruck)
STUB(ompi_coll_base_barrier_intra_two_procs)
STUB(ompi_coll_base_barrier_intra_tree)
STUB(ompi_coll_base_alltoallv_intra_basic_linear)
STUB(ompi_coll_base_alltoallv_intra_pairwise)

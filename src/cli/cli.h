/* cli.h — what the subcommands of the `tlop` command share: the options every one of
 * them takes, and the steps that turn those options into a model, values and a platform. */
#ifndef TLOP_CLI_H
#define TLOP_CLI_H

#include "tlop.h"
#include "tlop_jit.h"

#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* Most points of a grid unless --max-points: 1e8 points of a few doubles each are GBs. */
#define DEFAULT_MAX_POINTS 1e8
/* Most memory of a command unless --max-memory: room for a sweep of DEFAULT_MAX_POINTS
 * (2.4 GB over two axes), while a runaway input stops long before it swaps. */
#define DEFAULT_MAX_MEMORY 0x1p32

typedef struct cli_opts {
  const char *platform;
  const char **params; /* [CHANNEL=]FILE */
  size_t nparams;
  const char **sets;   /* name=value[,name=value…] */
  size_t nsets;
  const char **grids;  /* NAME=spec */
  size_t ngrids;
  double max_points;   /* --max-points; 0: DEFAULT_MAX_POINTS */
  const char *format;
  const char *output;
  bool no_progress;
  bool strict;         /* --strict */
  const char *engine;  /* --engine (cmd_emit.c) */
  int jobs;            /* --jobs; 0: the cores */
  bool no_cache;       /* --no-cache */
} cli_opts;

typedef struct cli {
  tlop_ctx *ctx;
  const char *cmd; /* the subcommand, for messages */
  bool misused;    /* a bad option value (--set, --grid): exit 2, not 1 */
  const char *allowed; /* shared options this command takes (see cli_allow) */
  cli_opts o;
  tlop_jit *jit;   /* started on first use (cmd_emit.c); the command closes it */
} cli;

/* The exit status of a failed command: 2 after a bad option value (with the hint to
 * --help), else 1. */
int cli_failed(cli *c);
/* Every name of --set is a param of the model or a variable of one of the expressions
 * built from texts (an algorithm's parameters count, used or not): else a misuse, with
 * the nearest such name ("did you mean"). A misspelt name would be ignored silently. */
typedef struct cli_set_users {
  char *const *texts;        /* expressions or algorithm names */
  tlop_expr *const *exprs;   /* built from texts; NULL when texts are algorithm names */
  size_t n;
  const char *const *others; /* more names the command uses (the claims' variables) */
  size_t nothers;
} cli_set_users;
bool cli_check_sets(cli *c, tlop_model *m, const cli_set_users *users);
/* The same for commands given algorithm names (or none): their parameters and the
 * variables of the model's claims count. */
bool cli_check_sets_named(cli *c, tlop_model *m, const char *const *algorithms, size_t n);
/* Reports a bad option value ("tlop CMD: …"); the command then fails with exit 2. */
void cli_misuse(cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Long options shared by the subcommands, and their handler: returns 1 when it took the
 * option, 0 when the option is not a shared one, -1 on a bad value (already reported). */
int cli_common_option(cli *c, int opt, const char *arg);
#define CLI_COMMON_LONGOPTS                                                   \
  {"include", required_argument, 0, 'I'}, {"platform", required_argument, 0, 'P'},    \
      {"params", required_argument, 0, 'T'}, {"set", required_argument, 0, 's'},      \
      {"tau-beyond", required_argument, 0, 'B'},                                      \
      {"max-terms", required_argument, 0, 'M'}, {"max-steps", required_argument, 0, 'G'}, \
      {"max-messages", required_argument, 0, 'Q'}, {"max-errors", required_argument, 0, 'R'},  \
      {"max-inline", required_argument, 0, 'Y'}, {"max-depth", required_argument, 0, 'D'},  \
      {"max-unroll", required_argument, 0, 'J'}, {"max-print", required_argument, 0, 'V'},  \
      {"max-stages", required_argument, 0, 'x'},                                          \
      {"max-table-rows", required_argument, 0, 'L'},                                      \
      {"max-table-cols", required_argument, 0, 'O'},                                      \
      {"max-memory", required_argument, 0, 'z'}, {"strict", no_argument, 0, 'W'},         \
      {"help", no_argument, 0, 'h'}
#define CLI_COMMON_SHORTOPTS "I:h"

/* Parses a subcommand's options: the shared ones, plus `extra` handled by `take`.
 * Returns -1 to go on with the operands at argv[optind], or the exit code. */
typedef int (*cli_option_fn)(cli *c, int opt, const char *arg);

int cli_parse_options(cli *c, int argc, char **argv, const char *cmd, const char *help,
                      const struct option *extra, const char *extra_short, cli_option_fn take);
/* The shared options a command takes, as their letters (I include, P platform, T params,
 * s set, B tau-beyond, M max-terms, G max-steps, Q max-messages, R max-errors, Y
 * max-inline, D max-depth, J max-unroll, V max-print, x max-stages, L max-table-rows,
 * O max-table-cols); the others are refused. NULL: all of them. Every command takes
 * --help and --max-memory. */
void cli_allow(cli *c, const char *letters);
/* --format and -o, which most subcommands take. */
extern const struct option cli_format_output_opts[];
int cli_take_format_output(cli *c, int opt, const char *arg);

/* The lines of --help for the shared options; COMMON_HELP has them all. */
#define HELP_SOURCES                                                                         \
  "  -I, --include DIR      search DIR for imports (after the importing file's directory)\n" \
  "      --max-errors N     stop reading a file after N errors (100)\n"                      \
  "      --max-inline N     most function calls one expression may inline (1e6)\n"          \
  HELP_DEPTH HELP_MEMORY
#define HELP_DEPTH                                                                           \
  "      --max-depth N      deepest nesting of an expression (2000, at most 20000)\n"
/* --max-memory, which every command takes, with its default (DEFAULT_MAX_MEMORY) */
#define HELP_MEMORY HELP_MEMORY_OF("4GiB")
#define HELP_MEMORY_OF(dflt)                                                                 \
  "      --max-memory SIZE  most memory the command may use: 512MiB, 2GiB or bytes\n"      \
  "                         (" dflt "; no bound in a build with AddressSanitizer)\n"
#define HELP_PLATFORM                                                                        \
  "      --platform NAME    price transfers on platform NAME (declared in the file or\n"    \
  "                         stdlib/platforms/NAME.tlop); default: the file's first\n"        \
  "                         platform, else the built-in 'generic'\n"
#define HELP_PARAMS                                                                          \
  "      --params [CH=]FILE back channel CH (default: the platform's first) with a\n"      \
  "                         measured table (libtaulop text or CSV)\n"                        \
  "      --max-table-rows N most rows (message sizes) a table may have (1e7)\n"           \
  "      --max-table-cols N most τ or operator columns a table may have (1e5)\n"
#define HELP_SET                                                                             \
  "      --set NAME=VALUE,… give values; units allowed (m=1MiB, o=0.3us); a bare\n"      \
  "                         number is bytes for a size, seconds for a time; a\n"          \
  "                         reduction operator by name (op=max)\n"
#define HELP_EVAL                                                                            \
  "      --tau-beyond RULE  τ beyond a table's last column: proportional (default,\n"      \
  "                         L(m,T)·τ/T) or clamp (L(m,T), as libtaulop)\n"                 \
  "      --max-terms N      most terms one evaluation's sums and maxima may add (1e8)\n"        \
  "      --max-steps N      the last step a schedule may place a transfer at (1e7)\n"       \
  "      --max-messages N   most messages one messages stage may send (1e6)\n"                \
  "      --strict           every warning is an error (a table extrapolated, …): exit 1\n"
#define HELP_HELP "  -h, --help             this help\n"
#define COMMON_HELP HELP_SOURCES HELP_PLATFORM HELP_PARAMS HELP_SET HELP_EVAL HELP_HELP

/* The value of a limit option (--max-terms, --max-points …): a finite number ≥ 1; false
 * after a usage error naming the option. */
bool cli_limit_value(cli *c, const char *option, const char *arg, double *value);
/* ---- memory.c: --max-memory ---- */
/* Bounds the memory of the process to `bytes` (RLIMIT_DATA; none under AddressSanitizer)
 * and installs the library's out-of-memory handler, which names the bound. */
void cli_limit_memory(double bytes);
/* The value of --max-memory: 512MiB, 2GiB, 1e9 (bytes); false after a usage error. */
bool cli_memory_value(cli *c, const char *arg, double *bytes);
/* Raises the stack limit of the process to what the deepest expressions need (unless the
 * system's hard limit is lower). */
void cli_grow_stack(void);

/* Prints a usage error and the hint to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The diagnostic handler of the command: each diagnostic's text on stderr. */
void cli_print_diag(void *user, const tlop_diag *d);

tlop_model *cli_load(cli *c, const char *path);
/* An algorithm's body (its name given) or a parsed expression; NULL after diagnostics. */
tlop_expr *cli_expr(cli *c, tlop_model *m, const char *text, const tlop_env *env, bool symbolic);
/* The values of --set, with the extra names of a grid bound to placeholder values. */
tlop_env *cli_env(cli *c, tlop_model *model);
tlop_platform *cli_platform(cli *c, tlop_model *model);
/* The platform as a command names it: "generic", or with the tables --params bound to it,
 * "generic with --params chan.txt" (malloc'd; NULL when out of memory). */
char *cli_platform_label(const cli *c, const tlop_platform *pf);
/* Opens -o FILE (or stdout). */
FILE *cli_output(cli *c);
/* A value in its unit: "12.35 ms", "1 MiB", "64". */
void cli_fmt_value(char *buf, size_t n, double v, tlop_kind k);
/* The columns UTF-8 text takes on a terminal: one per character (µ, …, Σ are one each,
 * though more than one byte, which printf's widths count). */
int cli_text_width(const char *s);
/* The spaces that right-align s in a column `width` characters wide. */
int cli_room(int width, const char *s);

int cmd_check(cli *c, int argc, char **argv);
int cmd_eval(cli *c, int argc, char **argv);
int cmd_explain(cli *c, int argc, char **argv);
int cmd_dump_ir(cli *c, int argc, char **argv);
int cmd_simplify(cli *c, int argc, char **argv);
int cmd_sweep(cli *c, int argc, char **argv);
/* s as a JSON string literal. */
void cli_json_string(FILE *f, const char *s);
/* Appends --assume facts to a comma-separated list (malloc'd). */
void cli_add_facts(char **facts, const char *more);
int cmd_prove(cli *c, int argc, char **argv);
int cmd_compare(cli *c, int argc, char **argv);

/* ---- cmd_emit.c: the JIT's options (eval, sweep) and `tlop emit` ---- */
/* --max-points and --no-progress, for the commands that evaluate a grid (cli_take_grid) */
#define HELP_GRID_RUN                                                          \
  "      --max-points N     most points the grid may have (1e8)\n"               \
  "      --no-progress      never show the progress bar\n"
#define CLI_GRID_RUN_LONGOPTS                                                  \
  {"max-points", required_argument, 0, 'Z'}, {"no-progress", no_argument, 0, 'N'}
#define CLI_ENGINE_LONGOPTS                                                              \
  {"engine", required_argument, 0, 'E'}, {"jobs", required_argument, 0, 'j'},             \
      {"no-cache", no_argument, 0, 'C'}
#define CLI_ENGINE_SHORTOPTS "j:"
#define HELP_ENGINE                                                                          \
  "      --engine E         auto (default: interpret small grids, compile large ones),\n"   \
  "                         jit or interp; also the environment variable TLOP_ENGINE\n"    \
  "  -j, --jobs N           threads for compiled code (default: the number of cores)\n"   \
  "      --no-cache         compile afresh, leave the cache ($XDG_CACHE_HOME/tlop) alone\n"
/* Takes --engine, --jobs, --no-cache: 1 taken, 0 not one of them, -1 bad value. */
int cli_take_engine(cli *c, int opt, const char *arg);
/* Whether the JIT evaluates npoints points per expression (--engine, else TLOP_ENGINE,
 * else auto); false after a usage error. */
bool cli_engine(cli *c, size_t npoints, bool *jit);
/* Compiles the expressions (one module) with --jobs and --no-cache, for npoints points
 * each (tlop_jit_expect_points); NULL after diagnostics. */
tlop_kernels *cli_compile(cli *c, tlop_expr *const *exprs, size_t n, const tlop_platform *pf,
                          const tlop_env *env, const char *const *names, size_t nvars,
                          size_t npoints);
/* tlop_eval through the JIT. */
tlop_status cli_eval_jit(cli *c, tlop_expr *e, const tlop_platform *pf, const tlop_env *env,
                         double *out);
void cli_jit_close(cli *c);
int cmd_emit(cli *c, int argc, char **argv);

/* ---- grid.c: the grid of --grid and the engine over it (sweep, best) ---- */
typedef struct cli_grid {
  tlop_axis *axes;
  const char **names;
  size_t naxes;
  double *pts; /* point i, axis j at [i * naxes + j]; the first axis outermost (NULL
                * from cli_grid_parse) */
  size_t npts;
} cli_grid;
/* Takes -g/--grid NAME=AXIS and the engine's options (--engine, --jobs, --no-cache): 1
 * taken, 0 not one of them, -1 a bad value. */
int cli_take_grid(cli *c, int opt, const char *arg);
/* Whether the grid is an m axis and a P axis, put in the order P, m (m runs fastest, so a
 * P's points are contiguous). */
bool cli_grid_p_then_m(cli *c);
/* Parses --grid (each axis must bind a parameter of an algorithm or a model param) and
 * binds the names in env; false after a message (cli_grid_close cleans up either way).
 * cli_grid_parse leaves the points to cli_grid_fill (a sweep streams them); cli_grid_open
 * fills g->pts with them all. */
bool cli_grid_parse(cli *c, tlop_model *m, tlop_env *env, char **algos, size_t nalgo,
                    cli_grid *g);
bool cli_grid_open(cli *c, tlop_model *m, tlop_env *env, char **algos, size_t nalgo, cli_grid *g);
/* Points first … first+k-1 of the grid into pts, row-major as g->pts. */
void cli_grid_fill(const cli_grid *g, size_t first, size_t k, double *pts);
void cli_grid_close(cli_grid *g);

typedef struct cli_evaluator {
  tlop_ctx *ctx;
  char *const *algos; /* the expressions' names, for their warnings */
  tlop_expr **exprs;
  const tlop_platform *pf;
  const tlop_env *env;
  const char *const *names;
  size_t nvars;
  tlop_kernels *kern; /* the compiled expressions, when the JIT was chosen */
} cli_evaluator;
/* Chooses the engine for the grid's size (--engine) and compiles for the JIT. */
bool cli_evaluator_open(cli *c, cli_evaluator *ev, char *const *algos, tlop_expr **exprs, size_t n,
                        const tlop_platform *pf, const tlop_env *env, const cli_grid *g);
/* Expression `which` at k points of the grid's shape; its warnings name it and the point. */
tlop_status cli_evaluator_run(const cli_evaluator *ev, size_t which, const double *pts, size_t k,
                              double *out);
/* cli_evaluator_run in two halves, so that threads evaluate chunks at once: the compiled
 * code alone, on any thread (tlop_kernels_run; k bytes of flags), false when the
 * expression is the interpreter's; then on the context's thread, chunk after chunk in the
 * grid's order, what the interpreter owes, or with owed NULL the whole evaluation. */
bool cli_evaluator_run_compiled(const cli_evaluator *ev, size_t which, const double *pts,
                                size_t k, double *out, unsigned char *flags,
                                tlop_kernels_owed *owed);
tlop_status cli_evaluator_settle(const cli_evaluator *ev, size_t which, const double *pts,
                                 size_t k, double *out, unsigned char *flags,
                                 tlop_kernels_owed *owed);
void cli_evaluator_close(cli *c, cli_evaluator *ev);
/* The progress bar of a command that evaluates a grid (progress.c): shown on a terminal
 * (standard error) without --no-progress, once the command has run a second, at most ten
 * times a second or when the phase changes: the grid points done (a fraction while the
 * algorithms of a chunk are evaluated one after the other), the phase ("evaluating",
 * "writing") and the time left; its line ends at 100 % or before any diagnostic. */
typedef struct cli_progress {
  bool enabled, line_open;
  double start, last;
  size_t total;
  const char *phase; /* the one shown */
} cli_progress;
void cli_progress_start(cli *c, cli_progress *p, size_t total);
/* Shows the bar at `done` points (p may be NULL: no bar). */
void cli_progress_show(cli_progress *p, double done, const char *phase);
/* Ends the bar's open line, before something else is printed (p may be NULL). */
void cli_progress_break(cli_progress *p);
/* A diagnostic callback (user: the cli_progress) that ends the bar's line first. */
void cli_progress_diag(void *user, const tlop_diag *d);

/* The errors of a candidate while its points are evaluated one by one (quiet: dropped). */
typedef struct cli_refusals {
  bool quiet;  /* drop errors (refinement of a candidate already left out) */
  char *first; /* the current candidate's first error, while collecting */
  bool dropped; /* the last error was not printed: nor are its notes */
  cli_progress *bar; /* ended before a warning is printed; may be NULL */
} cli_refusals;
/* A diagnostic callback (user: cli_refusals): warnings to stderr, the first error kept. */
void cli_collect_errors(void *user, const tlop_diag *d);
/* A diagnostic callback (user: cli_refusals) that prints errors and their notes only, and
 * none while quiet: for points evaluated again, whose warnings were given. */
void cli_print_errors(void *user, const tlop_diag *d);
/* Every algorithm (each must be one of the model, named in FILE) at every point of the
 * grid, res[a * npts + i]; the points a candidate refuses (an algorithm refusing a P
 * outside its domain) at +inf, and refused[a] the message of its first refusal (the
 * caller's to say, once, and to free), NULL for a candidate never left out. False when no
 * candidate evaluates at some point. The evaluator stays open (close it) for more points. */
bool cli_grid_costs_skipping(cli *c, tlop_model *m, const char *file, char **names,
                             size_t ncand, const tlop_platform *pf, const tlop_env *env,
                             const cli_grid *g, tlop_expr **exprs, cli_evaluator *ev,
                             double *costs, char **refused);

/* ---- sweep_rows.c: the rows of a sweep, formatted on threads, written in order ---- */
typedef enum { ROWS_CSV, ROWS_JSON, ROWS_TABLE, ROWS_NPY } rows_format;
/* "csv", "json", "table" or "npy"; false for another. */
bool rows_format_parse(const char *text, rows_format *out);
typedef struct rows_writer {
  FILE *out;
  rows_format format;
  const char *const *names; /* the axes', then the algorithms' */
  const tlop_kind *kinds;   /* of the same columns, for the table's units */
  size_t naxes, nalgo;
  size_t row_max; /* the most bytes a row's text takes */
} rows_writer;
/* The writer of the columns names (the axes, then the algorithms), out set later. */
void rows_open(rows_writer *w, rows_format format, const char *const *names,
               const tlop_kind *kinds, size_t naxes, size_t nalgo);
/* The header (npy's names the number of rows, npts) and what ends the rows (JSON's ]). */
void rows_begin(const rows_writer *w, size_t npts);
void rows_end(const rows_writer *w);
/* The text of rows first … first+k-1 of the grid (at most k * w->row_max bytes): their
 * points as cli_grid_fill writes them, the results of algorithm a at res[a * k + i].
 * Touches nothing but text: safe on any thread. */
size_t rows_text(const rows_writer *w, size_t first, const double *pts, const double *res,
                 size_t k, char *text);
/* Writes a chunk's text; false (errno set) when the output refused it. */
bool rows_put(rows_writer *w, const char *text, size_t len);

/* ---- sweep_stream.c: the grid in chunks, evaluated and formatted on threads, in order ---- */
/* Every algorithm at every point of g, its rows to w (opened by cli_output once the first
 * chunk has been evaluated; the header and the end written too); false after a message. */
bool sweep_stream(cli *c, const cli_grid *g, const cli_evaluator *ev, size_t nalgo,
                  rows_writer *w, cli_progress *prog);

int cmd_best(cli *c, int argc, char **argv);
int cmd_plot(cli *c, int argc, char **argv);

/* ---- gnuplot.c: figures through gnuplot (plot, validate --plot) ---- */
/* Whether `path` names a figure (.svg or .png) that can be written; says why not. */
bool gp_output_ok(const char *cmd, const char *path);
/* gnuplot with the terminal of path's extension (.svg, .png) set to write there; NULL after
 * a message (no gnuplot, another extension, an output that cannot be written). */
FILE *gp_open(const char *cmd, const char *path);
/* Ends the figure; false after a message when gnuplot failed. */
bool gp_close(FILE *g, const char *cmd, const char *path);
/* s as a gnuplot single-quoted string. */
void gp_str(FILE *f, const char *s);
/* s as a gnuplot string whose newlines break the line (a title over two lines). */
void gp_lines(FILE *f, const char *s);
/* Tics of a size axis ("x", "y") at powers of two in binary units (1 KiB), at most
 * `spans` + 1 of them (as many as the plot's width holds without labels touching). */
void gp_size_tics(FILE *g, const char *axis, double lo, double hi, int spans);
/* The spans between size labels a full-width plot (900 pixels) holds: 11 labels. */
#define PLOT_SIZE_SPANS 10
int cmd_lint(cli *c, int argc, char **argv);
/* cmd_fmt.c, cmd_lsp.c: editors (docs/editors.md) */
int cmd_fmt(cli *c, int argc, char **argv);
int cmd_lsp(cli *c, int argc, char **argv);

#endif

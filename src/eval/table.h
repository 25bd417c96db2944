/* table.h — measured parameter tables: reading, validation and the one look-up
 * routine that every engine (interpreter, JIT) uses.
 *
 * A table is a list of rows `m v_0 … v_{n-1}` with strictly increasing m (bytes).
 * A channel table (libtaulop format) has v_0 = o(m) and v_1..v_T = L(m,1..T);
 * a gamma table has one column per reduction operator. Values are seconds. */
#ifndef TLOP_TABLE_H
#define TLOP_TABLE_H

#include <stddef.h>

typedef enum { TAB_CHANNEL, TAB_GAMMA } tab_kind;

/* What to do with τ beyond the last measured column T. */
typedef enum {
  TAB_TAU_PROPORTIONAL, /* L(m,τ) = L(m,T)·τ/T: the channel is saturated (default) */
  TAB_TAU_CLAMP         /* L(m,τ) = L(m,T): libtaulop's behaviour */
} tab_tau_rule;

/* Extrapolation flags a look-up ORs into *flags, so the caller can warn once per cause. */
enum {
  TAB_BELOW_M = 1u << 0,  /* m below the first row: the first row's value was used */
  TAB_BEYOND_M = 1u << 1, /* m beyond the last row: v(m) = v(m_last) + v(m - m_last) */
  TAB_BEYOND_TAU = 1u << 2 /* τ beyond the last column: the τ rule was applied */
};

typedef struct tab_table {
  tab_kind kind;
  int nrows;        /* message sizes */
  int ncols;        /* value columns after m: 1 + T for a channel table */
  double *m;        /* nrows sizes, strictly increasing, >= 0 */
  double *v;        /* nrows * ncols values, row-major, finite and >= 0 */
  char **colnames;  /* ncols names: "o", "L1".."LT" for channels; operator names for gamma */
} tab_table;

/* Reports one problem of the input at a 1-based line (0 when it concerns the whole file). */
typedef void (*tab_report_fn)(void *user, int line, const char *message);

/* Parses a table from text. The format is detected: libtaulop text (`#m N`, `#tau T` or
 * `#m: N`, `#tau_op: K` for gamma, a `#m …` column header, then rows separated by
 * tabs/spaces) or CSV with a header line (`m,o,L1,…` for a channel, `m,<op>,…` for gamma).
 * Every problem is reported (not only the first); returns the number of problems,
 * and *out is set only when it is 0. */
int tab_parse(const char *text, size_t len, tab_table **out, tab_report_fn report, void *user);
/* Bounds beyond which a table is refused as not a measured one (--max-table-rows,
 * --max-table-cols); the rows must fit an int. */
typedef struct tab_limits {
  long max_rows; /* message sizes */
  long max_cols; /* τ columns or operators */
} tab_limits;
#define TAB_DEFAULT_LIMITS ((tab_limits){10000000L, 100000L})
/* tab_parse within other limits. */
int tab_parse_within(const char *text, size_t len, tab_limits limits, tab_table **out,
                     tab_report_fn report, void *user);

void tab_free(tab_table *t);

/* Number of τ columns of a channel table. */
int tab_ntau(const tab_table *t);

/* Column `col` as a function of m: exact row; linear interpolation between rows; below the
 * first row the first row's value; beyond the last row v(m) = v(m_last) + v(m - m_last),
 * computed in O(1) as q·v(m_last) + v(r). Requires m >= 0 and finite. */
double tab_column_at(const tab_table *t, int col, double m, unsigned *flags);

/* Channel look-ups. L requires tau >= 1 (finite); non-integer τ interpolates linearly
 * between the neighbouring columns; τ > T follows `rule`. */
double tab_L(const tab_table *t, double m, double tau, tab_tau_rule rule, unsigned *flags);
double tab_o(const tab_table *t, double m, unsigned *flags);

/* Column index of a gamma operator by name, or -1. */
int tab_gamma_column(const tab_table *t, const char *op);

#endif

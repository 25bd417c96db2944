/* progress.c — the progress bar of the commands that evaluate a grid (sweep, best, plot):
 * on a terminal, once the command has run a second, the grid points done, what it is doing
 * and the time left. A diagnostic first ends the bar's line (cli_progress_diag). */
#include "cli.h"

#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cli_progress_start(cli *c, cli_progress *p, size_t total) {
  *p = (cli_progress){!c->o.no_progress && isatty(2), false, now(), 0, total, NULL};
}

void cli_progress_show(cli_progress *p, double done, const char *phase) {
  if (!p || !p->enabled)
    return;
  double t = now();
  if (t - p->start < 1 || (t - p->last < 0.1 && phase == p->phase && done < (double)p->total))
    return;
  p->last = t;
  p->phase = phase;
  double part = p->total ? done / (double)p->total : 1;
  int width = 40, fill = (int)(width * part);
  char eta[32] = "";
  if (done > 0 && part < 1)
    snprintf(eta, sizeof eta, "ETA %.0f s", (t - p->start) * (1 - part) / part);
  fprintf(stderr, "\r[%.*s%*s] %3d%%  %.0f/%zu points  %-10s  %-12s", fill,
          "########################################", width - fill, "", (int)(100 * part),
          done, p->total, phase, eta);
  p->line_open = part < 1;
  if (!p->line_open)
    fputc('\n', stderr);
  fflush(stderr);
}

void cli_progress_break(cli_progress *p) {
  if (p && p->line_open)
    fputc('\n', stderr);
  if (p)
    p->line_open = false;
}

void cli_progress_diag(void *user, const tlop_diag *d) {
  cli_progress_break(user);
  cli_print_diag(NULL, d);
}

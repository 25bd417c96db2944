/* gnuplot.c — figures through a pipe to gnuplot, shared by `tlop plot` and `tlop validate
 * --plot`: the terminal chosen by the output's extension (.svg or .png), quoting, size tics
 * in binary units, and the check that gnuplot succeeded. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path)
    return false;
  char *copy = strdup(path), *save = NULL;
  bool found = false;
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    size_t n = strlen(d) + strlen(prog) + 2;
    char *full = malloc(n);
    snprintf(full, n, "%s/%s", *d ? d : ".", prog);
    found = access(full, X_OK) == 0;
    free(full);
  }
  free(copy);
  return found;
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && !strcmp(s + n - m, tail);
}

/* Whether a file can be written at `path`: the file itself, or else its directory. */
static bool writable(const char *path) {
  if (access(path, W_OK) == 0)
    return true;
  if (errno != ENOENT)
    return false;
  const char *slash = strrchr(path, '/');
  char *dir = !slash ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
  bool ok = dir && access(dir, W_OK | X_OK) == 0;
  free(dir);
  return ok;
}

bool gp_output_ok(const char *cmd, const char *path) {
  if (!ends_with(path, ".png") && !ends_with(path, ".svg")) {
    fprintf(stderr, "tlop %s: the figure's name must end in .svg or .png, not '%s'\n", cmd, path);
    return false;
  }
  /* gnuplot that cannot open its output writes the figure to standard output instead */
  if (!writable(path)) {
    fprintf(stderr, "tlop %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
    return false;
  }
  return true;
}

FILE *gp_open(const char *cmd, const char *path) {
  bool png = ends_with(path, ".png");
  if (!gp_output_ok(cmd, path))
    return NULL;
  if (!on_path("gnuplot")) {
    fprintf(stderr,
            "tlop %s: the figure needs gnuplot, which is not installed (on Debian: "
            "apt-get install gnuplot-nox); no figure written\n",
            cmd);
    return NULL;
  }
  FILE *g = popen("gnuplot", "w");
  if (!g) {
    fprintf(stderr, "tlop %s: cannot run gnuplot: %s\n", cmd, strerror(errno));
    return NULL;
  }
  fputs(png ? "set terminal pngcairo size 900,600 font 'sans,11' background rgb 'white'\n"
            : "set terminal svg size 900,600 dynamic font 'sans,13' background rgb 'white'\n",
        g);
  fputs("set output ", g);
  gp_str(g, path);
  fputc('\n', g);
  return g;
}

bool gp_close(FILE *g, const char *cmd, const char *path) {
  int status = pclose(g);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "tlop %s: gnuplot failed; no figure in '%s'\n", cmd, path);
    return false;
  }
  return true;
}

void gp_str(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'')
      fputc('\'', f);
    if ((unsigned char)*s >= 0x20)
      fputc(*s, f);
  }
  fputc('\'', f);
}

void gp_lines(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n')
      fputs("\\n", f);
    else if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s >= 0x20)
      fputc(*s, f);
  }
  fputc('"', f);
}

void gp_size_tics(FILE *g, const char *axis, double lo, double hi, int spans) {
  if (!(hi > 0) || !(lo > 0))
    return;
  int a = (int)floor(log2(lo)), b = (int)ceil(log2(hi)), step = 1;
  while ((b - a) / step > spans)
    step++;
  /* the range reaches past the end's tick by 3% of the span: gnuplot drops a tick that
   * falls on an autoscaled end, and with it the last label */
  double margin = exp2(0.03 * (b - a) + 0.01);
  fprintf(g, "set %srange [%.17g:%.17g]\n", axis, ldexp(1, a) / margin, ldexp(1, b) * margin);
  fprintf(g, "set %stics (", axis);
  /* every step-th power of two, and the last one, so that the axis's end is labelled */
  for (int e = a; e <= b; e = e < b && e + step > b ? b : e + step) {
    char label[48];
    tlop_format_size(label, sizeof label, ldexp(1, e));
    fprintf(g, "%s'%s' %.17g", e > a ? ", " : "", label, ldexp(1, e));
  }
  fputs(")\n", g);
}

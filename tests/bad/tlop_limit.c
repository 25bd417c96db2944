/* tlop_limit.c — runs a command and measures it, for tests/run_cases.sh (hostile cases).
 *
 *   tlop_limit REPORT KILL_SECONDS COMMAND [ARG]...
 *
 * Runs COMMAND with the standard streams it was given, kills it (SIGKILL, its whole
 * process group) after KILL_SECONDS of wall time, and writes one line to the file REPORT:
 *
 *   <wall ms> <peak RSS KiB> exit <status>      or      <wall ms> <peak RSS KiB> signal <n>
 *
 * (a command killed for its time shows `signal 9` and a wall time ≥ KILL_SECONDS). Exits
 * 0 when it could run the command, 2 otherwise. Wall time is CLOCK_MONOTONIC; the peak RSS
 * is the child's ru_maxrss from wait4. No shell and no timing by the script: what is
 * measured is the command alone. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: tlop_limit REPORT KILL_SECONDS COMMAND [ARG]...\n");
    return 2;
  }
  const char *report = argv[1];
  double kill_after = atof(argv[2]);
  if (!(kill_after > 0)) {
    fprintf(stderr, "tlop_limit: bad KILL_SECONDS '%s'\n", argv[2]);
    return 2;
  }
  double t0 = now_ms();
  pid_t pid = fork();
  if (pid < 0) {
    perror("tlop_limit: fork");
    return 2;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp(argv[3], argv + 3);
    fprintf(stderr, "tlop_limit: cannot run '%s': %s\n", argv[3], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  int status = 0, killed = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  for (;;) {
    pid_t r = wait4(pid, &status, WNOHANG, &ru);
    if (r == pid)
      break;
    if (r < 0 && errno != EINTR) {
      perror("tlop_limit: wait4");
      return 2;
    }
    if (!killed && now_ms() - t0 > kill_after * 1e3) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = 1;
    }
    struct timespec nap = {0, 2 * 1000 * 1000}; /* 2 ms: the resolution of the wall time */
    nanosleep(&nap, NULL);
  }
  double wall = now_ms() - t0;
  FILE *f = fopen(report, "w");
  if (!f) {
    perror(report);
    return 2;
  }
  if (WIFSIGNALED(status))
    fprintf(f, "%.0f %ld signal %d\n", wall, ru.ru_maxrss, WTERMSIG(status));
  else
    fprintf(f, "%.0f %ld exit %d\n", wall, ru.ru_maxrss, WEXITSTATUS(status));
  fclose(f);
  return 0;
}

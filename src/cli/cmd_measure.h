/* cmd_measure.h — the subcommands on the machine side (cmd_measure.c): `tlop measure` writes a
 * τ-Lop table of this machine, `tlop validate` scores models against benchmark runs. */
#ifndef TLOP_CLI_MEASURE_H
#define TLOP_CLI_MEASURE_H

#include "cli.h"

int cmd_measure(cli *c, int argc, char **argv);
int cmd_validate(cli *c, int argc, char **argv);

#endif

/* cli.h: the `warpsim` command's subcommands.  Each takes the arguments that
 * follow its name and returns the process exit status: 0 success, 1 the run
 * failed (verification mismatch, kernel fault, bad PTX), 2 usage error. */
#ifndef WS_CLI_CLI_H
#define WS_CLI_CLI_H

#include "warpsim.h"

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_ptx(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_best_swl(int argc, char **argv);

/* Shared option handling: returns 1 if argv[*i] is "--help"/"-h". */
int cli_is_help(const char *arg);

/* Fetch the value of option argv[*i] (advancing *i); prints a usage error
 * naming the option and returns NULL when it is missing. */
const char *cli_value(int argc, char **argv, int *i);

/* Apply "--set key=value" to gpu; prints the error naming the key. */
int cli_apply_set(ws_gpu *gpu, const char *assignment);

#endif

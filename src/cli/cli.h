/* cli.h - the subcommands; only this layer prints and chooses exit codes. */
#ifndef DISKBENCH_CLI_H
#define DISKBENCH_CLI_H

#include <stdio.h>

#include "result.h"

/* Exit statuses (DESIGN.md section 2). */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);

/* Print "diskbench: <msg>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write the JSON report to path ("-" = stdout) all or nothing: a file is
 * written beside its final name and renamed into place. 0 or -errno. */
int cli_write_json(const char *path, const struct run_result *r);
int cli_write_csv(const char *path, const struct run_result *r);
int cli_write_bonnie_csv(const char *path, const struct run_result *r);

/* The same for any document: render(f, arg) writes it and returns 0 or
 * -errno; the file appears only when that and every write succeeded. */
int cli_write_file(const char *path, int (*render)(FILE *, const void *), const void *arg);

/* inputs.c: read every saved result in paths[0..n) into *out (an array the
 * caller frees with cli_free_results), all before anything is written.
 * Returns EXIT_OK, or prints why and returns EXIT_USAGE (a bad file) or
 * EXIT_RUNTIME (out of memory); *loaded says how many need freeing. */
int cli_load_results(const char *const *paths, int n, struct run_result **out, int *loaded);
void cli_free_results(struct run_result *r, int loaded);

#endif

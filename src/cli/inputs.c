/* inputs.c - the saved results a subcommand (report, compare) reads. */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "load.h"
#include "parse.h"

int cli_load_results(const char *const *paths, int n, uint64_t max_bytes,
		     struct run_result **out, int *loaded)
{
	struct run_result *r;
	char err[512];
	int ret;

	*loaded = 0;
	*out = r = calloc((size_t)n, sizeof(*r));
	if (!r) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (; *loaded < n; (*loaded)++) {
		ret = result_load_max(paths[*loaded], max_bytes, &r[*loaded], err, sizeof(err));
		if (ret) {
			cli_error("%s", err);
			return ret == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

void cli_free_results(struct run_result *r, int loaded)
{
	for (int i = 0; i < loaded; i++)
		result_free(&r[i]);
	free(r);
}

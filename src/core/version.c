/* version.c - the --version text: version, git commit, what was built in. */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "git_commit.h"
#include "version.h"

#ifdef HAVE_LIBNUMA
#define HAS_NUMA "yes"
#else
#define HAS_NUMA "no"
#endif
#ifdef HAVE_MPI_BINARY
#define HAS_MPI "yes"
#else
#define HAS_MPI "no"
#endif

void version_text(char *buf, size_t len)
{
	const struct engine_entry *t;
	size_t n, i, used;
	int w;

	if (!len)
		return;
	w = snprintf(buf, len, "diskbench %s%s%s%s\nengines:", PACKAGE_VERSION,
		     *DISKBENCH_GIT_COMMIT ? " (git " : "", DISKBENCH_GIT_COMMIT,
		     *DISKBENCH_GIT_COMMIT ? ")" : "");
	used = w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
	t = engine_table(&n);
	for (i = 0; i < n && used < len - 1; i++) {
		w = t[i].ops ? snprintf(buf + used, len - used, "%s %s", i ? "," : "", t[i].name)
			     : snprintf(buf + used, len - used, "%s %s (not built: %s)", i ? "," : "",
					t[i].name, t[i].missing ? t[i].missing : "?");
		if (w > 0)
			used += (size_t)w < len - used ? (size_t)w : len - used - 1;
	}
	if (used < len - 1)
		snprintf(buf + used, len - used,
			 "\noptional: reading results (jansson) yes, NUMA-local buffers (libnuma) %s, "
			 "MPI binary (diskbench-mpi) %s\n", HAS_NUMA, HAS_MPI);
}

/* ranks.c - who runs where, and the ranks' agreement before anything is written. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "mpi_coord.h"
#include "plan.h"

int mpi_bcast_argv(int *argc, char ***argv)
{
	static char *buf;
	static char **words;
	int len = 0, n = *argc;

	if (n < 0)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		len += (int)strlen((*argv)[i]) + 1;
	MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
	buf = malloc((size_t)len + 1);
	words = calloc((size_t)n + 1, sizeof(*words));
	/* every rank must reach the second broadcast, so no return before it */
	if (buf) {
		char *p = buf;

		for (int i = 0; i < *argc && p < buf + len; i++)
			p = stpcpy(p, (*argv)[i]) + 1;
	}
	MPI_Bcast(buf ? buf : (char[1]){ 0 }, buf ? len : 0, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (!buf || !words)
		return -ENOMEM;
	for (int i = 0, off = 0; i < n; i++) {
		words[i] = buf + off;
		off += (int)strlen(buf + off) + 1;
	}
	*argc = n;
	*argv = words;
	return 0;
}

/* given with its placeholders expanded into out: 0, the letter of an
 * unknown placeholder, or -1 when out is too small. */
static int expand(const struct mpi_run *m, const char *given, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *p = given; *p; p++) {
		char v[80];

		if (*p != '%') {
			v[0] = *p;
			v[1] = '\0';
		} else if (p[1] == 'r') {
			snprintf(v, sizeof(v), "%d", m->rank);
		} else if (p[1] == 'l') {
			snprintf(v, sizeof(v), "%d", m->local_rank);
		} else if (p[1] == 'h') {
			snprintf(v, sizeof(v), "%s", m->host);
		} else if (p[1] == '%') {
			snprintf(v, sizeof(v), "%%");
		} else {
			return p[1] ? (unsigned char)p[1] : ' ';
		}
		if (*p == '%')
			p++;
		if (o + strlen(v) >= len)
			return -1;
		o += (size_t)snprintf(out + o, len - o, "%s", v);
	}
	return 0;
}

int mpi_target(void *arg, const char *given, char *out, size_t len)
{
	const struct mpi_run *m = arg;
	int ret = expand(m, given, out, len);

	/* every rank gets the same verdict: only the root says it */
	if (ret && m->rank == 0) {
		if (ret < 0)
			mpi_error("TARGET %s: too long once expanded", given);
		else
			mpi_error("TARGET %s: unknown placeholder %%%c (%%r rank, %%l local rank, "
				  "%%h host name, %%%% a %%)", given, ret);
	}
	return ret ? EXIT_USAGE : EXIT_OK;
}

/* What each rank tells the others before anything is written. */
struct rank_card {
	struct rank_info info;
	char resolved[PATH_MAX];
	int status, kind, placeholder;
	unsigned ntests;
	uint64_t plan_fp;
};

/* FNV-1a over every test's key: the same plan gives the same print. */
static uint64_t plan_print(const struct plan *p)
{
	uint64_t h = 1469598103934665603ull;
	char key[512];

	for (unsigned i = 0; i < p->n; i++) {
		plan_spec_key(&p->specs[i], key, sizeof(key));
		for (const char *c = key; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h;
}

/* Each rank its own, reproducible offset stream; rank 0 keeps the plain
 * run's seeds, so -np 1 runs what diskbench runs. */
static uint64_t rank_seed(uint64_t seed, int rank)
{
	return seed + (uint64_t)rank * 0x9e3779b97f4a7c15ull;
}

static const char *status_words(int status)
{
	switch (status) {
	case EXIT_USAGE: return "a usage error";
	case EXIT_REFUSED: return "refused for safety";
	case EXIT_RUNTIME: return "a runtime failure";
	default: return "stopped";
	}
}

/* The worst status of all ranks (STEP_DONE only when all are), and the
 * root names the ranks that had one. */
static int combine(const struct mpi_run *m, const int *st, const char *when)
{
	int worst = EXIT_OK, nbad = 0;
	bool all_done = true;

	for (int i = 0; i < m->size; i++) {
		all_done = all_done && st[i] == STEP_DONE;
		if (st[i] > worst)
			worst = st[i];
	}
	if (all_done)
		return st[0];
	for (int i = 0; i < m->size; i++)
		nbad += st[i] > EXIT_OK;
	/* every rank failed: each has said why (or the root for all) */
	if (nbad == m->size || m->rank != 0)
		return worst;
	nbad = 0;
	for (int i = 1; i < m->size; i++) {
		if (st[i] <= EXIT_OK)
			continue;
		if (nbad++ < 8)
			mpi_error("rank %d stopped the run %s: %s (exit %d)", i, when,
				  status_words(st[i]), st[i]);
	}
	if (nbad > 8)
		mpi_error("... and %d more ranks", nbad - 8);
	return worst;
}

/* Two ranks of one host on one device, one file, or one path a
 * placeholder made: refused, naming both. */
static int check_duplicates(const struct mpi_run *m, const struct rank_card *c,
			    const char *given)
{
	for (int i = 0; i < m->size; i++) {
		for (int j = i + 1; j < m->size; j++) {
			if (strcmp(c[i].info.hostname, c[j].info.hostname) ||
			    strcmp(c[i].resolved, c[j].resolved))
				continue;
			if (!c[i].placeholder && c[i].kind == TARGET_DIR)
				continue;	/* one shared directory: a scratch dir each */
			if (m->rank == 0)
				mpi_error("TARGET %s: ranks %d and %d on %s both get %s; give each "
					  "rank its own (%%r rank, %%l local rank)", given, i, j,
					  c[i].info.hostname, c[i].resolved);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int check_plans(const struct mpi_run *m, const struct rank_card *c)
{
	for (int i = 1; i < m->size; i++) {
		if (c[i].plan_fp == c[0].plan_fp)
			continue;
		if (m->rank == 0)
			mpi_error("rank %d (%s, %s): its plan (%u tests) differs from rank 0's (%u "
				  "tests on %s): every rank needs the same kind of target with the "
				  "same rights", i, c[i].info.hostname, c[i].info.target,
				  c[i].ntests, c[0].ntests, c[0].info.target);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The root's result: every rank's card, and what differs between them. */
static int keep_ranks(const struct mpi_run *m, const struct rank_card *c, struct run_result *r)
{
	struct result_ranks *rr = calloc(1, sizeof(*rr));

	if (!rr || !(rr->info = calloc((size_t)m->size, sizeof(*rr->info)))) {
		free(rr);
		return -ENOMEM;
	}
	rr->n = (unsigned)m->size;
	for (int i = 0; i < m->size; i++)
		rr->info[i] = c[i].info;
	result_ranks_summarize(rr);
	r->ranks = rr;
	for (int i = 1; i < m->size; i++) {
		if (strcmp(c[i].info.kernel, c[0].info.kernel))
			result_add_warning(r, "rank %d (%s) runs kernel %s, rank 0 (%s) %s", i,
					   c[i].info.hostname, c[i].info.kernel,
					   c[0].info.hostname, c[0].info.kernel);
		if (strcmp(c[i].info.version, c[0].info.version))
			result_add_warning(r, "rank %d (%s) runs diskbench %s, rank 0 (%s) %s", i,
					   c[i].info.hostname, c[i].info.version,
					   c[0].info.hostname, c[0].info.version);
	}
	return 0;
}

int mpi_prepare(void *arg, int status, const struct session_point *pt)
{
	struct mpi_run *m = arg;
	struct rank_card me = { .status = status }, *all;
	struct utsname u;
	int *st, ret;

	if (status == EXIT_OK && pt->s->steady_state) {
		if (m->rank == 0)
			mpi_error("%s: not in a coordinated run (each rank would decide alone "
				  "when its rounds hold steady)", pt->s->precondition ?
				  "--precondition runs each test until steady, and so" :
				  "--steady-state");
		me.status = status = EXIT_USAGE;
	}
	me.info.rank = (unsigned)m->rank;
	me.info.local_rank = (unsigned)m->local_rank;
	snprintf(me.info.hostname, sizeof(me.info.hostname), "%s", m->host);
	snprintf(me.info.kernel, sizeof(me.info.kernel), "%s", uname(&u) ? "" : u.release);
	snprintf(me.info.version, sizeof(me.info.version), "%s", PACKAGE_VERSION);
	if (expand(m, pt->given, me.info.target, sizeof(me.info.target)))
		snprintf(me.info.target, sizeof(me.info.target), "%s", pt->given);
	me.placeholder = strchr(pt->given, '%') != NULL;
	if (status == EXIT_OK) {
		snprintf(me.resolved, sizeof(me.resolved), "%s", pt->ti->resolved);
		me.kind = (int)pt->ti->kind;
		me.ntests = pt->plan->n;
		me.plan_fp = plan_print(pt->plan);
	}
	all = calloc((size_t)m->size, sizeof(*all));
	st = calloc((size_t)m->size, sizeof(*st));
	if (!all || !st) {
		/* cannot even agree: take the whole job down rather than hang */
		mpi_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
	}
	MPI_Allgather(&me, (int)sizeof(me), MPI_BYTE, all, (int)sizeof(me), MPI_BYTE,
		      MPI_COMM_WORLD);
	for (int i = 0; i < m->size; i++)
		st[i] = all[i].status;
	ret = combine(m, st, "before anything was written");
	if (ret == EXIT_OK)
		ret = check_duplicates(m, all, pt->given);
	if (ret == EXIT_OK)
		ret = check_plans(m, all);
	if (ret == EXIT_OK) {
		for (unsigned i = 0; i < pt->plan->n; i++)
			pt->plan->specs[i].seed = rank_seed(pt->plan->specs[i].seed, m->rank);
		*pt->seed = rank_seed(*pt->seed, m->rank);
		m->r = pt->r;
		if (m->rank == 0 && keep_ranks(m, all, pt->r)) {
			mpi_error("out of memory");
			MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
		}
	}
	free(all);
	free(st);
	return ret;
}

int mpi_agree(void *arg, int status)
{
	const struct mpi_run *m = arg;
	int *st = calloc((size_t)m->size, sizeof(*st)), ret;

	if (!st) {
		mpi_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
	}
	MPI_Allgather(&status, 1, MPI_INT, st, 1, MPI_INT, MPI_COMM_WORLD);
	ret = combine(m, st, "while it set up");
	free(st);
	return ret;
}

/* Has r this warning already? */
static bool has_warning(const struct run_result *r, const char *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (r->warnings[i] && !strcmp(r->warnings[i], w))
			return true;
	return false;
}

void mpi_finish(void *arg, struct run_result *r)
{
	const struct mpi_run *m = arg;
	int len = 0, *lens = NULL, *offs = NULL, total = 0;
	char *mine = NULL, *all = NULL;
	unsigned own = r->nwarnings;

	/* the warnings, each with its NUL, in one buffer */
	for (unsigned i = 0; m->rank && i < r->nwarnings; i++)
		len += (int)strlen(r->warnings[i]) + 1;
	mine = malloc((size_t)len + 1);
	if (mine) {
		char *p = mine;

		for (unsigned i = 0; m->rank && i < r->nwarnings; i++)
			p = stpcpy(p, r->warnings[i]) + 1;
	} else {
		len = 0;
	}
	if (m->rank == 0) {
		lens = calloc((size_t)m->size, sizeof(*lens));
		offs = calloc((size_t)m->size, sizeof(*offs));
		if (!lens || !offs) {
			mpi_error("out of memory");
			MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
		}
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (m->rank == 0) {
		for (int i = 0; i < m->size; i++) {
			offs[i] = total;
			total += lens[i];
		}
		all = malloc((size_t)total + 1);
		if (!all) {
			mpi_error("out of memory");
			MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
		}
	}
	MPI_Gatherv(mine ? mine : "", len, MPI_CHAR, all, lens, offs, MPI_CHAR, 0, MPI_COMM_WORLD);
	for (int i = 1; m->rank == 0 && i < m->size; i++) {
		for (int o = offs[i]; o < offs[i] + lens[i]; o += (int)strlen(all + o) + 1) {
			if (has_warning(r, all + o, own))
				continue;
			result_add_warning(r, "rank %d: %s", i, all + o);
		}
	}
	free(mine);
	free(all);
	free(lens);
	free(offs);
}

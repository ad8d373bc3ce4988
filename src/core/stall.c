/* stall.c - jobs that made no progress for a while as the others went on, found from readings of their counts. */
#include <errno.h>
#include <stdlib.h>

#include "stall.h"

uint64_t stall_bound(uint64_t runtime_ns)
{
	uint64_t b = runtime_ns / 4;

	return b < STALL_MIN_NS ? STALL_MIN_NS : b > STALL_MAX_NS ? STALL_MAX_NS : b;
}

int stall_watch_init(struct stall_watch *w, unsigned n, uint64_t bound_ns, uint64_t now)
{
	*w = (struct stall_watch){ .bound_ns = bound_ns, .prev_ns = now, .n = n };
	w->jobs = calloc(n, sizeof(*w->jobs));
	w->in = calloc(n, sizeof(*w->in));
	if (!w->jobs || !w->in) {
		stall_watch_free(w);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		w->jobs[i].since = now;
	return 0;
}

void stall_watch_free(struct stall_watch *w)
{
	free(w->jobs);
	free(w->in);
	w->jobs = NULL;
	w->in = NULL;
}

/* Job i stood still from its last progress to the previous reading;
 * others: the other jobs' ops at that reading. Kept when it is a stall. */
static void stall_end(struct stall_watch *w, unsigned i, uint64_t others)
{
	const struct stall_job *j = &w->jobs[i];
	const uint64_t end = w->prev_ns;

	if (end <= j->since || end - j->since < w->bound_ns || others <= j->others)
		return;
	if (w->nfound >= STALL_MAX) {
		w->missed++;
		return;
	}
	w->found[w->nfound++] = (struct stall){ .job = i, .start_ns = j->since, .end_ns = end,
						.offset_valid = j->offset_valid,
						.offset = j->offset };
}

/* Job i completed nothing since j->since: slow from slow_ns on, its
 * entry's end moved to now while it lasts. */
static void slow_mark(struct stall_watch *w, unsigned i, const struct stall_reading *r,
		      uint64_t now)
{
	struct stall_job *j = &w->jobs[i];

	if (!w->slow_ns || now - j->since < w->slow_ns)
		return;
	if (j->slow) {
		if (j->slow_at < STALL_MAX)
			w->slow[j->slow_at].end_ns = now;
		return;
	}
	j->slow = true;
	if (w->nslow >= STALL_MAX) {	/* counted once, not kept */
		w->slow_missed++;
		j->slow_at = STALL_MAX;
		return;
	}
	j->slow_at = w->nslow;
	w->slow[w->nslow++] = (struct stall){ .job = i, .start_ns = j->since, .end_ns = now,
					      .offset_valid = r->offset_valid,
					      .offset = r->offset };
}

bool stall_watch_slow(const struct stall_watch *w, struct stall *out)
{
	bool any = false;

	for (unsigned i = 0; i < w->n; i++) {
		const struct stall_job *j = &w->jobs[i];
		const struct stall *s;

		if (j->closed || !j->slow || j->slow_at >= STALL_MAX)
			continue;
		s = &w->slow[j->slow_at];
		if (s->end_ns != w->prev_ns)
			continue;
		if (!any || s->end_ns - s->start_ns > out->end_ns - out->start_ns)
			*out = *s;
		any = true;
	}
	return any;
}

void stall_watch_read(struct stall_watch *w, uint64_t now)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < w->n; i++)
		total += w->in[i].ops;
	for (unsigned i = 0; i < w->n; i++) {
		struct stall_job *j = &w->jobs[i];
		const struct stall_reading *r = &w->in[i];

		if (j->closed)
			continue;
		if (r->ops != j->ops) {
			/* the others' count at the last reading it had none */
			stall_end(w, i, w->prev_total - j->ops);
			*j = (struct stall_job){ .ops = r->ops, .since = now,
						 .others = total - r->ops };
		} else {
			if (!j->confirmed && now - j->since >= w->bound_ns) {
				/* standing still now: where it is stands still too */
				j->confirmed = true;
				j->offset_valid = r->offset_valid;
				j->offset = r->offset;
			}
			slow_mark(w, i, r, now);
		}
		if (r->closed) {
			if (r->ops == j->ops)
				stall_end(w, i, w->prev_total - j->ops);
			j->closed = true;
		}
	}
	w->prev_ns = now;
	w->prev_total = total;
}

uint64_t stall_watch_now(const struct stall_watch *w, unsigned *job)
{
	uint64_t best = 0;

	for (unsigned i = 0; i < w->n; i++) {
		const struct stall_job *j = &w->jobs[i];

		if (j->closed || !j->confirmed || w->prev_ns <= j->since ||
		    w->prev_total - j->ops <= j->others || w->prev_ns - j->since <= best)
			continue;
		best = w->prev_ns - j->since;
		*job = i;
	}
	return best;
}

uint64_t stall_overlap(const struct stall_watch *w, unsigned job, uint64_t t_start,
		       uint64_t t_end)
{
	uint64_t sum = 0, a, b;

	for (unsigned k = 0; k < w->nfound; k++) {
		const struct stall *s = &w->found[k];

		if (s->job != job)
			continue;
		a = s->start_ns > t_start ? s->start_ns : t_start;
		b = s->end_ns < t_end ? s->end_ns : t_end;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

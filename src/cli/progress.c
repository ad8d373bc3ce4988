/* progress.c - the live progress line on a terminal: one line on stderr, rewritten in place. */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "clock.h"
#include "report.h"

void cli_progress_test(void *arg, const struct runner_progress *rp)
{
	struct cli_progress *p = arg;
	double dt = (double)(rp->elapsed_ns - p->last_ns) / 1e9;
	char iops[32], when[64];

	if (rp->phase != RUNNER_RUN) {
		const char *what = rp->phase == RUNNER_SETUP ? "setting up" : "cleaning up";

		if (rp->todo)
			fprintf(stderr, "\r\033[K%s  %s: %" PRIu64 " of %" PRIu64 " files", p->head,
				what, rp->done, rp->todo);
		else
			fprintf(stderr, "\r\033[K%s  %s", p->head, what);
		return;
	}
	if (!rp->ops) {
		fprintf(stderr, "\r\033[K%s  %.1fs / %.1fs  ramp", p->head,
			(double)rp->elapsed_ns / 1e9, (double)rp->total_ns / 1e9);
	} else if (dt > 0) {
		/* a test that runs to its end (the verify test) has no total:
		 * how much it has done instead */
		if (rp->total_ns)
			snprintf(when, sizeof(when), "%.1fs / %.1fs", (double)rp->elapsed_ns / 1e9,
				 (double)rp->total_ns / 1e9);
		else
			snprintf(when, sizeof(when), "%.1fs  %.1f MB done",
				 (double)rp->elapsed_ns / 1e9, (double)rp->bytes / 1e6);
		report_fmt_count((double)(rp->ops - p->last_ops) / dt, iops, sizeof(iops));
		fprintf(stderr, "\r\033[K%s  %s  %s IOPS  %.1f MB/s", p->head, when, iops,
			(double)(rp->bytes - p->last_bytes) / dt / 1e6);
		if (rp->stalled_ns)
			fprintf(stderr, "  job %u stalled %.1fs", rp->stalled_job,
				(double)rp->stalled_ns / 1e9);
	}
	/* a request older than --io-timeout, while the test goes on */
	if (rp->slow_ns && rp->slow_offset != UINT64_MAX)
		fprintf(stderr, "  job %u: a request %.1fs old at offset %" PRIu64, rp->slow_job,
			(double)rp->slow_ns / 1e9, rp->slow_offset);
	else if (rp->slow_ns)
		fprintf(stderr, "  job %u: a request %.1fs old", rp->slow_job,
			(double)rp->slow_ns / 1e9);
	p->last_ns = rp->elapsed_ns;
	p->last_ops = rp->ops;
	p->last_bytes = rp->bytes;
}

void cli_progress_layout(void *arg, uint64_t done, uint64_t total)
{
	static uint64_t last;
	uint64_t now = clock_ns();

	if (now - last < 500000000u && done < total)
		return;
	last = now;
	fprintf(stderr, "\r\033[Klaying out %" PRIu64 " MiB in %s: %u %%", total >> 20,
		(const char *)arg, (unsigned)(100 * done / (total ? total : 1)));
}

void cli_progress_clear(void)
{
	fputs("\r\033[K", stderr);
}

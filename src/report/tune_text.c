/* tune_text.c - a tune for a person: each sweep's table, its verdicts, the recommendation. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "textw.h"
#include "tune_result.h"

static void line(struct textw *w, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Running text after prefix, wrapped under it. */
static void line(struct textw *w, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	textw_start(w, prefix);
	va_start(ap, fmt);
	textw_vwordsf(w, " ", fmt, ap);
	va_end(ap);
	textw_nl(w);
}

/* "1.12 [1.08, 1.15]" */
static const char *fmt_ratio(const struct sweep_verdict *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f [%.2f, %.2f]", v->ratio, v->lo, v->hi);
	return buf;
}

/* A verdict in words; lower_better: -1 (p99 down) reads "better". */
static const char *mark(int verdict, bool lower_better)
{
	if (lower_better)
		verdict = -verdict;
	return verdict > 0 ? "better" : verdict < 0 ? "worse" : "~";
}

/* What the kernel moved beside the knob, and the trials left out. */
static void sweep_notes(struct textw *w, const struct tune_sweep *s, unsigned r_blocks)
{
	char words[512];

	for (unsigned i = 0; i < s->neffects; i++)
		line(w, "  ", "%s", tune_effect_words(s, &s->effects[i], words, sizeof(words)));
	for (unsigned i = 0; i < s->ntrials; i++)
		if (s->trials[i].invalid[0])
			line(w, "  ", "failed trial: %s, %s=%s: %s (left out)",
			     s->tests[s->trials[i].test], tune_knob_option(s->knob),
			     s->configs[s->trials[i].config], s->trials[i].invalid);
	for (unsigned k = 1; k < s->nconfig; k++)
		if (s->unjudged[k])
			line(w, "  ", "%s", s->unjudged_why[k]);
	if (s->analyzed && s->nused < (s->nblocks_run ? s->nblocks_run : r_blocks))
		line(w, "  ", "the verdicts use the %u of %u blocks where every value judged has "
		     "valid trials", s->nused, s->nblocks_run ? s->nblocks_run : r_blocks);
	if (s->stopped_early)
		line(w, "  ", "stopped early after %u of %u blocks: every verdict was settled at "
		     "that look (each interval beyond the noise band or within it), at the look's "
		     "level of %.3g", s->nblocks_run, s->max_blocks, s->alpha);
}

static void sweep_table(struct textw *w, const struct tune_result *r, const struct tune_sweep *s)
{
	char lab[TUNE_VALUE_MAX + 16], rate[32], p99[32], ratio[48], pr[48];

	textw_nl(w);
	if (!s->analyzed) {
		line(w, "", "%s on %s, workload %s: %u values x %u blocks, %u tests, %u trials:",
		     tune_knob_option(s->knob), r->queue.disk, s->workload, s->nconfig, r->nblocks,
		     s->ntests, s->planned);
		line(w, "  ", "%u of %u trials ran: %s", s->ntrials, s->planned, s->reason);
		sweep_notes(w, s, r->nblocks);
		return;
	}
	line(w, "", "%s on %s, workload %s: %u values x %u blocks, %u tests, %u trials; "
	     "intervals from a randomization test within the blocks, together at %.3g %% over "
	     "%u comparisons; noise band +-%.0f %%:", tune_knob_option(s->knob), r->queue.disk,
	     s->workload, s->nconfig, s->nblocks_run ? s->nblocks_run : r->nblocks, s->ntests,
	     s->planned, 100 * (1 - (s->alpha > 0 ? s->alpha : TUNE_ALPHA)), s->ncompared,
	     100 * r->noise);
	textw_raw(w, "    %-16s %10s %9s  %-18s %-6s  %-18s %s", "value", "rate", "p99",
		  "ratio [interval]", "", "p99 ratio [interv.]", "");
	for (unsigned t = 0; t < s->ntests; t++) {
		textw_raw(w, "  %s", s->tests[t]);
		for (unsigned k = 0; k < s->nconfig; k++) {
			const struct tune_cell *c = &s->cells[k][t];

			tune_config_label(s, k, lab, sizeof(lab));
			if ((int)k == s->recommended)
				strcat(lab, " *");
			if (s->random[t]) {
				report_fmt_count(c->iops, rate, sizeof(rate) - 5);
				strcat(rate, " IOPS");
			} else {
				snprintf(rate, sizeof(rate), "%.1f MB/s", c->bytes_per_sec / 1e6);
			}
			report_fmt_ns((double)c->lat_p99_ns, p99, sizeof(p99));
			if (!k) {
				textw_raw(w, "    %-16s %10s %9s", lab, rate, p99);
				continue;
			}
			if (s->unjudged[k]) {
				textw_raw(w, "    %-16s %10s %9s  %s", lab, rate, p99,
					  "no verdict (trials failed)");
				continue;
			}
			fmt_ratio(&c->thr, ratio, sizeof(ratio));
			fmt_ratio(&c->p99, pr, sizeof(pr));
			textw_raw(w, "    %-16s %10s %9s  %-18s %-6s  %-18s %s", lab, rate, p99,
				  ratio, mark(c->thr.verdict, false), pr, mark(c->p99.verdict, true));
		}
	}
	if (s->drifted) {
		for (unsigned t = 0; t < s->ntests; t++)
			if (s->drift[t] > r->noise || s->drift[t] < -r->noise)
				line(w, "  ", "drift: %s moved %+.1f %% from the first half of the "
				     "current value's runs to the second", s->tests[t],
				     100 * s->drift[t]);
	}
	sweep_notes(w, s, r->nblocks);
	line(w, "  ", "%s: %s", s->recommended >= 0 ? "recommended" : "verdict", s->reason);
}

/* How to keep what the sweeps recommend, beyond this boot. */
static void keep_it(struct textw *w, const struct tune_result *r)
{
	char rule[512];

	if (!tune_udev_rule(r, rule, sizeof(rule)))
		return;
	textw_nl(w);
	line(w, "", "To keep it after a reboot, a udev rule (for example in "
	     "/etc/udev/rules.d/60-diskbench-tune.rules; elevator= on the kernel command line does "
	     "nothing on blk-mq kernels):");
	textw_raw(w, "  %s", rule);
}

int report_tune_text(FILE *f, const struct tune_result *r)
{
	const struct tune_queue *q = &r->queue;
	struct textw w = { .f = f };
	char now[256] = "", stop[1024];
	size_t used = 0;

	line(&w, "", "diskbench %s tune started %s on %s, kernel %s", r->tool_version,
	     r->started_at, r->host.hostname, r->host.kernel);
	line(&w, "target:   ", "%s: %s", r->target.path, q->why);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (q->have[k] && used < sizeof(now))
			used += (size_t)snprintf(now + used, sizeof(now) - used, "%s%s %s",
						 used ? ", " : "", tune_knob_attr((enum tune_knob)k),
						 q->value[k]);
	line(&w, "settings: ", "%s (before the sweep)", now);
	if (r->ncpus)
		line(&w, "pinning:  ", "%s%s", r->cpus_why, r->cpus_given ? "" :
		     " (by default, the same CPU for every trial; --cpus chooses others)");
	for (unsigned i = 0; i < r->nsweeps; i++)
		sweep_table(&w, r, &r->sweeps[i]);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (r->skipped[k])
			line(&w, "", "not swept: --%s, which tune sweeps by default (another knob was "
			     "named); add --%s %s to sweep it too", tune_knob_option((enum tune_knob)k),
			     tune_knob_option((enum tune_knob)k), r->skipped[k]);
	keep_it(&w, r);
	textw_nl(&w);
	if (r->interrupted)
		line(&w, "", "interrupted: the sweep was cut short and nothing is recommended.");
	if (tune_stop_words(r, stop, sizeof(stop)))
		line(&w, "", "%s", stop);
	line(&w, "", "%s", r->untouched ? "No setting was changed." :
	     r->restored ? "Every setting was put back and reads back as it was."
	     : r->applied ? "The recommended settings were kept (--apply)." :
	     "NOT every setting could be put back: see the messages above and run "
	     "diskbench tune --restore.");
	line(&w, "", "Rates are medians over the blocks; ratio = value / current, the geometric "
	     "mean of paired per-block ratios (p99 ratio: lower is better); MB/s = 10^6 bytes/s. "
	     "One rule for every sweep: a value is better or worse on a test's throughput or p99 "
	     "only where its whole interval lies beyond the noise band; it is recommended (*) when "
	     "it is better on some test and worse on none, unless the device drifted or the "
	     "control (the current value again) is itself better or worse.");
	for (unsigned i = 0; i < r->nwarnings; i++)
		if (!tune_is_stop_warning(r, r->warnings[i]))
			line(&w, "warning: ", "%s", r->warnings[i]);
	return textw_finish(&w);
}

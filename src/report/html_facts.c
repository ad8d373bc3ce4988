/* html_facts.c - the HTML report's facts of a run: tool, host, target, queue, file system, settings. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "html_run.h"
#include "report.h"

/* A fixed char array as a fact: never read past it; empty ones left out. */
#define FACT_ARR(w, name, key, arr) fact_str(w, name, key, arr, sizeof(arr))

static void fact_str(struct svg *w, const char *name, const char *key, const char *s, size_t n)
{
	if (s && s[0])
		html_fact(w, name, key, s, n);
}

/* An unsigned count shown as it is: its text is its JSON number. */
static void fact_u64(struct svg *w, const char *name, const char *key, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	html_fact(w, name, key, b, sizeof(b));
}

/* A capacity shown for humans, with its bytes as data-value. */
static void fact_bytes(struct svg *w, const char *name, const char *key, uint64_t v)
{
	char human[32], b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	html_fact_num(w, name, key, report_fmt_capacity(v, human, sizeof(human)), b);
}

/* An int where -1 is unknown (JSON null). */
static void fact_int(struct svg *w, const char *name, const char *key, int v)
{
	char b[24];

	if (v < 0)
		html_fact(w, name, key, "unknown", 8);
	else {
		snprintf(b, sizeof(b), "%d", v);
		html_fact(w, name, key, b, sizeof(b));
	}
}

/* A flag where -1 is unknown: yes, no, unknown (JSON true, false, null). */
static void fact_tri(struct svg *w, const char *name, const char *key, int v)
{
	const char *s = v < 0 ? "unknown" : v ? "yes" : "no";

	html_fact(w, name, key, s, strlen(s));
}

static void facts_run(struct svg *w, const struct run_result *r)
{
	char b[32], n[24];
	const char *v = r->tool_version ? r->tool_version : "", *p;

	html_facts_open(w, "Run");
	fact_str(w, "diskbench", "tool.version", v, strlen(v));
	FACT_ARR(w, "started", "started_at", r->started_at);
	FACT_ARR(w, "label", "label", r->label);
	p = result_setting(r, "profile");
	fact_str(w, "profile", "settings.profile", p, p ? strlen(p) : 0);
	snprintf(n, sizeof(n), "%" PRIu64, r->clock_overhead_ns);
	html_fact_num(w, "clock cost", "clock_overhead_ns",
		      report_fmt_ns((double)r->clock_overhead_ns, b, sizeof(b)), n);
	if (r->command_line[0])
		FACT_ARR(w, "command line", "command_line", r->command_line);
	else	/* saved before results kept the words typed */
		html_fact(w, "command line", NULL, "not recorded in the result: the settings "
			  "below are what shaped the run (defaults, then the profile, then the "
			  "command line)", 200);
	html_facts_close(w);
}

static void facts_host(struct svg *w, const struct host_info *h)
{
	html_facts_open(w, "Host");
	FACT_ARR(w, "hostname", "host.hostname", h->hostname);
	FACT_ARR(w, "kernel", "host.kernel", h->kernel);
	FACT_ARR(w, "CPU", "host.cpu_model", h->cpu_model);
	if (h->cpus)
		fact_u64(w, "CPUs", "host.cpus", h->cpus);
	if (h->memory_bytes)
		fact_bytes(w, "memory", "host.memory_bytes", h->memory_bytes);
	html_facts_close(w);
}

static void facts_target(struct svg *w, const struct target_info *t)
{
	const char *kind = t->kind_detail[0] ? t->kind_detail : target_kind_name(t->kind);

	html_facts_open(w, "Target");
	FACT_ARR(w, "path", "target.path", t->path);
	if (strncmp(t->resolved, t->path, sizeof(t->path)))
		FACT_ARR(w, "resolved", "target.resolved_path", t->resolved);
	html_fact(w, "kind", t->kind_detail[0] ? "target.kind_detail" : "target.kind", kind,
		  strlen(kind));
	FACT_ARR(w, "device", "target.device", t->device);
	if (strncmp(t->disk, t->device, sizeof(t->disk)))
		FACT_ARR(w, "disk", "target.disk", t->disk);
	FACT_ARR(w, "model", "target.model", t->model);
	FACT_ARR(w, "vendor", "target.vendor", t->vendor);
	FACT_ARR(w, "serial", "target.serial", t->serial);
	FACT_ARR(w, "firmware", "target.firmware", t->firmware);
	FACT_ARR(w, "WWN", "target.wwn", t->wwn);
	FACT_ARR(w, "transport", "target.transport", t->transport);
	if (t->size_bytes)
		fact_bytes(w, "size", "target.size_bytes", t->size_bytes);
	html_facts_close(w);
}

static void facts_queue(struct svg *w, const struct target_info *t)
{
	html_facts_open(w, "Queue");
	if (t->scheduler[0])
		FACT_ARR(w, "scheduler", "target.scheduler", t->scheduler);
	else
		html_fact(w, "scheduler", NULL, "none known (no block queue)", 64);
	FACT_ARR(w, "available", NULL, t->schedulers);
	fact_int(w, "read_ahead_kb", "target.read_ahead_kb", t->read_ahead_kb);
	fact_int(w, "nr_requests", "target.nr_requests", t->nr_requests);
	fact_int(w, "max_sectors_kb", "target.max_sectors_kb", t->max_sectors_kb);
	fact_tri(w, "rotational", "target.rotational", t->rotational);
	fact_tri(w, "write cache", "target.write_cache", t->write_cache);
	fact_tri(w, "discard", "target.discard", t->discard);
	fact_u64(w, "logical block", "target.logical_block_size", t->logical_block_size);
	fact_u64(w, "physical block", "target.physical_block_size", t->physical_block_size);
	html_facts_close(w);
}

static void facts_fs(struct svg *w, const struct target_info *t)
{
	if (t->kind == TARGET_BLOCK)
		return;
	html_facts_open(w, "File system");
	FACT_ARR(w, "type", "target.fs_type", t->fs_type);
	FACT_ARR(w, "mounted on", "target.mount_point", t->mount_point);
	FACT_ARR(w, "options", "target.mount_options", t->mount_options);
	if (t->fs_size_bytes)
		fact_bytes(w, "size", "target.fs_size_bytes", t->fs_size_bytes);
	if (t->free_bytes)
		fact_bytes(w, "free", "target.free_bytes", t->free_bytes);
	if (t->stack[0])
		html_fact(w, "stack", NULL, t->stack, sizeof(t->stack));
	if (t->encrypted)
		html_fact(w, "encrypted", NULL, "yes", 3);
	if (t->cow)
		html_fact(w, "copy-on-write", NULL, "yes", 3);
	if (t->compression[0])
		FACT_ARR(w, "compression", "target.compression", t->compression);
	if (t->members[0])
		FACT_ARR(w, "devices", NULL, t->members);
	if (t->io_limit[0])
		FACT_ARR(w, "cgroup I/O limit", "target.io_limit", t->io_limit);
	for (unsigned f = 0; f < TARGET_NFLAGS; f++) {
		char why[512];

		if (target_flag(t, f, why, sizeof(why)))
			html_fact(w, target_flag_name(f), NULL, why, sizeof(why));
	}
	html_facts_close(w);
}

static void facts_settings(struct svg *w, const struct run_result *r)
{
	char key[48];

	if (!r->nsettings)
		return;
	html_facts_open(w, "Settings");
	for (unsigned i = 0; i < r->nsettings && i < RESULT_MAX_SETTINGS; i++) {
		const struct setting *s = &r->settings[i];

		snprintf(key, sizeof(key), "settings.%.*s", (int)sizeof(s->key), s->key);
		html_fact(w, s->key, key, s->value, sizeof(s->value));
	}
	html_facts_close(w);
}

/* The drive's health (smartctl) around the run, or why there is none. */
static void facts_health(struct svg *w, const struct run_result *r)
{
	const struct run_health *h = &r->health;
	char b[768];

	if (!h->checked)
		return;
	html_facts_open(w, "Health");
	if (h->before.valid)
		html_fact(w, "before", NULL, report_health_snap(&h->before, b, sizeof(b)), sizeof(b));
	if (h->after.valid)
		html_fact(w, "after", NULL, report_health_snap(&h->after, b, sizeof(b)), sizeof(b));
	if (report_health_delta(r, b, sizeof(b))[0])
		html_fact(w, "during the run", NULL, b, sizeof(b));
	if (h->why[0])
		html_fact(w, h->before.valid ? "note" : "none", NULL, h->why, sizeof(h->why));
	html_facts_close(w);
}

void html_run_facts(struct svg *w, const struct run_result *r)
{
	svg_printf(w, "<section id=\"facts\">\n<h2>Facts</h2>\n<div class=\"facts\">\n");
	facts_run(w, r);
	facts_host(w, &r->host);
	facts_target(w, &r->target);
	facts_queue(w, &r->target);
	facts_health(w, r);
	facts_fs(w, &r->target);
	facts_settings(w, r);
	svg_printf(w, "</div>\n</section>\n");
}

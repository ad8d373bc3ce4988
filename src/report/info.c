/* info.c - `diskbench info`: every fact about a target and the write verdict, text or JSON. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_writer.h"
#include "report.h"
#include "textw.h"

#define INFO_LABEL 17		/* values start in this column */

/* A fixed char array as "%.*s" arguments: never read past the array. */
#define FLD(arr) (int)sizeof(arr), (arr)

/*
 * "label:" then the value from column pad on (one space after a longer
 * label), wrapped at spaces, continuation lines in that column. Only
 * spaces part words: a tab or newline in a path shows as '?'.
 */
static void iw_vline(struct textw *w, const char *label, unsigned pad, const char *fmt,
		     va_list ap) __attribute__((format(printf, 4, 0)));

static void iw_vline(struct textw *w, const char *label, unsigned pad, const char *fmt,
		     va_list ap)
{
	textw_start(w, label);
	textw_tab(w, pad);
	textw_vwordsf(w, " ", fmt, ap);
	textw_nl(w);
}

/* A fact: the value in the column INFO_LABEL. */
static void iw_line(struct textw *w, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void iw_line(struct textw *w, const char *label, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	iw_vline(w, label, INFO_LABEL, fmt, ap);
	va_end(ap);
}

/* A sentence: the value one space after the label ("writes allowed: yes"). */
static void iw_say(struct textw *w, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void iw_say(struct textw *w, const char *label, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	iw_vline(w, label, 0, fmt, ap);
	va_end(ap);
}

/* Whole option name in a comma-separated list. */
static bool has_opt(const char *opts, const char *name)
{
	size_t n = strlen(name), len;

	while (*opts) {
		len = strcspn(opts, ",");
		if (len == n && !strncmp(opts, name, n))
			return true;
		opts += len;
		if (*opts)
			opts++;
	}
	return false;
}

static const char *or_unknown(const char *s)
{
	return s[0] ? s : "unknown";
}

static const char *yes_no_unknown(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static const char *num_or_unknown(int v, char *buf, size_t len)
{
	if (v < 0)
		return "unknown";
	snprintf(buf, len, "%d", v);
	return buf;
}

static void info_fs(struct textw *w, const struct target_info *t)
{
	const char *mo = t->mount_options;
	char a[32], b[32];

	if (t->fs_type[0])
		iw_line(w, "file system:", "%.*s, mounted on %.*s", FLD(t->fs_type),
			FLD(t->mount_point));
	else
		iw_line(w, "file system:", "unknown");
	if (t->fs_size_bytes)
		iw_line(w, "free space:", "%s of %s (%" PRIu64 " of %" PRIu64 " bytes)",
			report_fmt_capacity(t->free_bytes, a, sizeof(a)),
			report_fmt_capacity(t->fs_size_bytes, b, sizeof(b)), t->free_bytes,
			t->fs_size_bytes);
	if (t->direct_io >= 0)
		iw_line(w, "O_DIRECT:", "%s", t->direct_io ? "taken" : "refused: tests run "
			"buffered");
	if (!mo[0])
		return;
	iw_line(w, "mount options:", "%.*s", FLD(t->mount_options));
	/* atime updates turn reads into writes: the usual surprise in a benchmark */
	if (has_opt(mo, "noatime"))
		iw_line(w, "access times:", "noatime: reads never write access times");
	else if (has_opt(mo, "strictatime") || !has_opt(mo, "relatime"))
		iw_line(w, "access times:", "atime: every read also writes the file's access "
			"time (noatime avoids it)");
	else
		iw_line(w, "access times:", "relatime: a read writes the access time at most "
			"once a day, or after a change");
}

static void info_device(struct textw *w, const struct target_info *t)
{
	char buf[64], ra[16], nr[16], ms[16];

	if (t->kind != TARGET_BLOCK) {
		if (!t->device[0]) {
			iw_line(w, "backing device:", "none found (a RAM, network or "
				"multi-device file system)");
			return;
		}
		if (t->members[0])
			iw_line(w, "backing device:", "%.*s, one of the file system's devices "
				"%.*s: their counters are summed, the queue facts are the "
				"first's", FLD(t->device), FLD(t->members));
		else if (strcmp(t->device, t->disk))
			iw_line(w, "backing device:", "%.*s, on disk %.*s", FLD(t->device),
				FLD(t->disk));
		else
			iw_line(w, "backing device:", "%.*s", FLD(t->device));
	} else if (t->device[0]) {
		if (t->disk[0] && strcmp(t->device, t->disk))
			iw_line(w, "device:", "%.*s, on disk %.*s", FLD(t->device), FLD(t->disk));
		else
			iw_line(w, "device:", "%.*s", FLD(t->device));
		iw_line(w, "size:", "%s (%" PRIu64 " bytes)",
			report_fmt_capacity(t->size_bytes, buf, sizeof(buf)), t->size_bytes);
	}
	if (!t->disk[0])
		return;
	iw_line(w, "model:", "%s", or_unknown(t->model));
	iw_line(w, "vendor:", "%s", or_unknown(t->vendor));
	iw_line(w, "serial:", "%s", or_unknown(t->serial));
	iw_line(w, "firmware:", "%s", or_unknown(t->firmware));
	iw_line(w, "WWN:", "%s", or_unknown(t->wwn));
	iw_line(w, "block size:", "logical %" PRIu32 ", physical %" PRIu32 " bytes",
		t->logical_block_size, t->physical_block_size);
	if (t->loop_dio >= 0 && t->backing_disk[0])
		iw_line(w, "rotational:", "%s; a loop device's flag says nothing of its store: "
			"the backing file is on %s, rotational %s", yes_no_unknown(t->rotational),
			t->backing_disk, yes_no_unknown(t->backing_rotational));
	else if (t->loop_dio >= 0)
		iw_line(w, "rotational:", "%s; a loop device's flag says nothing of its store, "
			"and its backing file is on no block device (tmpfs?) or gone",
			yes_no_unknown(t->rotational));
	else
		iw_line(w, "rotational:", "%s (virtual machines often report this wrongly)",
			yes_no_unknown(t->rotational));
	iw_line(w, "scheduler:", "%s [%s]", or_unknown(t->scheduler), or_unknown(t->schedulers));
	iw_line(w, "queue:", "read_ahead_kb %s, nr_requests %s, max_sectors_kb %s",
		num_or_unknown(t->read_ahead_kb, ra, sizeof(ra)),
		num_or_unknown(t->nr_requests, nr, sizeof(nr)),
		num_or_unknown(t->max_sectors_kb, ms, sizeof(ms)));
	iw_line(w, "write cache:", "%s", t->write_cache < 0 ? "unknown" :
		t->write_cache ? "write back (the device acknowledges writes before they are "
		"on stable media; flushes make them durable)" : "write through");
	if (t->transport_bps)
		iw_line(w, "transport:", "%s, at most %.0f MB/s", t->transport,
			(double)t->transport_bps / 1e6);
	if (t->discard == 1 && t->discard_granularity)
		iw_line(w, "discard:", "yes, in units of %" PRIu64 " bytes, at most %" PRIu64
			" MiB per request (queue/discard_granularity, discard_max_bytes)",
			t->discard_granularity, t->discard_max_bytes >> 20);
	else
		iw_line(w, "discard:", "%s", yes_no_unknown(t->discard));
	if (t->io_limit[0])
		iw_line(w, "I/O limit:", "%s: a cgroup limit on this process, which a run's "
			"figures may be", t->io_limit);
	if (t->loop_dio == 1)
		iw_line(w, "loop direct I/O:", "on: the backing file is read and written with "
			"O_DIRECT");
	else if (!t->loop_dio)
		iw_line(w, "loop direct I/O:", "off: O_DIRECT on this loop device is served from "
			"its backing file's page cache, not the disk under it (losetup "
			"--direct-io=on)");
}

static void info_verdict(struct textw *w, const char *label, const struct safety_verdict *v)
{
	if (!v->reason[0])
		iw_say(w, label, "%s (could not check why)", v->allowed ? "yes" : "no");
	else
		iw_say(w, label, "%s, because %.*s", v->allowed ? "yes" : "no", FLD(v->reason));
}

int report_info_text(FILE *f, const struct target_info *t, const struct safety_verdict *now,
		     const struct safety_verdict *with_destructive)
{
	const struct safety_verdict *wd = with_destructive;
	/* columns are characters: info has always counted them so */
	struct textw w = { .f = f, .chars = true };
	char buf[64];

	iw_line(&w, "target:", "%.*s", FLD(t->path));
	iw_line(&w, "resolved path:", "%.*s", FLD(t->resolved));
	if (t->kind == TARGET_BLOCK)
		iw_line(&w, "what:", "block device: %s", or_unknown(t->kind_detail));
	else
		iw_line(&w, "what:", "%s", t->kind_detail[0] ? t->kind_detail :
			target_kind_name(t->kind));
	if (t->kind == TARGET_FILE)
		iw_line(&w, "size:", "%s (%" PRIu64 " bytes)",
			report_fmt_capacity(t->size_bytes, buf, sizeof(buf)), t->size_bytes);
	if (t->kind != TARGET_BLOCK)
		info_fs(&w, t);
	info_device(&w, t);
	if (t->stack[0]) {
		iw_line(&w, "stack:", "%.*s", FLD(t->stack));
		iw_line(&w, "", "these layers change the results: compare only with runs on the "
			"same stack%s%s",
			t->encrypted ? "; encryption costs CPU time per byte" : "",
			t->cow ? "; copy-on-write fragments files that are rewritten" : "");
	}
	for (unsigned k = 0; k < TARGET_NFLAGS; k++) {
		char why[512];

		if (target_flag(t, k, why, sizeof(why)))
			iw_line(&w, "flag:", "%s: %s", target_flag_name(k), why);
	}

	textw_nl(&w);
	info_verdict(&w, "writes allowed:", now);
	if (wd && (wd->allowed != now->allowed || strncmp(wd->reason, now->reason,
							  sizeof(now->reason))))
		info_verdict(&w, "with --destructive:", wd);

	return textw_finish(&w);
}

int report_info_json(FILE *f, const struct target_info *t, const struct safety_verdict *now,
		     const struct safety_verdict *with_destructive)
{
	const struct safety_verdict *wd = with_destructive ? with_destructive : now;
	struct jw w = { .f = f };

	jw_open(&w, NULL, '{', false);
	jw_cstr(&w, "schema", "diskbench/1");
	report_json_target(&w, t);
	jw_open(&w, "writes", '{', false);
	jw_bool(&w, "allowed", now->allowed);
	jw_field(&w, "reason", now->reason);
	jw_bool(&w, "overridable", now->overridable);
	jw_open(&w, "with_destructive", '{', false);
	jw_bool(&w, "allowed", wd->allowed);
	jw_field(&w, "reason", wd->reason);
	jw_close(&w, '}');
	jw_close(&w, '}');
	jw_close(&w, '}');
	jw_putc(&w, '\n');
	return jw_finish(&w);
}

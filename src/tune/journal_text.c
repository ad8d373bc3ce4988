/* journal_text.c - the tune journal's text: written from a journal, read back into one, checked line by line. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "journal_int.h"
#include "tune.h"
#include "tune_int.h"

/*
 * The journal is text, one "key value" line each, every line ended:
 *
 *	diskbench-tune-journal 2
 *	disk loop3
 *	devno 7:3
 *	pid 1234
 *	started 2026-01-02T03:04:05Z
 *	order scheduler,max_sectors_kb,read_ahead_kb,nr_requests,nomerges,wbt_lat_usec
 *	scheduler mq-deadline
 *	read_ahead_kb 128
 *	...
 *
 * the knobs in enum order, one line for each the disk has. "order" is the
 * order the restore writes them in (every knob once): the one that puts
 * every setting back as it read, the kernel's side effects considered
 * (the scheduler first: it resets nr_requests, and bfq turns the default
 * wbt off; wbt_lat_usec last). Format 1, without it, is still read (its
 * restore order is tune_write_order, the same). The reader takes exactly
 * that and nothing else: a restore from a guess would write values nobody
 * saved.
 */
#define JOURNAL_MAGIC "diskbench-tune-journal"
#define JOURNAL_VERSION "2"

/* The lines after the first, in the order they must come ("order" in
 * format 2 only); the knobs follow, in enum order, one line for each the
 * disk has. */
static const char *const head_keys[] = { "disk", "devno", "pid", "started", "order" };
#define NHEAD_V1 4u
#define NHEAD (sizeof(head_keys) / sizeof(head_keys[0]))

/* Does s match pat, where '0' stands for any digit? */
static bool shaped(const char *s, const char *pat)
{
	for (; *pat; s++, pat++)
		if (*pat == '0' ? !(*s >= '0' && *s <= '9') : *s != *pat)
			return false;
	return !*s;
}

/* "MAJ:MIN", plain decimals, into *dev. */
static bool parse_devno(const char *s, dev_t *dev)
{
	char maj[16], min[16];
	const char *colon = strchr(s, ':');
	long long a, b;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(maj) ||
	    strlen(colon + 1) >= sizeof(min))
		return false;
	memcpy(maj, s, colon - s);
	maj[colon - s] = '\0';
	strcpy(min, colon + 1);
	if (maj[0] == '-' || min[0] == '-' || tune_parse_dec(maj, &a) || tune_parse_dec(min, &b) ||
	    a > UINT_MAX || b > UINT_MAX)
		return false;
	*dev = makedev((unsigned)a, (unsigned)b);
	return true;
}

/* Which knob attr names, or KNOB_COUNT. */
static enum tune_knob knob_of(const char *attr)
{
	enum tune_knob k;

	for (k = 0; k < KNOB_COUNT; k++)
		if (!strcmp(attr, tune_knob_attr(k)))
			break;
	return k;
}

static bool is_head_key(const char *key)
{
	size_t i;

	for (i = 0; i < NHEAD; i++)
		if (!strcmp(key, head_keys[i]))
			return true;
	return false;
}

#define BAD(no, ...) tune_journal_bad(err, errlen, path, no, __VA_ARGS__)

int tune_journal_bad(char *err, size_t errlen, const char *path, unsigned no, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (err && errlen) {
		snprintf(err, errlen, "%s:%u: ", path, no);
		used = strlen(err);
		va_start(ap, fmt);
		vsnprintf(err + used, errlen - used, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* "scheduler,max_sectors_kb,...": every knob once, into order. */
static bool parse_order(const char *val, enum tune_knob order[KNOB_COUNT])
{
	char attr[32];
	bool seen[KNOB_COUNT] = { false };
	const char *p = val;
	enum tune_knob k;
	unsigned n = 0;
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(attr) || n >= KNOB_COUNT)
			return false;
		memcpy(attr, p, len);
		attr[len] = '\0';
		k = knob_of(attr);
		if (k == KNOB_COUNT || seen[k])
			return false;
		seen[k] = true;
		order[n++] = k;
		if (!p[len])
			break;
		p += len + 1;
	}
	return n == KNOB_COUNT;
}

/* One value of the first lines into j; 0 or the message's -EINVAL. */
static int head_value(struct tune_journal *j, const char *disk, const char *path, unsigned no,
		      const char *key, const char *val, char *err, size_t errlen)
{
	long long v;

	if (!strcmp(key, "disk")) {
		if (strcmp(val, disk))
			return BAD(no, "names disk %.64s, but the file is %s's", val, disk);
		memcpy(j->saved.disk, disk, strlen(disk) + 1);
	} else if (!strcmp(key, "devno")) {
		if (!parse_devno(val, &j->saved.devno))
			return BAD(no, "'%.40s' is not a device number MAJ:MIN", val);
	} else if (!strcmp(key, "pid")) {
		if (tune_parse_dec(val, &v) || v < 1 || v > INT_MAX)
			return BAD(no, "'%.40s' is not a process id", val);
		j->pid = (pid_t)v;
	} else if (!strcmp(key, "order")) {
		if (!parse_order(val, j->order))
			return BAD(no, "'%.100s' is not every queue setting once, comma separated",
				   val);
	} else {
		if (!shaped(val, "0000-00-00T00:00:00Z"))
			return BAD(no, "'%.40s' is not a UTC time YYYY-MM-DDTHH:MM:SSZ", val);
		memcpy(j->started, val, strlen(val) + 1);
	}
	return 0;
}

int tune_journal_parse(char *text, size_t n, const char *disk, const char *path,
		       struct tune_journal *j, unsigned line[KNOB_COUNT], unsigned *nlines,
		       char *err, size_t errlen)
{
	char *p = text, *nl, *sp, *key, *val;
	enum tune_knob k, next = 0;
	unsigned no = 0, nhead = NHEAD;
	int ret;

	if (!n)
		return BAD(1, "empty: not a diskbench tune journal");
	while (p < text + n) {
		no++;
		nl = memchr(p, '\n', text + n - p);
		if (!nl)
			return BAD(no, "the line has no end: a cut journal");
		*nl = '\0';
		if (strlen(p) != (size_t)(nl - p))
			return BAD(no, "a NUL byte: not a journal");
		key = p;
		p = nl + 1;
		sp = strchr(key, ' ');
		if (no == 1 && (!sp || strncmp(key, JOURNAL_MAGIC " ", sizeof(JOURNAL_MAGIC))))
			return BAD(no, "not a diskbench tune journal");
		if (!sp || sp == key || !sp[1] || strchr(sp + 1, ' '))
			return BAD(no, "'%.40s' is not KEY VALUE", key);
		*sp = '\0';
		val = sp + 1;
		if (no == 1) {
			if (!strcmp(val, "1")) {
				/* before the order was written: the one it was */
				nhead = NHEAD_V1;
				memcpy(j->order, tune_write_order, sizeof(j->order));
			} else if (strcmp(val, JOURNAL_VERSION)) {
				return BAD(no, "journal format '%.16s'; this diskbench reads formats "
					   "1 and " JOURNAL_VERSION, val);
			}
			continue;
		}
		if (no - 2 < nhead) {
			if (strcmp(key, head_keys[no - 2])) {
				if (is_head_key(key) || knob_of(key) < KNOB_COUNT)
					return BAD(no, "%s where the %s line belongs", key,
						   head_keys[no - 2]);
				return BAD(no, "unknown key '%.40s'", key);
			}
			ret = head_value(j, disk, path, no, key, val, err, errlen);
			if (ret)
				return ret;
			continue;
		}
		k = knob_of(key);
		if (k == KNOB_COUNT) {
			if (is_head_key(key))
				return BAD(no, "%s twice", key);
			return BAD(no, "unknown key '%.40s'", key);
		}
		if (k < next)
			return BAD(no, "%s out of order or twice", key);
		if (!tune_value_valid(k, val))
			return BAD(no, "'%.40s' is not a %s value", val, key);
		memcpy(j->saved.value[k], val, strlen(val) + 1);
		j->saved.have[k] = true;
		line[k] = no;
		next = k + 1;
	}
	if (no < 1 + nhead)
		return BAD(no, "ends before its %s line", head_keys[no - 1]);
	*nlines = no;
	return 0;
}

int tune_journal_format(const struct tune_journal *j, char *buf, size_t len)
{
	const struct tune_queue *q = &j->saved;
	size_t used;
	enum tune_knob k;
	int n;

	n = snprintf(buf, len, JOURNAL_MAGIC " " JOURNAL_VERSION "\ndisk %s\ndevno %u:%u\n"
		     "pid %d\nstarted %s\norder", q->disk, major(q->devno), minor(q->devno),
		     (int)j->pid, j->started);
	for (k = 0; k < KNOB_COUNT && n >= 0 && (size_t)n < len; k++) {
		used = (size_t)n;
		n = snprintf(buf + used, len - used, "%c%s", k ? ',' : ' ',
			     tune_knob_attr(j->order[k]));
		if (n >= 0)
			n += (int)used;
	}
	if (n >= 0 && (size_t)n + 1 < len) {
		buf[n++] = '\n';
		buf[n] = '\0';
	}
	for (k = 0; k < KNOB_COUNT && n >= 0 && (size_t)n < len; k++) {
		if (!q->have[k])
			continue;
		used = (size_t)n;
		n = snprintf(buf + used, len - used, "%s %s\n", tune_knob_attr(k), q->value[k]);
		if (n >= 0)
			n += (int)used;
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

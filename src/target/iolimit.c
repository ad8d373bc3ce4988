/* iolimit.c - the cgroup I/O limits (v1 blkio throttle, v2 io.max) the process runs under. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iolimit.h"

/* What each device's rules say so far. */
struct dev_words {
	char text[256];
	size_t used;
	size_t mark;	/* used when the current cgroup's rules began */
};

struct probe {
	const dev_t *devs;
	unsigned n;
	struct dev_words *words;	/* one per device */
};

static int dev_index(const struct probe *p, unsigned maj, unsigned min)
{
	for (unsigned i = 0; i < p->n; i++)
		if (major(p->devs[i]) == maj && minor(p->devs[i]) == min)
			return (int)i;
	return -1;
}

/* One limit: "read 2000 IOPS" or "write 50.0 MB/s" (its cgroup follows). */
static void say(struct probe *p, int i, bool write, bool iops, uint64_t v)
{
	struct dev_words *d = &p->words[i];

	if (d->used >= sizeof(d->text))
		return;
	if (iops)
		d->used += (size_t)snprintf(d->text + d->used, sizeof(d->text) - d->used,
					    "%s%s %" PRIu64 " IOPS", d->used ? ", " : "",
					    write ? "write" : "read", v);
	else
		d->used += (size_t)snprintf(d->text + d->used, sizeof(d->text) - d->used,
					    "%s%s %.1f MB/s", d->used ? ", " : "",
					    write ? "write" : "read", (double)v / 1e6);
}

/* cgroup v1: blkio.throttle.<rw>_<unit>_device, "MAJ:MIN VALUE" lines. */
static void read_v1(struct probe *p, const char *dir)
{
	static const struct {
		const char *file;
		bool write, iops;
	} files[] = {
		{ "blkio.throttle.read_bps_device", false, false },
		{ "blkio.throttle.write_bps_device", true, false },
		{ "blkio.throttle.read_iops_device", false, true },
		{ "blkio.throttle.write_iops_device", true, true },
	};
	char path[PATH_MAX + 64], line[128];
	unsigned maj, min;
	unsigned long long v;

	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[k].file);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			int i;

			if (sscanf(line, "%u:%u %llu", &maj, &min, &v) != 3 || !v)
				continue;
			i = dev_index(p, maj, min);
			if (i >= 0)
				say(p, i, files[k].write, files[k].iops, v);
		}
		fclose(f);
	}
}

/* cgroup v2: io.max, "MAJ:MIN rbps=max wbps=max riops=2000 wiops=max". */
static void read_v2(struct probe *p, const char *dir)
{
	static const struct {
		const char *key;
		bool write, iops;
	} keys[] = {
		{ "rbps=", false, false },
		{ "wbps=", true, false },
		{ "riops=", false, true },
		{ "wiops=", true, true },
	};
	char path[PATH_MAX + 16], line[256];
	unsigned maj, min;
	FILE *f;

	snprintf(path, sizeof(path), "%s/io.max", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int i;

		if (sscanf(line, "%u:%u", &maj, &min) != 2)
			continue;
		i = dev_index(p, maj, min);
		if (i < 0)
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *at = strstr(line, keys[k].key);
			char *end;
			unsigned long long v;

			if (!at)
				continue;
			at += strlen(keys[k].key);
			v = strtoull(at, &end, 10);
			if (end != at && v)	/* "max": no number, no limit */
				say(p, i, keys[k].write, keys[k].iops, v);
		}
	}
	fclose(f);
}

/* Every cgroup from base + rel up to base: its rules, nearest first. */
static void walk(struct probe *p, const char *base, const char *rel, bool v2)
{
	char dir[PATH_MAX], cg[PATH_MAX + 8], *slash;
	size_t blen = strlen(base);

	if (snprintf(dir, sizeof(dir), "%s%s", base, rel) >= (int)sizeof(dir))
		return;
	/* "/a/b/" and "/": no trailing slash */
	while (strlen(dir) > blen && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	for (;;) {
		snprintf(cg, sizeof(cg), "%s %s", v2 ? "io.max" : "blkio",
			 dir[blen] ? dir + blen : "/");
		for (unsigned i = 0; i < p->n; i++)
			p->words[i].mark = p->words[i].used;
		if (v2)
			read_v2(p, dir);
		else
			read_v1(p, dir);
		for (unsigned i = 0; i < p->n; i++) {
			struct dev_words *d = &p->words[i];

			if (d->used != d->mark && d->used < sizeof(d->text))
				d->used += (size_t)snprintf(d->text + d->used,
							    sizeof(d->text) - d->used, " (%s)", cg);
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= blen || !slash || slash < dir + blen)
			break;
		*slash = '\0';
	}
}

int iolimit_probe(const char *cgroup, const char *root, const dev_t *devs,
		  const char *const *names, unsigned n, char *out, size_t len)
{
	char line[PATH_MAX + 64], base[PATH_MAX], *path, *ctl;
	struct dev_words words[8];
	struct probe p = { .devs = devs, .n = n < 8 ? n : 8, .words = words };
	size_t used = 0;
	FILE *f;

	out[0] = '\0';
	memset(words, 0, sizeof(words));
	f = fopen(cgroup, "re");
	if (!f)
		return -errno;
	/* "0::/a/b" (v2) or "7:blkio:/a/b" (v1; maybe "7:blkio,cpu:/a/b") */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		path = strrchr(line, ':');
		ctl = strchr(line, ':');
		if (!path || !ctl || path[1] != '/')
			continue;
		*path = '\0';
		if (!strcmp(line, "0:")) {
			snprintf(base, sizeof(base), "%s/cgroup.controllers", root);
			snprintf(base, sizeof(base), access(base, F_OK) ? "%s/unified" : "%s", root);
			walk(&p, base, path + 1, true);
		} else if (!strcmp(ctl + 1, "blkio") || strstr(ctl + 1, "blkio,") ||
			   strstr(ctl + 1, ",blkio")) {
			snprintf(base, sizeof(base), "%s/blkio", root);
			walk(&p, base, path + 1, false);
		}
	}
	fclose(f);
	for (unsigned i = 0; i < p.n && used < len; i++)
		if (words[i].used)
			used += (size_t)snprintf(out + used, len - used, "%s%s: %s", used ? "; " : "",
						 names[i], words[i].text);
	return 0;
}

/* budget.c - what a plan needs (memory, space, inodes, open files) and whether it fits. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "budget.h"
#include "parse.h"
#include "safety.h"
#include "strutil.h"
#include "sysfs.h"

void budget_plan(const struct test_spec *specs, unsigned n, uint64_t data_bytes,
		 struct budget_need *need)
{
	struct wl_footprint fp;

	*need = (struct budget_need){ .data_bytes = data_bytes, .disk_bytes = data_bytes,
				      .disk_test = n };
	for (unsigned i = 0; i < n; i++) {
		runner_footprint(&specs[i], &fp);
		if (fp.mem_bytes > need->mem_bytes) {
			need->mem_bytes = fp.mem_bytes;
			need->mem_test = i;
		}
		if (data_bytes + fp.disk_bytes > need->disk_bytes) {
			need->disk_bytes = data_bytes + fp.disk_bytes;
			need->disk_test = i;
		}
		if (fp.inodes > need->inodes) {
			need->inodes = fp.inodes;
			need->inode_test = i;
		}
		if (fp.fds > need->fds) {
			need->fds = fp.fds;
			need->fd_test = i;
		}
		if (fp.fds * specs[i].jobs > need->fds_all) {
			need->fds_all = fp.fds * specs[i].jobs;
			need->fds_all_test = i;
		}
	}
	/* the scratch directory and the data file */
	need->inodes += 2;
}

/* Does t make many files of its own (the file tests)? */
static bool makes_files(const struct test_spec *t)
{
	struct wl_footprint fp;

	runner_footprint(t, &fp);
	return fp.inodes > t->jobs;
}

/* A test and the options that size it: "rand-read (--jobs 64 --qd 64 --bs 1m)". */
static void describe(const struct test_spec *t, char *buf, size_t len)
{
	char bs[32], sz[32];

	format_size(t->bs, bs, sizeof(bs));
	format_size(t->size, sz, sizeof(sz));
	if (t->wl->kind == WL_BLOCK && t->reqlog_max)
		snprintf(buf, len, "%s (--jobs %u --qd %u --bs %s --lat-log-max %" PRIu64 ")",
			 t->wl->name, t->jobs, t->qd, bs, t->reqlog_max);
	else if (t->wl->kind == WL_BLOCK)
		snprintf(buf, len, "%s (--jobs %u --qd %u --bs %s)", t->wl->name, t->jobs, t->qd,
			 bs);
	else if (makes_files(t))
		snprintf(buf, len, "%s (--jobs %u --files %" PRIu64 " --dirs %u)", t->wl->name,
			 t->jobs, wl_params_resolve(t->params).nfiles,
			 wl_params_resolve(t->params).ndirs);
	else
		snprintf(buf, len, "%s (--jobs %u --size %s)", t->wl->name, t->jobs, sz);
}

/* What to change for a test of this kind. */
static const char *remedy(const struct test_spec *t)
{
	if (t->wl->kind == WL_BLOCK && t->reqlog_max)
		return "lower --lat-log-max, --jobs, --qd or --bs";
	if (t->wl->kind == WL_BLOCK)
		return "lower --jobs, --qd or --bs";
	if (makes_files(t))
		return "lower --files, --dirs or --jobs";
	return "lower --jobs or --size";
}

/* key's value in a "key value" file (memory.stat), 0 when absent. */
static uint64_t stat_key(const char *path, const char *key)
{
	char line[256], k[128];
	unsigned long long v;
	uint64_t out = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", k, &v) == 2 && !strcmp(k, key))
			out = v;
	fclose(f);
	return out;
}

/*
 * Room left in the memory cgroup whose directory is base + rel, and in
 * every ancestor (a parent's limit binds its children): limit - usage +
 * the reclaimable file cache. Keeps the smallest in m.
 */
static void cgroup_room(struct budget_mem *m, const char *base, const char *rel, bool v2)
{
	char dir[PATH_MAX], p[PATH_MAX + 32], *slash;
	uint64_t limit, usage, cache, room;

	if (snprintf(dir, sizeof(dir), "%s%s", base, rel) >= (int)sizeof(dir))
		return;
	for (;;) {
		/* "max" (v2: no limit) reads as UINT64_MAX */
		if (!sysfs_read_u64(&limit, "%s/%s", dir, v2 ? "memory.max" :
				    "memory.limit_in_bytes") && limit < (UINT64_MAX >> 2)) {
			if (sysfs_read_u64(&usage, "%s/%s", dir, v2 ? "memory.current" :
					   "memory.usage_in_bytes"))
				usage = 0;
			snprintf(p, sizeof(p), "%s/memory.stat", dir);
			cache = v2 ? stat_key(p, "inactive_file") + stat_key(p, "active_file") :
				     stat_key(p, "total_inactive_file") +
				     stat_key(p, "total_active_file");
			usage = cache < usage ? usage - cache : 0;
			room = usage < limit ? limit - usage : 0;
			if (room < m->available) {
				const char *name = dir + strlen(base);
				char lim[32];

				m->available = room;
				snprintf(m->by, sizeof(m->by), "what memory cgroup %s (limit %s) "
					 "has left", name[0] ? name : "/",
					 str_bytes_iec(limit, lim, sizeof(lim)));
			}
		}
		if (strlen(dir) <= strlen(base))
			break;
		slash = strrchr(dir, '/');
		if (!slash || slash < dir + strlen(base))
			break;
		*slash = '\0';
	}
}

int budget_memory(struct budget_mem *m)
{
	char line[PATH_MAX + 64], *path;
	FILE *f;
	unsigned long long kb;
	bool found = false;

	m->available = UINT64_MAX;
	m->by[0] = '\0';
	f = fopen("/proc/meminfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			m->available = (uint64_t)kb * 1024;
			snprintf(m->by, sizeof(m->by), "the available memory");
			found = true;
		}
	}
	fclose(f);
	if (!found)
		return -ENODATA;
	/* "0::/a/b" (v2) or "4:memory:/a/b" (v1) */
	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		path = strrchr(line, ':');
		if (!path || path[1] != '/')
			continue;
		if (!strncmp(line, "0::", 3)) {
			cgroup_room(m, access("/sys/fs/cgroup/cgroup.controllers", F_OK) ?
				       "/sys/fs/cgroup/unified" : "/sys/fs/cgroup", path + 1, true);
			continue;
		}
		*path = '\0';
		if (strstr(line, ":memory") || strstr(line, ",memory"))
			cgroup_room(m, "/sys/fs/cgroup/memory", path + 1, false);
	}
	fclose(f);
	return 0;
}

int budget_check_memory(const struct budget_need *need, const struct test_spec *specs,
			const struct budget_mem *m, char *err, size_t errlen)
{
	const struct test_spec *t = &specs[need->mem_test];
	char what[160], a[32], b[32];

	/* Half, as for disk space: leave the rest to the page cache and to
	 * everyone else on the machine. */
	if (need->mem_bytes <= m->available / 2)
		return 0;
	describe(t, what, sizeof(what));
	snprintf(err, errlen, "%s needs %s of buffers and tables; diskbench takes at most half "
		 "of %s (%s): %s", what, str_bytes_iec(need->mem_bytes, a, sizeof(a)), m->by,
		 str_bytes_iec(m->available, b, sizeof(b)), remedy(t));
	return -ENOMEM;
}

int budget_check_space(const struct budget_need *need, const struct test_spec *specs,
		       unsigned n, const struct target_info *ti, unsigned max_fill_pct,
		       char *err, size_t errlen)
{
	struct safety_verdict v;
	struct statvfs vfs;
	char what[200];
	uint64_t used;
	int ret;

	if (ti->kind != TARGET_DIR)
		return 0;
	ret = safety_check_fill(ti, need->disk_bytes, max_fill_pct, &v);
	if (ret || !v.allowed) {
		/* what the bytes are: the data file, a test's own files */
		if (need->disk_test < n) {
			describe(&specs[need->disk_test], what, sizeof(what));
			snprintf(err, errlen, "refusing to write to %s: %s (%sthe files of %s): "
				 "lower %s--files or --file-size, or raise --max-fill", ti->path,
				 v.reason, need->data_bytes ? "the working set and " : "", what,
				 need->data_bytes ? "--size, " : "");
		} else {
			snprintf(err, errlen, "refusing to write to %s: %s (the working set): "
				 "lower --size or raise --max-fill", ti->path, v.reason);
		}
		return ret ? ret : -ENOSPC;
	}
	/* Inodes: some file systems make them as needed and report none. */
	if (statvfs(ti->resolved, &vfs) || !vfs.f_files)
		return 0;
	describe(&specs[need->inode_test], what, sizeof(what));
	used = vfs.f_files > vfs.f_ffree ? vfs.f_files - vfs.f_ffree : 0;
	if (need->inodes > vfs.f_favail ||
	    (unsigned __int128)(used + need->inodes) * 100 >
	    (unsigned __int128)max_fill_pct * vfs.f_files) {
		snprintf(err, errlen, "refusing to write to %s: %s makes %" PRIu64 " files and "
			 "directories, which would use %" PRIu64 " of its file system's %" PRIu64
			 " inodes (%" PRIu64 " free; limit %u %%, --max-fill): lower --files, "
			 "--dirs or --jobs", ti->path, what, need->inodes,
			 used + need->inodes, (uint64_t)vfs.f_files, (uint64_t)vfs.f_favail,
			 max_fill_pct);
		return -ENOSPC;
	}
	return 0;
}

/* Descriptors open in this process now (those of /proc/self/fd but its
 * own); 3 when it cannot be read. */
static uint64_t fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	uint64_t n = 0;

	if (!d)
		return 3;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n ? n - 1 : 0;
}

int budget_check_fds(const struct budget_need *need, const struct test_spec *specs, char *err,
		     size_t errlen)
{
	const bool own = runner_private_files();
	const uint64_t jobs_fds = own ? need->fds : need->fds_all, open_now = fds_open();
	rlim_t want = jobs_fds + open_now + BUDGET_FDS_RESERVE, limit;
	const struct test_spec *t;
	char what[160], lower[96];
	uint64_t room, per;
	struct rlimit rl;

	/* (a plan that needs none has no test to name) */
	if (!jobs_fds || getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    want <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || want <= rl.rlim_max) {
		rl.rlim_cur = want;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	t = &specs[own ? need->fd_test : need->fds_all_test];
	per = own ? need->fds : need->fds_all / (t->jobs ? t->jobs : 1);
	limit = rl.rlim_max == RLIM_INFINITY ? rl.rlim_cur : rl.rlim_max;
	/* what is left for the jobs under the limit */
	room = limit > open_now + BUDGET_FDS_RESERVE ? limit - open_now - BUDGET_FDS_RESERVE : 0;
	describe(t, what, sizeof(what));
	if (makes_files(t) && per > 3 && room / (own ? 1 : t->jobs) > 3)
		/* the file tests hold a directory open each (and 3 more) */
		snprintf(lower, sizeof(lower), "lower --dirs to %" PRIu64 " or fewer, or raise "
			 "ulimit -n", room / (own ? 1 : t->jobs) - 3);
	else if (!own && t->jobs > 1 && room >= per)
		snprintf(lower, sizeof(lower), "lower --jobs to %" PRIu64 " or fewer, or raise "
			 "ulimit -n", room / per);
	else
		snprintf(lower, sizeof(lower), "no option of the test lowers it: raise ulimit -n");
	snprintf(err, errlen, "%s needs %llu open files: %" PRIu64 " %s, %" PRIu64 " open now "
		 "and %d in reserve for the run's own; more than the limit of open files, %llu "
		 "(ulimit -n): %s to %llu or more", what, (unsigned long long)want, jobs_fds,
		 own ? "per job (each has a table of its own)" : "for its jobs together (they "
		 "share one table)", open_now, BUDGET_FDS_RESERVE, (unsigned long long)limit,
		 lower, (unsigned long long)want);
	return -EMFILE;
}

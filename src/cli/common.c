/* common.c - what the run and tune subcommands both do before they measure. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "profile.h"
#include "safety.h"

void cli_writes_verdict(const char *destructive, const struct target_info *ti,
			struct safety_verdict *v)
{
	int ret = safety_check_writes(ti, destructive, v);

	if (ret && !v->reason[0])
		snprintf(v->reason, sizeof(v->reason), "the safety checks failed: %s",
			 strerror(-ret));
	if (ret)
		v->allowed = false;
}

int cli_check_dir_writable(const struct target_info *ti, char *err, size_t errlen)
{
	struct statvfs sv;

	if (ti->kind != TARGET_DIR)
		return 0;
	if (!statvfs(ti->resolved, &sv) && (sv.f_flag & ST_RDONLY)) {
		snprintf(err, errlen, "%s is on a read-only file system: diskbench writes its "
			 "scratch files in a directory target (to read a device, name the "
			 "device)", ti->path);
		return -EROFS;
	}
	if (access(ti->resolved, W_OK | X_OK)) {
		snprintf(err, errlen, "%s: cannot create scratch files here: %s", ti->path,
			 strerror(errno));
		return -EACCES;
	}
	return 0;
}

void cli_now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int cli_load_profile(const char *name, struct profile *prof)
{
	char err[600];
	int ret = profile_load(prof, name, err, sizeof(err));

	if (!ret)
		return EXIT_OK;
	cli_error("%s", err);
	return ret == -ENOMEM || ret == -EIO ? EXIT_RUNTIME : EXIT_USAGE;
}

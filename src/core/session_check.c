/* session_check.c - before a session: can the plan do what was asked on this target? */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "session.h"
#include "workload.h"

int session_check_trim(const struct target_info *ti, const struct safety_verdict *writes,
		       char *err, size_t errlen)
{
	int fd, ret;

	switch (ti->kind) {
	case TARGET_FILE:
		snprintf(err, errlen, "--trim: %s is a file: only a directory's file system "
			 "(fstrim) or a block device can be trimmed", ti->path);
		return -EINVAL;
	case TARGET_BLOCK:
		if (!writes->allowed) {
			snprintf(err, errlen, "--trim: writes to %s are not allowed, and a discard "
				 "destroys data as a write does: %s", ti->path, writes->reason);
			return -EPERM;
		}
		if (ti->discard == 0) {
			snprintf(err, errlen, "--trim: %s takes no discard (queue/discard_max_bytes "
				 "is 0)", ti->path);
			return -EINVAL;
		}
		return 0;
	case TARGET_DIR:
		fd = open(ti->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = fd < 0 ? -errno : target_trim_supported(fd);
		if (fd >= 0)
			close(fd);
		if (ret == -EOPNOTSUPP) {
			snprintf(err, errlen, "--trim: the file system of %s (%s) takes no FITRIM",
				 ti->path, ti->fs_type[0] ? ti->fs_type : "unknown");
			return -EINVAL;
		}
		if (ret) {
			snprintf(err, errlen, "--trim: FITRIM on %s: %s", ti->path, strerror(-ret));
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

int session_check_verify(const struct plan *p, const struct target_info *ti,
			 const struct safety_verdict *writes, char *own, size_t ownlen,
			 char *err, size_t errlen)
{
	char reads[512], skipped[512];
	unsigned nreads = plan_unverified(p, false, reads, sizeof(reads));
	unsigned nown = plan_unverified(p, true, own, ownlen);

	if (plan_verified(p)) {
		if (!nown)
			own[0] = '\0';
		return 0;
	}
	if (plan_skipped(p, PLAN_SKIP_WRITES, skipped, sizeof(skipped))) {
		snprintf(err, errlen, "--verify: writes to %s are not allowed (%s), and the tests "
			 "that write blocks to check were left out: %s", ti->path, writes->reason,
			 skipped);
		return -EPERM;
	}
	snprintf(err, errlen, "--verify: no test writes blocks it could check (%s%s%s%s); to check "
		 "what an earlier run wrote, use --test verify", reads, nreads && nown ? ", " : "",
		 own, nown ? " doing its own I/O" : "");
	return -EINVAL;
}

int session_check_hipri(const struct plan *p, const struct engine_ops *e,
			const struct target_info *ti, char *err, size_t errlen)
{
	const char *dev = ti->disk[0] ? ti->disk : ti->path;

	if (!(e->flags & ENGINE_F_POLLS)) {
		snprintf(err, errlen, "--hipri: only the io_uring engine polls for completions "
			 "(not %s)", e->name);
		return -EINVAL;
	}
	for (unsigned i = 0; i < p->n; i++) {
		if (!p->specs[i].direct && p->specs[i].wl->kind == WL_BLOCK) {
			snprintf(err, errlen, "--hipri: polled completions need O_DIRECT, and %s is "
				 "buffered", p->names[i]);
			return -EINVAL;
		}
	}
	if (ti->io_poll != 1) {
		snprintf(err, errlen, "--hipri: %s has no poll queues (queue/io_poll is %s): polling "
			 "needs a device that has them, such as NVMe loaded with "
			 "nvme.poll_queues=N", dev, ti->io_poll == 0 ? "0" : "unknown");
		return -EINVAL;
	}
	return 0;
}

int session_check_budget(const struct plan *p, const struct engine_ops *e,
			 const struct target_info *ti, uint64_t size, unsigned max_fill,
			 char *err, size_t errlen)
{
	bool io = !(e->flags & ENGINE_F_NO_IO);
	struct budget_need need;
	struct budget_mem mem;
	int ret;

	budget_plan(p->specs, p->n, ti->kind == TARGET_DIR && plan_needs_data(p) && io ? size : 0,
		    &need);
	ret = budget_memory(&mem) ? 0 : budget_check_memory(&need, p->specs, &mem, err, errlen);
	if (!ret)
		ret = budget_check_fds(&need, p->specs, err, errlen);
	if (ret)
		return -EINVAL;
	if (io && budget_check_space(&need, p->specs, p->n, ti, max_fill, err, errlen))
		return -ENOSPC;
	return 0;
}

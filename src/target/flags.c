/* flags.c - the honesty flags of a target's stack, each with its reason, for every report. */
#include <stdio.h>
#include <string.h>

#include "target.h"

bool target_stack_has(const char *stack, const char *layer)
{
	size_t n = strlen(layer);

	for (const char *p = strstr(stack, layer); p; p = strstr(p + 1, layer))
		if ((p == stack || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return true;
	return false;
}

static bool reason_compression(const struct target_info *t, char *r, size_t len)
{
	if (!t->compression[0])
		return false;
	snprintf(r, len, "btrfs compresses what is written here (%.*s): diskbench writes "
		 "incompressible data, which btrfs tries to compress and then stores as it "
		 "is, so the write numbers include that CPU time; compressible data would "
		 "go faster than the disk can write (--data zero shows it)", (int)sizeof(t->compression),
		 t->compression);
	return true;
}

static bool reason_cow(const struct target_info *t, char *r, size_t len)
{
	if (t->cow && target_stack_has(t->stack, "btrfs copy-on-write"))
		snprintf(r, len, "btrfs copy-on-write: an overwrite goes to a new place on the "
			 "disk and updates checksums and the extent tree, so write tests "
			 "measure that and rewritten files fragment (nodatacow, or chattr +C "
			 "on the empty directory, writes in place)");
	else if (t->cow && (target_stack_has(t->stack, "zfs") ||
			    target_stack_has(t->stack, "bcachefs")))
		snprintf(r, len, "%.*s copies on write: an overwrite goes to a new place on "
			 "the disk and updates its metadata, so write tests measure that",
			 (int)sizeof(t->fs_type), t->fs_type);
	else
		return false;
	return true;
}

static bool reason_encryption(const struct target_info *t, char *r, size_t len)
{
	static const char *const layers[] = { "dm-crypt", "fscrypt", "ecryptfs" };
	char names[64] = "";
	size_t used = 0;

	if (!t->encrypted)
		return false;
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		if (target_stack_has(t->stack, layers[i]))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 used ? ", " : "", layers[i]);
	snprintf(r, len, "%s encrypts the data: every byte read or written costs CPU time, "
		 "so the numbers are those of the encrypted stack, not of the disk%s",
		 used ? names : "a layer", t->direct_via_cache ? "; and without -o inlinecrypt "
		 "the kernel serves O_DIRECT on it through the page cache, so tests asked to "
		 "bypass the cache run buffered, as if their file were larger than RAM" : "");
	return true;
}

static bool reason_arc(const struct target_info *t, char *r, size_t len)
{
	if (!t->arc)
		return false;
	snprintf(r, len, "ZFS caches what it reads in its ARC (RAM), which O_DIRECT does "
		 "not bypass before OpenZFS 2.3: read numbers may be the ARC's, not the "
		 "disks'; ZFS also copies on write");
	return true;
}

static bool reason_no_direct(const struct target_info *t, char *r, size_t len)
{
	/* served through the cache, not refused: the encryption flag says it */
	if (t->direct_io != 0 || t->direct_via_cache)
		return false;
	snprintf(r, len, "%.*s refuses O_DIRECT (open: EINVAL): tests asked to bypass the "
		 "page cache run buffered instead, as if their file were larger than RAM",
		 (int)sizeof(t->fs_type), t->fs_type[0] ? t->fs_type : "the file system");
	return true;
}

static const struct {
	const char *name;
	bool writes_only;
	bool (*reason)(const struct target_info *t, char *r, size_t len);
} flags[TARGET_NFLAGS] = {
	[TARGET_FLAG_COMPRESSION] = { .name = "compression", .reason = reason_compression },
	[TARGET_FLAG_COW] = { .name = "copy_on_write", .writes_only = true,
			      .reason = reason_cow },
	[TARGET_FLAG_ENCRYPTION] = { .name = "encryption", .reason = reason_encryption },
	[TARGET_FLAG_ZFS_ARC] = { .name = "zfs_arc", .reason = reason_arc },
	[TARGET_FLAG_O_DIRECT_REFUSED] = { .name = "o_direct_refused",
					   .reason = reason_no_direct },
};

const char *target_flag_name(enum target_flag f)
{
	return (unsigned)f < TARGET_NFLAGS ? flags[f].name : "unknown";
}

bool target_flag_applies(enum target_flag f, bool is_write)
{
	return (unsigned)f < TARGET_NFLAGS && (is_write || !flags[f].writes_only);
}

bool target_flag(const struct target_info *t, enum target_flag f, char *reason, size_t len)
{
	char dummy[8];

	if ((unsigned)f >= TARGET_NFLAGS)
		return false;
	if (!reason || !len) {
		reason = dummy;
		len = sizeof(dummy);
	}
	return flags[f].reason(t, reason, len);
}

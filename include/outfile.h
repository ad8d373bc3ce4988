/* outfile.h - report files that never destroy data: the symlink rule, file types, atomic replace. */
#ifndef DISKBENCH_OUTFILE_H
#define DISKBENCH_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* What an output path names, once resolved (outfile_check). */
enum outfile_kind {
	OUTFILE_STDOUT,		/* "-" */
	OUTFILE_NEW,		/* a name not taken yet, in a writable directory */
	OUTFILE_REPLACE,	/* an existing regular file: replaced whole */
	OUTFILE_STREAM,		/* a FIFO, a terminal or /dev/null: written as it is */
	OUTFILE_APPEND,		/* a regular file behind a /proc magic link
				 * (/dev/stdout redirected to a file): appended to */
};

/* Where a report goes: enough to tell two outputs that land in one place. */
struct outfile_id {
	enum outfile_kind kind;
	dev_t dev;		/* of the object, or of the directory for OUTFILE_NEW */
	ino_t ino;
	bool devnull;		/* /dev/null, which any number of outputs may share */
	char name[256];		/* OUTFILE_NEW: the name in that directory */
};

/*
 * May a report be written to path? path is resolved one component at a
 * time (openat with O_PATH | O_NOFOLLOW): a symlink is followed only when it
 * belongs to the caller or to the owner of the directory it sits in - the
 * kernel's protected_symlinks rule, applied in every directory whatever the
 * sysctl says - and never more than 40 of them. Symlinks on /proc (the magic
 * links behind /dev/stdout and /dev/fd/N) are resolved by the kernel. What
 * it may end at: "-", a new name in an existing directory the caller can
 * create files in (tried with a temporary file), an existing regular file
 * that holds no one else's data (see safety_file_holds_data), a FIFO, a
 * terminal or /dev/null. Fills id (may be NULL). Returns 0, or -errno with a
 * one-line reason in err that names path:
 *   -EPERM   a symlink planted by another user (a safety refusal)
 *   -EBUSY   a file that backs a loop device, is swap or carries a
 *            file-system signature (a safety refusal)
 *   -EISDIR, -ENOTDIR, -ENOENT, -EACCES, -EROFS, -ELOOP  as named
 *   -EINVAL  a block device, a socket, or any other special file
 * Never writes anything but the temporary probe file, which it removes.
 */
int outfile_check(const char *path, struct outfile_id *id, char *err, size_t errlen);

/*
 * Write len bytes of buf to path, all or nothing where the kind allows it:
 * "-" is stdout; a new file or a replaced one is written to a temporary
 * file created O_EXCL | O_NOFOLLOW in the destination directory, synced,
 * given the mode and owner of the file it replaces (a new one: 0666 less
 * the umask; never wider) and renamed into place; a stream is written as
 * it is. The path is resolved again as outfile_check does (it may have
 * changed during a run). Returns 0 or -errno with the reason in err.
 */
int outfile_write(const char *path, const void *buf, size_t len, char *err, size_t errlen);

/*
 * An output written as it goes (a log too large to render in memory
 * first), with outfile_write's guarantees: outfile_open resolves path as
 * outfile_check does and gives a FILE to write to; a new file or a
 * replaced one is a temporary file beside it until outfile_commit syncs it,
 * gives it the mode and owner outfile_write would and renames it into
 * place; outfile_abort removes it (the file it would replace is left
 * untouched). A stream (FIFO, terminal, /dev/null, an appended file) is
 * written as it is, and "-" is stdout (left open). Each returns 0 or
 * -errno with a one-line reason in err; after outfile_commit or
 * outfile_abort the stream is closed, whatever happened (abort on a
 * closed one does nothing).
 */
struct outfile_pending;
struct outfile_stream {
	FILE *f;		/* write here; NULL once closed */
	struct outfile_pending *pending;	/* outfile.c's own */
};
int outfile_open(const char *path, struct outfile_stream *s, char *err, size_t errlen);
int outfile_commit(struct outfile_stream *s, char *err, size_t errlen);
void outfile_abort(struct outfile_stream *s);

/* Do two checked outputs land in the same place (and not on /dev/null)? */
bool outfile_same(const struct outfile_id *a, const struct outfile_id *b);

#endif

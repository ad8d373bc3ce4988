/* mountinfo.c - the mounts of /proc/self/mountinfo, one parsed line at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "mountinfo.h"

void mnt_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* Split line into m; 0, or -EINVAL for a line that does not parse. */
static int parse(char *line, struct mnt_entry *m)
{
	char *f[6], *sep, *save, *fstype, *src, *super;
	unsigned maj, min, i;

	line[strcspn(line, "\n")] = '\0';
	/* the optional fields end at " - "; escaped paths hold no spaces */
	sep = strstr(line, " - ");
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	/* id parent MAJ:MIN root mountpoint options */
	f[0] = strtok_r(line, " ", &save);
	for (i = 1; i < 6; i++)
		f[i] = f[i - 1] ? strtok_r(NULL, " ", &save) : NULL;
	if (!f[5] || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	/* fstype source superoptions */
	fstype = strtok_r(sep + 3, " ", &save);
	src = fstype ? strtok_r(NULL, " ", &save) : NULL;
	if (!src)
		return -EINVAL;
	super = strtok_r(NULL, " ", &save);
	mnt_unescape(f[3]);
	mnt_unescape(f[4]);
	mnt_unescape(src);
	*m = (struct mnt_entry){ .dev = makedev(maj, min), .root = f[3], .point = f[4],
				 .options = f[5], .fstype = fstype, .source = src,
				 .super = super ? super : "" };
	return 0;
}

int mnt_walk(int (*fn)(const struct mnt_entry *m, void *arg), void *arg)
{
	struct mnt_entry m;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (!ret && getline(&line, &cap, f) > 0)
		if (!parse(line, &m))
			ret = fn(&m, arg);
	free(line);
	fclose(f);
	return ret;
}

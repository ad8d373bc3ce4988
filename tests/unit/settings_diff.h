/* settings_diff.h - a struct settings as the text of what differs from the defaults. */
#ifndef DISKBENCH_TEST_SETTINGS_DIFF_H
#define DISKBENCH_TEST_SETTINGS_DIFF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "result.h"

static void diff_add(char *buf, size_t len, const char *key, const char *val)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", key, val);
}

static void diff_str(char *buf, size_t len, const char *key, const char *val)
{
	if (val)
		diff_add(buf, len, key, val);
}

static void diff_bool(char *buf, size_t len, const char *key, bool val)
{
	if (val)
		diff_add(buf, len, key, "true");
}

/*
 * Write to buf, as "key=value" words in option-table order, every setting
 * of s whose value is not the default's: "bs=4k,8k runtime=500ms". The
 * values are those echoed into a report (opts_echo), so a row's expected
 * text reads like the settings of a result; the options a report does not
 * echo (label, the output files, quiet, help, version) follow when set.
 * A setting the defaults have and s lacks shows as "key=".
 */
static void settings_diff(const struct settings *s, char *buf, size_t len)
{
	struct run_result *got = calloc(1, sizeof(*got)), *def = calloc(1, sizeof(*def));
	struct settings d;

	buf[0] = 0;
	if (!got || !def) {
		snprintf(buf, len, "out of memory");
		goto out;
	}
	opts_defaults(&d);
	opts_echo(&d, def);
	opts_echo(s, got);
	for (unsigned i = 0; i < got->nsettings; i++) {
		const struct setting *g = &got->settings[i];
		unsigned k;

		for (k = 0; k < def->nsettings; k++)
			if (!strcmp(def->settings[k].key, g->key))
				break;
		if (k == def->nsettings || strcmp(def->settings[k].value, g->value))
			diff_add(buf, len, g->key, g->value);
	}
	for (unsigned k = 0; k < def->nsettings; k++) {
		unsigned i;

		for (i = 0; i < got->nsettings; i++)
			if (!strcmp(def->settings[k].key, got->settings[i].key))
				break;
		if (i == got->nsettings)
			diff_add(buf, len, def->settings[k].key, "");
	}
	diff_str(buf, len, "label", s->label);
	diff_str(buf, len, "json", s->json);
	diff_str(buf, len, "csv", s->csv);
	diff_str(buf, len, "bonnie-csv", s->bonnie_csv);
	diff_str(buf, len, "baseline", s->baseline);
	diff_bool(buf, len, "quiet", s->quiet);
	diff_bool(buf, len, "help", s->help);
	diff_bool(buf, len, "version", s->version);
out:
	free(got);
	free(def);
}

#endif

/* health_parse.c - a smartctl --json document into a health snapshot (health.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "health.h"

void health_snap_init(struct health_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->temperature_c = s->temperature_warn_c = s->percentage_used = -1;
	s->power_on_hours = s->media_errors = s->crc_errors = -1;
	s->written_bytes = s->read_bytes = -1;
	s->nvme_units_written = s->nvme_units_read = -1;
	s->warning_temp_minutes = s->thermal_transitions = -1;
}

/* The integer at o.a(.b), or -1 when absent or not a non-negative integer. */
static int64_t num(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	if (b)
		v = json_object_get(v, b);
	return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

static void str(char *out, size_t len, json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(out, len, "%s", v ? v : "");
}

/* -1 stays -1 in a sum; two unknowns are unknown. */
static int64_t sum(int64_t a, int64_t b)
{
	return a < 0 ? b : b < 0 ? a : a + b;
}

/* units x bytes_per_unit of smartctl's "host_writes"/"host_reads". */
static int64_t host_bytes(json_t *d, const char *key)
{
	int64_t u = num(d, key, "units"), per = num(d, key, "bytes_per_unit");

	return u < 0 || per <= 0 || u > INT64_MAX / per ? -1 : u * per;
}

static void parse_nvme(json_t *log, struct health_snap *s)
{
	int64_t t1 = num(log, "thermal_mgmt_temperature_1_transition_count", NULL);
	int64_t t2 = num(log, "thermal_mgmt_temperature_2_transition_count", NULL);

	s->media_errors = num(log, "media_errors", NULL);
	s->nvme_units_written = num(log, "data_units_written", NULL);
	s->nvme_units_read = num(log, "data_units_read", NULL);
	s->warning_temp_minutes = num(log, "warning_temp_time", NULL);
	s->thermal_transitions = sum(t1, t2);
	if (s->written_bytes < 0 && s->nvme_units_written >= 0)
		s->written_bytes = s->nvme_units_written * 512000;
	if (s->read_bytes < 0 && s->nvme_units_read >= 0)
		s->read_bytes = s->nvme_units_read * 512000;
	if (s->percentage_used < 0)
		s->percentage_used = num(log, "percentage_used", NULL);
	if (s->temperature_c < 0)
		s->temperature_c = num(log, "temperature", NULL);
	if (s->power_on_hours < 0)
		s->power_on_hours = num(log, "power_on_hours", NULL);
}

/* An ATA attribute's raw value by id, -1 when the table lacks it. */
static int64_t ata_raw(json_t *table, int id)
{
	size_t i;
	json_t *a;

	json_array_foreach(table, i, a)
		if (json_integer_value(json_object_get(a, "id")) == id)
			return num(a, "raw", "value");
	return -1;
}

static void parse_ata(json_t *table, uint32_t lbs, struct health_snap *s)
{
	int64_t w = ata_raw(table, 241), r = ata_raw(table, 242);

	s->media_errors = sum(ata_raw(table, 187), ata_raw(table, 198));
	s->crc_errors = ata_raw(table, 199);
	/* Total_LBAs_Written where the device statistics (-x) gave nothing */
	if (s->written_bytes < 0 && w >= 0)
		s->written_bytes = w * lbs;
	if (s->read_bytes < 0 && r >= 0)
		s->read_bytes = r * lbs;
}

int health_parse(const char *json, size_t len, struct health_snap *s, char *why, size_t wlen)
{
	json_t *d = json_loadb(json, len, 0, NULL), *log, *table, *msgs;
	int64_t lbs;
	int ret = 0;

	health_snap_init(s);
	if (!json_is_object(d)) {
		snprintf(why, wlen, "smartctl printed no JSON");
		json_decref(d);
		return -EINVAL;
	}
	str(s->protocol, sizeof(s->protocol), json_object_get(d, "device"), "protocol");
	str(s->model, sizeof(s->model), d, "model_name");
	str(s->serial, sizeof(s->serial), d, "serial_number");
	str(s->firmware, sizeof(s->firmware), d, "firmware_version");
	s->temperature_c = num(d, "temperature", "current");
	s->temperature_warn_c = num(d, "temperature", "op_limit_max");
	s->percentage_used = num(d, "endurance_used", "current_percent");
	s->power_on_hours = num(d, "power_on_time", "hours");
	s->written_bytes = host_bytes(d, "host_writes");
	s->read_bytes = host_bytes(d, "host_reads");
	lbs = num(d, "logical_block_size", NULL);
	log = json_object_get(d, "nvme_smart_health_information_log");
	table = json_object_get(json_object_get(d, "ata_smart_attributes"), "table");
	if (json_is_object(log))
		parse_nvme(log, s);
	if (json_is_array(table))
		parse_ata(table, lbs > 0 ? (uint32_t)lbs : 512, s);
	s->valid = json_is_object(log) || json_is_array(table) || s->temperature_c >= 0 ||
		   s->power_on_hours >= 0;
	if (!s->valid) {
		msgs = json_object_get(json_object_get(d, "smartctl"), "messages");
		const char *m = json_string_value(json_object_get(json_array_get(msgs, 0),
								  "string"));

		snprintf(why, wlen, "%s", m ? m : "smartctl gave no SMART data for it");
		ret = -ENODATA;
	}
	json_decref(d);
	return ret;
}

int64_t health_delta(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || b < a ? -1 : b - a;
}

/* Is one reading at or above its own warning threshold? */
static bool hot(const struct health_snap *s)
{
	return s->temperature_c >= 0 && s->temperature_warn_c > 0 &&
	       s->temperature_c >= s->temperature_warn_c;
}

int health_thermal(const struct health_snap *a, const struct health_snap *b)
{
	int64_t dt, dw;

	if (!a->valid || !b->valid)
		return -1;
	dt = health_delta(a->thermal_transitions, b->thermal_transitions);
	dw = health_delta(a->warning_temp_minutes, b->warning_temp_minutes);
	if (dt > 0 || dw > 0 || hot(a) || hot(b))
		return 1;
	if (dt < 0 && dw < 0 && (b->temperature_c < 0 || b->temperature_warn_c <= 0))
		return -1;
	return 0;
}

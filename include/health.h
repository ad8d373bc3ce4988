/* health.h - the drive's health from smartctl --json (smartmontools), before and after a run. */
#ifndef DISKBENCH_HEALTH_H
#define DISKBENCH_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How long one smartctl may take before it is killed: a drive that hangs
 * (a failing one) must not hold the run. */
#define HEALTH_TIMEOUT_MS 5000

/*
 * What smartctl said of a drive at one moment. Every count is -1 when the
 * drive or smartctl did not give it (an ATA drive has no NVMe counters, an
 * NVMe drive no CRC count). Bytes are the drive's own units times their
 * size: NVMe data units are 1000 x 512 bytes, ATA's host LBAs the
 * logical sector.
 */
struct health_snap {
	bool valid;		/* smartctl answered with a drive's data */
	char protocol[16];	/* "NVMe", "ATA", "SCSI" (device.protocol) */
	char model[128], serial[64], firmware[32];
	int64_t temperature_c;		/* temperature.current */
	int64_t temperature_warn_c;	/* temperature.op_limit_max: the warning threshold */
	int64_t percentage_used;	/* endurance_used.current_percent (NVMe
					 * percentage_used, ATA's wear level) */
	int64_t power_on_hours;
	int64_t media_errors;	/* NVMe media_errors; ATA Reported_Uncorrect (187)
				 * plus Offline_Uncorrectable (198) */
	int64_t crc_errors;	/* ATA UDMA_CRC_Error_Count (199) */
	int64_t written_bytes;	/* host writes as the drive counted them */
	int64_t read_bytes;
	int64_t nvme_units_written;	/* NVMe data_units_written, as given */
	int64_t nvme_units_read;
	int64_t warning_temp_minutes;	/* NVMe warning_temp_time */
	int64_t thermal_transitions;	/* NVMe thermal management T1 + T2 transitions */
};

/* A run's health: before the first test and after the last. why says,
 * when a side is not valid, why there is none ("smartctl not found on
 * PATH (install smartmontools)", smartctl's own message, "smartctl did
 * not answer within 5 s"); "" when both are there. checked: health was
 * asked for at all (false in a result saved before diskbench did). */
struct run_health {
	bool checked;
	char why[256];
	struct health_snap before, after;
};

/* Every count -1, nothing valid. */
void health_snap_init(struct health_snap *s);

/*
 * The smartctl --json document json[0..len) into s (health_snap_init
 * first). Returns 0 when it holds a drive's data (s->valid), else -ENODATA
 * (smartctl's own error message, or "no SMART data", in why) or -EINVAL
 * (not JSON). Pure: the tests feed recorded documents.
 */
int health_parse(const char *json, size_t len, struct health_snap *s, char *why, size_t wlen);

/*
 * Ask smartctl (the first on PATH) of dev ("/dev/nvme0n1"): "smartctl
 * --json -x dev", its output read while it runs and it killed after
 * timeout_ms. Fills s and returns 0, or returns -ENOENT (no smartctl),
 * -ETIMEDOUT (killed), -ENODATA (it answered without data: a loop or
 * virtio device) or another -errno, with the reason in why. Never prints.
 */
int health_read(const char *dev, unsigned timeout_ms, struct health_snap *s, char *why,
		size_t wlen);

/* Did the drive throttle for heat between a and b (b later): its NVMe
 * thermal-management transitions or warning-temperature time rose, or
 * either reading is at or above its warning threshold? -1 when neither
 * reading can tell, else 0 or 1. */
int health_thermal(const struct health_snap *a, const struct health_snap *b);

/* b's count minus a's, -1 when either is unknown (or it fell: a reset). */
int64_t health_delta(int64_t a, int64_t b);

#endif

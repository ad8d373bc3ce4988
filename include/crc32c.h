/* crc32c.h - CRC-32C (Castagnoli), the checksum of --verify's blocks. */
#ifndef DISKBENCH_CRC32C_H
#define DISKBENCH_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CRC-32C (polynomial 0x1EDC6F41, reflected, initial and final value
 * all ones: iSCSI's, ext4's and btrfs's) of len bytes at buf, continued
 * from crc, the CRC of what came before (0 for none): crc32c(crc32c(0, a),
 * b) is the CRC of a followed by b. crc32c(0, "123456789", 9) is
 * 0xE3069283. Software, slice-by-8; thread-safe (its tables are built once,
 * on the first call). Never fails.
 */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif

#ifndef HERMES_JOURNAL_H
#define HERMES_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli) of `length` bytes, continuing from `crc` (0 to start). Uses the CPU's
/// CRC instruction where it has one (SSE 4.2 on x86-64, the CRC extension on ARMv8), a table
/// otherwise; the result is the same.
uint32_t hermes_crc32c(uint32_t crc, const void *bytes, size_t length);

/// ``hermes_crc32c`` computed with the table alone, as on a CPU without a CRC instruction: the
/// reference the tests hold the hardware path to.
uint32_t hermes_crc32c_portable(uint32_t crc, const void *bytes, size_t length);

/// Reads a 32-bit word of shared memory with acquire ordering: what was written before the
/// matching release store is visible after this load.
uint32_t hermes_load_acquire_u32(const void *address);

/// Writes a 32-bit word of shared memory with release ordering: every earlier write of this
/// thread is visible before it.
void hermes_store_release_u32(void *address, uint32_t value);

#endif

#include "hermes_journal.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
#endif

static uint32_t crc_table[256];

static void crc_table_build(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t crc = i;
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
        crc_table[i] = crc;
    }
}

__attribute__((unused)) static uint32_t crc32c_table(uint32_t crc, const uint8_t *bytes, size_t length) {
    static int ready = 0;
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        crc_table_build(); // idempotent: racing threads write the same values
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    while (length--) crc = crc_table[(crc ^ *bytes++) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    uint64_t wide = crc;
    while (length >= 8) {
        uint64_t word;
        __builtin_memcpy(&word, bytes, 8);
        wide = _mm_crc32_u64(wide, word);
        bytes += 8;
        length -= 8;
    }
    crc = (uint32_t)wide;
    while (length--) crc = _mm_crc32_u8(crc, *bytes++);
    return crc;
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    while (length >= 8) {
        uint64_t word;
        __builtin_memcpy(&word, bytes, 8);
        crc = __crc32cd(crc, word);
        bytes += 8;
        length -= 8;
    }
    while (length--) crc = __crc32cb(crc, *bytes++);
    return crc;
}
#endif

uint32_t hermes_crc32c(uint32_t crc, const void *bytes, size_t length) {
    crc = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return ~crc32c_hardware(crc, bytes, length);
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    return ~crc32c_hardware(crc, bytes, length);
#endif
    return ~crc32c_table(crc, bytes, length);
}

uint32_t hermes_load_acquire_u32(const void *address) {
    return __atomic_load_n((const uint32_t *)address, __ATOMIC_ACQUIRE);
}

void hermes_store_release_u32(void *address, uint32_t value) {
    __atomic_store_n((uint32_t *)address, value, __ATOMIC_RELEASE);
}

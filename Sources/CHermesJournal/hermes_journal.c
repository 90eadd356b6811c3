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

// Runs `build` unless an earlier call finished it. Racing first callers may both run it, which
// is harmless: a build writes the same values each time.
static void build_once(int *ready, void (*build)(void)) {
    if (__atomic_load_n(ready, __ATOMIC_ACQUIRE)) return;
    build();
    __atomic_store_n(ready, 1, __ATOMIC_RELEASE);
}

static uint32_t crc32c_table(uint32_t crc, const uint8_t *bytes, size_t length) {
    static int ready = 0;
    build_once(&ready, crc_table_build);
    while (length--) crc = crc_table[(crc ^ *bytes++) & 0xFF] ^ (crc >> 8);
    return crc;
}

// The CPU's CRC instruction, one 8-byte word at a time.
#if defined(__x86_64__)
#define HERMES_CRC_HARDWARE __attribute__((target("sse4.2")))
HERMES_CRC_HARDWARE static inline uint32_t crc32c_word(uint32_t crc, uint64_t word) {
    return (uint32_t)_mm_crc32_u64(crc, word);
}
HERMES_CRC_HARDWARE static inline uint32_t crc32c_byte(uint32_t crc, uint8_t byte) {
    return _mm_crc32_u8(crc, byte);
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#define HERMES_CRC_HARDWARE
static inline uint32_t crc32c_word(uint32_t crc, uint64_t word) {
    return __crc32cd(crc, word);
}
static inline uint32_t crc32c_byte(uint32_t crc, uint8_t byte) {
    return __crc32cb(crc, byte);
}
#endif

#if defined(HERMES_CRC_HARDWARE)
// Each CRC instruction waits for the one before it (about 3 cycles), but the CPU can start one
// every cycle: the bytes are taken in blocks of three lanes whose CRCs run side by side, then
// joined. A CRC continued over zero bytes is linear in its starting value, so the CRC of lane
// a followed by lane b is shift(crc(a)) ^ crc_from_zero(b), where shift is the CRC of
// `CRC_LANE` zero bytes, looked up one byte of the value at a time.
#define CRC_LANE 64

static uint32_t lane_shift[4][256];

HERMES_CRC_HARDWARE static void lane_shift_build(void) {
    for (int position = 0; position < 4; position++) {
        for (uint32_t value = 0; value < 256; value++) {
            uint32_t crc = value << (8 * position);
            for (int word = 0; word < CRC_LANE / 8; word++) crc = crc32c_word(crc, 0);
            lane_shift[position][value] = crc;
        }
    }
}

static inline uint32_t shift_lane(uint32_t crc) {
    return lane_shift[0][crc & 0xFF] ^ lane_shift[1][(crc >> 8) & 0xFF] ^ lane_shift[2][(crc >> 16) & 0xFF]
        ^ lane_shift[3][crc >> 24];
}

static inline uint64_t load_word(const uint8_t *bytes) {
    uint64_t word;
    __builtin_memcpy(&word, bytes, 8);
    return word;
}

HERMES_CRC_HARDWARE static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    if (length >= 3 * CRC_LANE) {
        static int ready = 0;
        build_once(&ready, lane_shift_build);
        do {
            uint32_t a = crc, b = 0, c = 0;
            for (int offset = 0; offset < CRC_LANE; offset += 8) {
                a = crc32c_word(a, load_word(bytes + offset));
                b = crc32c_word(b, load_word(bytes + CRC_LANE + offset));
                c = crc32c_word(c, load_word(bytes + 2 * CRC_LANE + offset));
            }
            crc = shift_lane(shift_lane(a) ^ b) ^ c;
            bytes += 3 * CRC_LANE;
            length -= 3 * CRC_LANE;
        } while (length >= 3 * CRC_LANE);
    }
    for (; length >= 8; bytes += 8, length -= 8) crc = crc32c_word(crc, load_word(bytes));
    while (length--) crc = crc32c_byte(crc, *bytes++);
    return crc;
}
#endif

uint32_t hermes_crc32c(uint32_t crc, const void *bytes, size_t length) {
    crc = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return ~crc32c_hardware(crc, bytes, length);
#elif defined(HERMES_CRC_HARDWARE)
    return ~crc32c_hardware(crc, bytes, length);
#endif
    return ~crc32c_table(crc, bytes, length);
}

uint32_t hermes_crc32c_portable(uint32_t crc, const void *bytes, size_t length) {
    return ~crc32c_table(~crc, bytes, length);
}

uint32_t hermes_load_acquire_u32(const void *address) {
    return __atomic_load_n((const uint32_t *)address, __ATOMIC_ACQUIRE);
}

void hermes_store_release_u32(void *address, uint32_t value) {
    __atomic_store_n((uint32_t *)address, value, __ATOMIC_RELEASE);
}

/* Eight rows a step in AVX2 registers, as the poker and the discard kernels read them: how
 * far a batch's loads let the steps go, four rows loaded two to each 128-bit lane, and each
 * row put in a qword of its own. Written once for both. */
#ifndef HANDEVAL_KERNEL_ROWS256_H
#define HANDEVAL_KERNEL_ROWS256_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86_VECTORS 1
#endif

#ifdef HAVE_X86_VECTORS
/* The row no step may start at or past (steps start at rows 0, 8, 16, ...): a step loads 16
 * bytes from each of rows i, i + 2, i + 4 and i + 6 of ``width`` bytes, all inside the
 * batch of ``count`` rows, and scores rows i to i + 7. */
static inline Py_ssize_t eight_row_steps(Py_ssize_t count, Py_ssize_t width)
{
    Py_ssize_t steps = count * width < 16 + 6 * width ? 0 : (count * width - 16) / width - 6 + 1;
    return steps > count - 7 ? count - 7 : steps;
}

/* A 16-byte pattern in both 128-bit lanes. */
__attribute__((target("avx2"))) static inline __m256i lane_pattern(const uint8_t pattern[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)pattern));
}

/* The patterns ``placed`` takes for rows of ``width`` (at most 8) bytes: ``rows`` puts the
 * two rows a 16-byte lane holds in a qword each (zero past the width), ``pad`` then sets
 * the bytes past the width to ``fill``. */
__attribute__((target("avx2"))) static inline void
row_patterns(Py_ssize_t width, uint8_t fill, __m256i *rows, __m256i *pad)
{
    uint8_t shuffle[16], bytes[16];
    for (int j = 0; j < 8; j++) {
        shuffle[j] = (uint8_t)(j < width ? j : 0x80);
        shuffle[8 + j] = (uint8_t)(j < width ? width + j : 0x80);
        bytes[j] = bytes[8 + j] = (uint8_t)(j < width ? 0 : fill);
    }
    *rows = lane_pattern(shuffle);
    *pad = lane_pattern(bytes);
}

/* Rows 0-3 from ``p``, rows of ``width`` bytes, two to each 128-bit lane. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
four_rows(const uint8_t *p, Py_ssize_t width)
{
    return _mm256_loadu2_m128i((const __m128i *)(p + 2 * width), (const __m128i *)p);
}

/* ``four_rows``' rows a qword each, the bytes past the width padded (``row_patterns``). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
placed(__m256i x, __m256i rows, __m256i pad)
{
    return _mm256_or_si256(_mm256_shuffle_epi8(x, rows), pad);
}
#endif

#endif

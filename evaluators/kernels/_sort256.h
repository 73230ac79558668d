/* Small sorting networks run inside each qword of an AVX2 register: up to eight bytes of a
 * row (a row to a qword, as ``placed`` puts them) sorted ascending, four rows a register.
 * High Card's checks and NotPoker's readings sort their rows this way; written once here.
 *
 * A network is given a layer at a time as each place's partner in that layer's exchanges
 * (itself where it has none). Per layer every byte meets its partner (``pshufb``), and the
 * lower place of each exchange keeps the smaller byte, the upper the larger (a blend);
 * bytes past the width keep their place. */
#ifndef HANDEVAL_KERNEL_SORT256_H
#define HANDEVAL_KERNEL_SORT256_H

#include "_rows256.h"

#ifdef HAVE_X86_VECTORS
#define MAX_NETWORK_LAYERS 6
#define MAX_NETWORK_WIDTH 8

typedef struct {
    __m256i partner[MAX_NETWORK_LAYERS], lower[MAX_NETWORK_LAYERS];
} Network256;

/* The patterns of a network of ``layers`` layers over places 0 to width - 1:
 * ``partners[layer][place]`` is the place it exchanges with in that layer. */
__attribute__((target("avx2"))) static void
load_network(Network256 *n, const uint8_t partners[][MAX_NETWORK_WIDTH], int layers, int width)
{
    for (int layer = 0; layer < layers; layer++) {
        uint8_t partner[16], lower[16];
        for (int j = 0; j < 16; j++) {
            int place = j & 7, other = place < width ? partners[layer][place] : place;
            partner[j] = (uint8_t)((j & 8) + other);
            lower[j] = (uint8_t)(place < other ? 0xFF : 0);
        }
        n->partner[layer] = lane_pattern(partner);
        n->lower[layer] = lane_pattern(lower);
    }
}

/* Each qword of ``x`` sorted by the network (``layers`` as loaded; a constant at the call
 * site, so the layers unroll). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
sorted_qwords(const Network256 *n, __m256i x, int layers)
{
    for (int layer = 0; layer < layers; layer++) {
        __m256i other = _mm256_shuffle_epi8(x, n->partner[layer]);
        x = _mm256_blendv_epi8(_mm256_max_epu8(x, other), _mm256_min_epu8(x, other),
                               n->lower[layer]);
    }
    return x;
}
#endif

#endif

/* bits.c: bit runs in masks, a byte at a time (see bits.h). */
#include "bits.h"

void bits_put(uint8_t *mask, uint16_t at, uint32_t value, uint8_t n)
{
    for (; n >= 8 && !(at & 7); n -= 8, at += 8, value >>= 8) /* whole bytes */
        mask[at >> 3] = (uint8_t)value;
    while (n) {
        uint8_t shift = at & 7, take = (uint8_t)(8 - shift);
        if (take > n)
            take = n;
        uint8_t field = (uint8_t)(((1u << take) - 1) << shift);
        uint8_t *byte = &mask[at >> 3];
        *byte = (uint8_t)((*byte & ~field) | (((uint8_t)value << shift) & field));
        value >>= take;
        at += take;
        n -= take;
    }
}

uint32_t bits_get(const uint8_t *mask, uint16_t at, uint8_t n)
{
    uint32_t value = 0;
    uint8_t done = 0;
    while (done < n) {
        uint8_t shift = at & 7, take = (uint8_t)(8 - shift);
        if (take > n - done)
            take = (uint8_t)(n - done);
        uint32_t field = (mask[at >> 3] >> shift) & ((1u << take) - 1);
        value |= field << done;
        at += take;
        done += take;
    }
    return value;
}

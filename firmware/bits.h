/* bits.h: runs of bits at any offset in a little-endian bit mask (channel 0 = bit 0 of byte 0). */
#ifndef BITS_H
#define BITS_H

#include <stdint.h>

/* Write the low n (<= 32) bits of value at bit offset `at`. */
void bits_put(uint8_t *mask, uint16_t at, uint32_t value, uint8_t n);
/* Read n (<= 32) bits from bit offset `at`. */
uint32_t bits_get(const uint8_t *mask, uint16_t at, uint8_t n);

#endif /* BITS_H */

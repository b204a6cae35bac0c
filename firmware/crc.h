/* crc.h: CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF, no reflection, no final xor). */
#ifndef CRC_H
#define CRC_H

#include <stdint.h>

#define CRC_START 0xFFFFu

/* The CRC after one more byte. Running it over a payload followed by its own CRC
 * (big-endian) gives 0: that is how a received frame is checked.
 *
 * A byte at a time without a table: feeding the byte into the top of the register and
 * reducing eight bits at once by the polynomial x^16 + x^12 + x^5 + 1 comes down to three
 * shifted xors of the combined byte (a textbook derivation); the same value as Python's
 * binascii.crc_hqx(data, 0xFFFF). */
static inline __attribute__((always_inline)) uint16_t crc_update(uint16_t crc, uint8_t byte)
{
    uint8_t x = (uint8_t)((crc >> 8) ^ byte); /* the byte leaving the register, combined */
    x ^= x >> 4;
    /* (crc << 8) ^ (x << 12) ^ (x << 5) ^ x, a byte at a time: 8-bit shifts are cheap on
     * an AVR, 16-bit ones are not */
    uint8_t high = (uint8_t)((uint8_t)crc ^ (uint8_t)(x << 4) ^ (x >> 3));
    uint8_t low = (uint8_t)((uint8_t)(x << 5) ^ x);
    return (uint16_t)(high << 8 | low);
}

/* The CRC after n more bytes. */
uint16_t crc_bytes(uint16_t crc, const uint8_t *bytes, uint16_t n);

#endif /* CRC_H */

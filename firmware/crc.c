/*
 * crc.c: CRC-16/CCITT-FALSE a byte at a time without a table.
 *
 * Feeding the byte into the top of the register and reducing eight bits at once by the
 * polynomial x^16 + x^12 + x^5 + 1 comes down to three shifted xors of the combined byte
 * (a textbook derivation); the same value as Python's binascii.crc_hqx(data, 0xFFFF).
 */
#include "crc.h"

uint16_t crc_update(uint16_t crc, uint8_t byte)
{
    uint16_t x = (uint16_t)((crc >> 8) ^ byte); /* the byte leaving the register, combined */
    x ^= x >> 4;
    return (uint16_t)((crc << 8) ^ (x << 12) ^ (x << 5) ^ x);
}

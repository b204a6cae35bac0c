/* crc.h: CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF, no reflection, no final xor). */
#ifndef CRC_H
#define CRC_H

#include <stdint.h>

#define CRC_START 0xFFFFu

/* The CRC after one more byte. Running it over a payload followed by its own CRC
 * (big-endian) gives 0: that is how a received frame is checked. */
uint16_t crc_update(uint16_t crc, uint8_t byte);

#endif /* CRC_H */

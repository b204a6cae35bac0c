/* crc.c: CRC-16/CCITT-FALSE over a run of bytes (crc.h). */
#include "crc.h"

uint16_t crc_bytes(uint16_t crc, const uint8_t *bytes, uint16_t n)
{
    while (n--)
        crc = crc_update(crc, *bytes++);
    return crc;
}

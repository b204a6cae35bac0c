/*
 * codec_main.c: the firmware's COBS and CRC code (firmware/cobs.c, crc.c) compiled for this
 * machine, for test_codec.py. One command a line on stdin, one answer a line on stdout:
 *   e HEX   the COBS encoding of the bytes
 *   d HEX   what the streaming decoder finds in the bytes, one word each: "p" and a packet's
 *           payload in hex, or "bad" for a packet cut short
 *   c HEX   the CRC-16/CCITT-FALSE of the bytes
 */
#include <stdio.h>
#include <string.h>

#include "cobs.h"
#include "crc.h"

int main(void)
{
    static char line[1 << 16];
    static uint8_t data[1 << 15];
    while (fgets(line, sizeof line, stdin)) {
        int n = 0;
        unsigned value;
        while (sscanf(line + 2 + 2 * n, "%2x", &value) == 1)
            data[n++] = (uint8_t)value;
        if (line[0] == 'e') {
            static uint8_t encoded[COBS_MAX_ENCODED(sizeof data)];
            uint16_t length = cobs_encode(data, (uint16_t)n, encoded);
            for (uint16_t i = 0; i < length; i++)
                printf("%02x", encoded[i]);
        } else if (line[0] == 'c') {
            uint16_t crc = CRC_START;
            for (int i = 0; i < n; i++)
                crc = crc_update(crc, data[i]);
            printf("%04x", crc);
        } else {
            cobs_decoder decoder;
            cobs_reset(&decoder);
            static char packet[1 << 16];
            int length = 0;
            for (int i = 0; i < n; i++) {
                uint8_t out;
                switch (cobs_decode(&decoder, data[i], &out)) {
                case COBS_BYTE:
                    length += sprintf(packet + length, "%02x", out);
                    break;
                case COBS_END:
                    printf("p%s ", packet);
                    break;
                case COBS_BAD:
                    printf("bad ");
                    break;
                case COBS_EMPTY:
                case COBS_NOTHING:
                    break;
                }
                if (data[i] == 0) {
                    length = 0;
                    packet[0] = 0;
                }
            }
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

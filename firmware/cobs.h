/*
 * cobs.h: Consistent Overhead Byte Stuffing, the protocol's framing (docs/serial-protocol.md).
 *
 * A frame on the wire is 00, the COBS encoding of its payload (no zero bytes), 00. The
 * decoder works a byte at a time, so a frame never needs a buffer of its own: every input
 * byte gives at most one payload byte.
 */
#ifndef COBS_H
#define COBS_H

#include <stdint.h>

typedef struct {
    uint8_t left;    /* data bytes still to come in the current block */
    uint8_t zero;    /* the current block ends in an implied zero (its code was < 0xFF) */
    uint8_t started; /* a code byte was seen since the last delimiter */
} cobs_decoder;

enum cobs_result {
    COBS_NOTHING, /* nothing to pass on (a code byte) */
    COBS_BYTE,    /* *out holds the next payload byte */
    COBS_END,     /* a delimiter closed a well-formed packet */
    COBS_BAD,     /* a delimiter closed a packet cut short inside a block */
    COBS_EMPTY,   /* a delimiter with no packet before it (the frame's leading 00) */
};

void cobs_reset(cobs_decoder *d);
enum cobs_result cobs_decode(cobs_decoder *d, uint8_t in, uint8_t *out);

/* The encoded length of n payload bytes, at most (without the two delimiters). */
#define COBS_MAX_ENCODED(n) ((n) + (n) / 254 + 1)

/* Encode src[0..n) into dst (COBS_MAX_ENCODED(n) bytes of room; no delimiters); returns the
 * encoded length. */
uint16_t cobs_encode(const uint8_t *src, uint16_t n, uint8_t *dst);

#endif /* COBS_H */

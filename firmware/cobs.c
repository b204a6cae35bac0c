/* cobs.c: byte-at-a-time COBS decoding and encoding (see cobs.h). */
#include "cobs.h"

void cobs_reset(cobs_decoder *d)
{
    d->left = 0;
    d->zero = 0;
    d->started = 0;
}

enum cobs_result cobs_decode(cobs_decoder *d, uint8_t in, uint8_t *out)
{
    if (in == 0) { /* a delimiter: the packet ends, well formed only between blocks */
        enum cobs_result r = !d->started ? COBS_EMPTY : d->left ? COBS_BAD : COBS_END;
        cobs_reset(d);
        return r;
    }
    if (d->left) { /* a data byte of the current block */
        d->left--;
        *out = in;
        return COBS_BYTE;
    }
    /* A code byte: the previous block's implied zero is now known not to be the last. */
    uint8_t zero = d->started && d->zero;
    d->started = 1;
    d->left = (uint8_t)(in - 1);
    d->zero = in != 0xFF;
    if (zero) {
        *out = 0;
        return COBS_BYTE;
    }
    return COBS_NOTHING;
}

uint16_t cobs_encode(const uint8_t *src, uint16_t n, uint8_t *dst)
{
    uint8_t *out = dst;
    const uint8_t *end = src + n;
    for (;;) {
        /* The next block: up to 254 non-zero bytes, ended by a zero or by the data's end. */
        uint8_t *code = out++;
        uint8_t length = 0;
        while (src < end && *src && length < 254) {
            *out++ = *src++;
            length++;
        }
        *code = (uint8_t)(length + 1);
        if (src == end) /* the last block: a zero it implies is not part of the data */
            return (uint16_t)(out - dst);
        if (length < 254)
            src++; /* the zero this block implies */
    }
}

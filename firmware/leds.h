/*
 * leds.h: the LED frame the host sent, assembled from LEDS chunks, animated on the MCU's
 * clock and written to the WS2812 chain.
 *
 * A frame arrives in chunks (FIRST clears it, LAST shows it). While one is being assembled
 * the chain keeps showing the previous picture (the frame is built in place, so the chain
 * is not redrawn meanwhile). A chunk lost on the way, one out of sequence, or an LED beyond
 * the chain spoils the frame: the chain keeps the previous picture and STATE reports frame 0,
 * so the host sends the frame again.
 */
#ifndef LEDS_H
#define LEDS_H

#include <stdint.h>

void leds_init(void);

/* The frame id the chain shows (0: none since reset, or the last frame was spoilt). */
uint8_t leds_frame_id(void);

/* A LEDS chunk, as its frame arrives: begin (the host's sequence number), each body byte,
 * end (ok: the CRC matched and the frame was whole). */
void leds_chunk_begin(uint8_t seq);
void leds_chunk_byte(uint8_t byte);
void leds_chunk_end(uint8_t ok);
/* A frame from the host was dropped (bad CRC, cut short): it may have been a chunk. */
void leds_frame_lost(void);

/* Whether the chains must be redrawn at `now` (a new frame, a blink edge, a pulse step). */
uint8_t leds_due(uint32_t now);
/* Render a part of the picture (patterns, current limit) as it shows at `now` (the moment of
 * the first part counts); returns whether all of it is rendered. */
uint8_t leds_render(uint32_t now);
/* Write the rendered picture to the chains. */
void leds_write(void);

#endif /* LEDS_H */

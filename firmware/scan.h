/*
 * scan.h: what every scanner provides (scan_matrix.c or scan_165.c, chosen by SCANNER).
 *
 * A scan reads all inputs at once into a bit mask: bit i of byte k is input 8k + i, 1 when
 * the switch is closed. Inputs are channels, except on a board with polarity pairs, where
 * inputs 2c and 2c + 1 are channel c's two sensors (sensors.c pairs them).
 */
#ifndef SCAN_H
#define SCAN_H

#include <stdint.h>

#include "config.h"

void scan_init(void);

/* Read every input into raw[INPUT_BYTES] (which keeps the last reading); returns whether it
 * may differ from the last. `hold` is the last sure state of the channels: a diode-less
 * matrix copies from it the channels whose reading is ambiguous. */
uint8_t scan_read(uint8_t *raw, const uint8_t *hold);

/* Scanning while the LED chains are written (interrupts off, no scan_read): the write calls
 * scan_gap() between two LEDs, and a call reads a part of the inputs or two (a matrix row; a
 * scanner without parts reads nothing), some microseconds. A pass over all parts begins a
 * scan period after the last (Timer1 goes on counting), so the readings of a part are a scan
 * period apart at least, as scans are. */
void scan_gap_begin(void);
/* Returns n > 0 when the part just read (inputs [*at, *at + n), their readings in *value) read
 * otherwise than before the write and then the same DEBOUNCE_SCANS times in a row. */
uint8_t scan_gap(uint16_t *at, uint32_t *value);
/* After the write: the most readings in a row that agreed for a part that read otherwise than
 * before the write (0: none did), and the bytes of raw[] such parts give, [from, to). */
uint8_t scan_gap_passes(uint16_t *from, uint16_t *to);
/* The reading `back` readings before the write's end (1: the last), for the parts that read
 * otherwise than before the write: a part that read the same its last `back` readings gives
 * that reading; one that read otherwise in between gives `hold` (the sure state: a debounce
 * count starts again). The other parts keep raw's. */
void scan_gap_reading(uint8_t *raw, const uint8_t *hold, uint8_t back);

/* A part's readings during a write, a byte each: SCAN_MOVED once it read otherwise than the
 * reading before, and how many readings in a row read the same (1-3). */
#define SCAN_MOVED 0x80
static inline uint8_t scan_agree(uint8_t was, uint8_t differs)
{
    return differs ? SCAN_MOVED | 1 : !was ? 1 : (was & 3) == 3 ? was : (uint8_t)(was + 1);
}
/* Whether a part whose count went from `was` to `now` has just settled on a new reading. */
#define SCAN_SETTLED(was, now) ((now) != (was) && (now) == (SCAN_MOVED | DEBOUNCE_SCANS))

#endif /* SCAN_H */

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

#endif /* SCAN_H */

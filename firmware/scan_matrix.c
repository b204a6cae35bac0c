/*
 * scan_matrix.c: a switch matrix on GPIO pins. Channel = row x COLUMNS + column.
 *
 * Columns are inputs with the internal pull-ups. A scan drives one row low at a time (the
 * others float: an idle row is never driven high, so without diodes two closed switches
 * can never short a high row to a low one), waits MATRIX_SETTLE_US and reads the columns:
 * a column reads low when a closed switch joins it to the row.
 *
 * Without diodes a low row also pulls down every column reachable through a chain of closed
 * switches, so a reading where two rows share two or more closed columns may hold ghosts:
 * the switches on such a rectangle keep their last sure state (`hold`) until the reading
 * is sound again (the host's hardware/ghost.py detects the same rectangles).
 */
#include "config.h" /* first: F_CPU for util/delay.h */

#include <avr/pgmspace.h>
#include <util/delay.h>

#include "bits.h"
#include "pins.h"
#include "scan.h"

#if SCANNER == SCANNER_MATRIX

_Static_assert(COLUMNS <= 32, "COLUMN_PINS: at most 32 columns");
_Static_assert(ROWS <= 64, "ROW_PINS: at most 64 rows");

static const uint8_t row_numbers[] PROGMEM = { ROW_PINS };
static const uint8_t column_numbers[] PROGMEM = { COLUMN_PINS };
static io_pin rows[ROWS], columns[COLUMNS];
static uint32_t lines[ROWS]; /* the closed columns of each row, this scan */

void scan_init(void)
{
    for (uint8_t r = 0; r < ROWS; r++) {
        rows[r] = pin_lookup(pgm_read_byte(&row_numbers[r]));
        pin_input(rows[r], 0); /* floating until its turn; PORT stays 0 */
    }
    for (uint8_t c = 0; c < COLUMNS; c++) {
        columns[c] = pin_lookup(pgm_read_byte(&column_numbers[c]));
        pin_input(columns[c], 1);
    }
}

static uint32_t read_columns(void)
{
    uint32_t closed = 0, bit = 1;
    for (uint8_t c = 0; c < COLUMNS; c++, bit <<= 1)
        if (!IO_READ(columns[c]))
            closed |= bit;
    return closed;
}

#if !MATRIX_DIODES
/* Give the switches on a rectangle (two rows sharing two or more closed columns) their
 * state from `hold`. */
static void hold_ambiguous(const uint8_t *hold)
{
    static uint32_t unsure[ROWS];
    for (uint8_t r = 0; r < ROWS; r++)
        unsure[r] = 0;
    for (uint8_t r1 = 0; r1 < ROWS; r1++) {
        if (!(lines[r1] & (lines[r1] - 1))) /* fewer than two closed columns */
            continue;
        for (uint8_t r2 = r1 + 1; r2 < ROWS; r2++) {
            uint32_t shared = lines[r1] & lines[r2];
            if (shared & (shared - 1)) {
                unsure[r1] |= shared;
                unsure[r2] |= shared;
            }
        }
    }
    for (uint8_t r = 0; r < ROWS; r++)
        if (unsure[r]) {
            uint32_t sure = bits_get(hold, (uint16_t)(r * COLUMNS), COLUMNS);
            lines[r] = (lines[r] & ~unsure[r]) | (sure & unsure[r]);
        }
}
#endif

void scan_read(uint8_t *raw, const uint8_t *hold)
{
    for (uint8_t r = 0; r < ROWS; r++) {
        IO_DDR(rows[r]) |= rows[r].mask; /* PORT is 0: driven low */
        _delay_us(MATRIX_SETTLE_US);
        lines[r] = read_columns();
        IO_DDR(rows[r]) &= (uint8_t)~rows[r].mask;
    }
#if !MATRIX_DIODES
    hold_ambiguous(hold);
#else
    (void)hold;
#endif
    for (uint8_t r = 0; r < ROWS; r++)
        bits_put(raw, (uint16_t)(r * COLUMNS), lines[r], COLUMNS);
}

#endif /* SCANNER_MATRIX */

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
static io_pin rows[ROWS];
static uint32_t lines[ROWS]; /* the closed columns of each row, this scan */

/* The column pins by port, so that a row reads each port once: ports[] are the PIN registers,
 * port_columns[p] the column bits of port p, and bit b of port p is column column_at[p][b].
 * What each row read last time is kept: a row that reads the same as before keeps its line
 * without working it out again. */
#ifdef BOARD_MEGA
# define PORTS_MAX 11 /* A to L, there is no I */
#else
# define PORTS_MAX 3 /* B, C, D */
#endif
static volatile uint8_t *ports[PORTS_MAX];
static uint8_t port_count, port_columns[PORTS_MAX], column_at[PORTS_MAX][8];
static uint8_t last[ROWS][PORTS_MAX];

static void add_column(uint8_t c, io_pin pin)
{
    uint8_t p = 0;
    while (p < port_count && ports[p] != pin.in)
        p++;
    if (p == port_count)
        ports[port_count++] = pin.in;
    port_columns[p] |= pin.mask;
    uint8_t b = 0;
    while (!(pin.mask >> b & 1))
        b++;
    column_at[p][b] = c;
}

void scan_init(void)
{
    for (uint8_t r = 0; r < ROWS; r++) {
        rows[r] = pin_lookup(pgm_read_byte(&row_numbers[r]));
        pin_input(rows[r], 0); /* floating until its turn; PORT stays 0 */
    }
    for (uint8_t c = 0; c < COLUMNS; c++) {
        io_pin pin = pin_lookup(pgm_read_byte(&column_numbers[c]));
        pin_input(pin, 1);
        add_column(c, pin);
    }
}

/* Read the row driven low now: whether its ports read otherwise than last time. */
static uint8_t read_ports(uint8_t *level)
{
    uint8_t differs = 0;
    for (uint8_t p = 0; p < port_count; p++) {
        uint8_t now = *ports[p];
        differs |= now ^ level[p];
        level[p] = now;
    }
    return differs;
}

/* The closed columns (a bit each, column 0 lowest) in a row's port readings: the work goes
 * by the closed switches (pulling a column low), few on a board in play. */
static uint32_t closed_columns(const uint8_t *level)
{
    uint32_t closed = 0;
    for (uint8_t p = 0; p < port_count; p++) {
        uint8_t low = (uint8_t)(~level[p] & port_columns[p]);
        for (const uint8_t *column = column_at[p]; low; low >>= 1, column++)
            if (low & 1)
                closed |= (uint32_t)1 << *column;
    }
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

uint8_t scan_read(uint8_t *raw, const uint8_t *hold)
{
    static uint8_t first = 1;
    uint8_t changed = 0;
    for (uint8_t r = 0; r < ROWS; r++) {
        IO_DDR(rows[r]) |= rows[r].mask; /* PORT is 0: driven low */
        _delay_us(MATRIX_SETTLE_US);
        uint8_t differs = read_ports(last[r]);
        IO_DDR(rows[r]) &= (uint8_t)~rows[r].mask;
        if (differs || first || !MATRIX_DIODES) { /* no diodes: lines[] hold held bits */
            lines[r] = closed_columns(last[r]);
            bits_put(raw, (uint16_t)(r * COLUMNS), lines[r], COLUMNS);
            changed = 1;
        }
    }
    first = 0;
#if !MATRIX_DIODES
    hold_ambiguous(hold); /* `hold` may have changed even if the reading did not */
    for (uint8_t r = 0; r < ROWS; r++)
        bits_put(raw, (uint16_t)(r * COLUMNS), lines[r], COLUMNS);
    changed = 1;
#else
    (void)hold;
#endif
    return changed;
}

#endif /* SCANNER_MATRIX */

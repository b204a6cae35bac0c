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
#include "clock.h"
#include "pinmap.h"
#include "pins.h"
#include "scan.h"
#include "ws2812.h"

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

/* The ports in the order of their addresses (A, B, ... L), the order scan_gap reads them. */
static void sort_ports(void)
{
    for (uint8_t i = 1; i < port_count; i++)
        for (uint8_t j = i; j > 0 && ports[j - 1] > ports[j]; j--) {
            volatile uint8_t *port = ports[j];
            ports[j] = ports[j - 1], ports[j - 1] = port;
            uint8_t columns = port_columns[j];
            port_columns[j] = port_columns[j - 1], port_columns[j - 1] = columns;
            for (uint8_t b = 0; b < 8; b++) {
                uint8_t at = column_at[j][b];
                column_at[j][b] = column_at[j - 1][b], column_at[j - 1][b] = at;
            }
        }
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
    sort_ports();
}

/* Whether a column is on port `letter`, known when compiling: the gap reads exactly those
 * ports, each with one instruction (a loop through ports[] would take too long between LEDs). */
#define COLUMN_PIN(i) (((const unsigned char[]){ COLUMN_PINS, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 })[i])
#define COLUMN_ON(i, letter) (i < COLUMNS && PINMAP_PORT(((const unsigned char[])PINMAP)[COLUMN_PIN(i)]) == letter)
#define COLUMN_BIT(i, letter) (COLUMN_ON(i, letter) ? 1 << PINMAP_BIT(((const unsigned char[])PINMAP)[COLUMN_PIN(i)]) : 0)
#define COLUMN_BITS8(k, letter) (COLUMN_BIT(k, letter) | COLUMN_BIT(k + 1, letter) | COLUMN_BIT(k + 2, letter) | \
    COLUMN_BIT(k + 3, letter) | COLUMN_BIT(k + 4, letter) | COLUMN_BIT(k + 5, letter) |                    \
    COLUMN_BIT(k + 6, letter) | COLUMN_BIT(k + 7, letter))
#define PORT_COLUMNS(letter) ((uint8_t)(COLUMN_BITS8(0, letter) | COLUMN_BITS8(8, letter) | \
                                        COLUMN_BITS8(16, letter) | COLUMN_BITS8(24, letter)))
/* The row driven now into level[] (a byte per column port, in the order of ports[]); whether
 * its columns read otherwise than last time (the port's other pins, a row or the trace pin,
 * do not count). Written out for the ports in use, 8 or 9 cycles each: it runs between LEDs. */
#define ROW_PORT(letter, reg, io) [m##letter] "n"(PORT_COLUMNS(#letter[0])), \
    [a##letter] "n"(io ? _SFR_IO_ADDR(reg) : _SFR_MEM_ADDR(reg)) /* below 0x40: in */
#define ROW_READ(letter) "row_read %[a" #letter "], %[m" #letter "]\n\t"

static inline __attribute__((always_inline)) uint8_t read_row(uint8_t *level)
{
    uint8_t differs = 0, now, was;
    __asm__ volatile(
        ".macro row_read addr, mask\n\t"
        ".if \\mask\n\t"
        ".if \\addr < 0x40\n\tin %[now], \\addr\n\t.else\n\tlds %[now], \\addr\n\t.endif\n\t"
        "ld %[was], %a[level]\n\t"
        "st %a[level]+, %[now]\n\t"
        "eor %[was], %[now]\n\t"
        "andi %[was], \\mask\n\t"
        "or %[differs], %[was]\n\t"
        ".endif\n\t"
        ".endm\n\t"
#ifdef PINA
        ROW_READ(A)
#endif
        ROW_READ(B) ROW_READ(C) ROW_READ(D)
#ifdef PINE
        ROW_READ(E) ROW_READ(F) ROW_READ(G) ROW_READ(H) ROW_READ(J) ROW_READ(K) ROW_READ(L)
#endif
        ".purgem row_read\n\t"
        : [differs] "+r"(differs), [now] "=&r"(now), [was] "=&d"(was), [level] "+e"(level)
        : ROW_PORT(B, PINB, 1), ROW_PORT(C, PINC, 1), ROW_PORT(D, PIND, 1)
#ifdef PINA
        , ROW_PORT(A, PINA, 1)
#endif
#ifdef PINE
        , ROW_PORT(E, PINE, 1), ROW_PORT(F, PINF, 1), ROW_PORT(G, PING, 1), ROW_PORT(H, PINH, 0),
          ROW_PORT(J, PINJ, 0), ROW_PORT(K, PINK, 0), ROW_PORT(L, PINL, 0)
#endif
        : "memory");
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
        uint8_t differs = read_row(last[r]);
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

/* -- between the LEDs of a write (scan.h) ---------------------------------------------------
 * A row is driven low in one pause and read ROW_STEP pauses later (an LED or more: 30 us, its
 * settling time). On a chain long enough to hold 2 × (DEBOUNCE_SCANS + 1) passes of a row a
 * pause, rows are spread to DEBOUNCE_SCANS + 1 passes (a shorter write); else they go as fast
 * as they can.
 * When a pass of a row a pause would take longer than a scan period, a pause reads two rows
 * (the second driven then, MATRIX_SETTLE_US before it is read). Readings go to last[], as a
 * scan's. */

#define ROW_STEP_FIT (LED_PER_CHAIN / (DEBOUNCE_SCANS + 1) / ROWS)
#define ROW_STEP (ROW_STEP_FIT >= 2 ? ROW_STEP_FIT : 1) /* spread on a long chain only */
#define ROW_CYCLES 200 /* a row read in a pause, about */
#define ROWS_PER_GAP (ROW_STEP == 1 && (ROWS + 1) * (WS2812_LED_CYCLES + ROW_CYCLES) > \
                      F_CPU / 1000 * SCAN_PERIOD_MS ? 2 : 1)

static struct {
    uint8_t row;     /* the row driven low now; ROWS: none (between passes) */
    uint8_t wait;    /* pauses until it is read */
    uint16_t began;  /* clock_counts() when the pass began */
    uint8_t *level;  /* its readings: last[row] */
} gap;
static uint8_t agree[ROWS]; /* scan_agree() of each row */

void scan_gap_begin(void)
{
    gap.row = ROWS;
    gap.began = clock_counts() - CLOCK_COUNTS_PER_MS * SCAN_PERIOD_MS; /* the first at once */
    for (uint8_t r = 0; r < ROWS; r++)
        agree[r] = 0;
}

/* Read the row driven now and drive the next; whether it changed (then `*at`, `*value`). */
static uint8_t gap_read(uint16_t *at, uint32_t *value)
{
    uint8_t r = gap.row, was = agree[r], now = scan_agree(was, read_row(gap.level));
    agree[r] = now;
    IO_DDR(rows[r]) &= (uint8_t)~rows[r].mask;
    uint8_t settled = MATRIX_DIODES && SCAN_SETTLED(was, now);
    if (settled) { /* without diodes a row is not sure by itself: after the write */
        *at = (uint16_t)(r * COLUMNS);
        *value = lines[r] = closed_columns(gap.level);
    }
    gap.level += PORTS_MAX;
    if (++gap.row < ROWS)
        IO_DDR(rows[gap.row]) |= rows[gap.row].mask;
    return settled;
}

uint8_t scan_gap(uint16_t *at, uint32_t *value)
{
    if (gap.row == ROWS) { /* between passes */
        uint16_t now = clock_counts();
        if ((uint16_t)(now - gap.began) < CLOCK_COUNTS_PER_MS * SCAN_PERIOD_MS)
            return 0;
        gap.began = now;
        gap.row = 0;
        gap.level = last[0];
        gap.wait = ROW_STEP;
        IO_DDR(rows[0]) |= rows[0].mask;
        return 0;
    }
    if (--gap.wait)
        return 0;
    gap.wait = ROW_STEP;
    uint8_t settled = gap_read(at, value);
    if (ROWS_PER_GAP == 2 && gap.row < ROWS) {
        _delay_us(MATRIX_SETTLE_US);
        uint16_t at2;
        uint32_t value2;
        if (gap_read(&at2, &value2) && !settled) /* a second at once: after the write */
            settled = 1, *at = at2, *value = value2;
    }
    return settled ? COLUMNS : 0;
}

uint8_t scan_gap_passes(uint16_t *from, uint16_t *to)
{
    if (gap.row < ROWS) /* a row still driven at the write's end */
        IO_DDR(rows[gap.row]) &= (uint8_t)~rows[gap.row].mask;
    gap.row = ROWS;
    uint8_t most = 0, first = ROWS, last_moved = 0;
    for (uint8_t r = 0; r < ROWS; r++)
        if (agree[r] & SCAN_MOVED) {
            most = (agree[r] & 3) > most ? agree[r] & 3 : most;
            first = r < first ? r : first;
            last_moved = r;
        }
    *from = (uint16_t)(first * COLUMNS / 8);
    *to = (uint16_t)(((last_moved + 1) * COLUMNS + 7) / 8);
#if !MATRIX_DIODES
    *from = 0, *to = INPUT_BYTES; /* a held rectangle may span any rows */
#endif
    return most; /* 0 when every row read as before the write: nothing to debounce */
}

void scan_gap_reading(uint8_t *raw, const uint8_t *hold, uint8_t back)
{
    for (uint8_t r = 0; r < ROWS; r++) {
        if (!(agree[r] & SCAN_MOVED)) /* as before the write */
            continue;
        uint16_t at = (uint16_t)(r * COLUMNS);
        lines[r] = (agree[r] & 3) >= back ? closed_columns(last[r]) : bits_get(hold, at, COLUMNS);
#if MATRIX_DIODES
        bits_put(raw, at, lines[r], COLUMNS);
#endif
    }
#if !MATRIX_DIODES
    hold_ambiguous(hold);
    for (uint8_t r = 0; r < ROWS; r++)
        bits_put(raw, (uint16_t)(r * COLUMNS), lines[r], COLUMNS);
#endif
}

#endif /* SCANNER_MATRIX */

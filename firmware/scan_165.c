/*
 * scan_165.c: a chain of 74HC165 parallel-in/serial-out registers on the hardware SPI.
 *
 * Wiring (docs/firmware.md): SR_LATCH_PIN to every SH/LD, SCK to every CLK, the SPI's SS pin
 * (SR_SELECT_PIN) to every CLK INH, MISO to QH of register 0, each QH to SER of the register
 * before it, the last SER to GND. A scan pulses SH/LD low (all registers copy their inputs at
 * one instant), then clocks the chain out a byte per register in SPI mode 0, most
 * significant bit first: QH shows input H right after the load, so bit i of register k's
 * byte is its input i (A = 0 .. H = 7), channel 8k + i.
 */
#include <avr/io.h>

#include "clock.h"
#include "config.h"
#include "pinmap.h"
#include "pins.h"
#include "scan.h"
#include "ws2812.h"

#if SCANNER == SCANNER_165

#if SR_SPI_DIVIDER == 2
# define SPI_RATE 0
# define SPI_DOUBLE 1
#elif SR_SPI_DIVIDER == 4
# define SPI_RATE 0
# define SPI_DOUBLE 0
#elif SR_SPI_DIVIDER == 8
# define SPI_RATE _BV(SPR0)
# define SPI_DOUBLE 1
#elif SR_SPI_DIVIDER == 16
# define SPI_RATE _BV(SPR0)
# define SPI_DOUBLE 0
#elif SR_SPI_DIVIDER == 32
# define SPI_RATE _BV(SPR1)
# define SPI_DOUBLE 1
#elif SR_SPI_DIVIDER == 64
# define SPI_RATE _BV(SPR1)
# define SPI_DOUBLE 0
#elif SR_SPI_DIVIDER == 128
# define SPI_RATE (_BV(SPR1) | _BV(SPR0))
# define SPI_DOUBLE 0
#else
# error "SR_SPI_DIVIDER must be 2, 4, 8, 16, 32, 64 or 128"
#endif

static io_pin latch, select;

void scan_init(void)
{
    latch = pin_lookup(SR_LATCH_PIN);
    select = pin_lookup(SR_SELECT_PIN);
    pin_output(latch, 1);
    pin_output(select, 1); /* CLK INH high: the chain ignores the clock between scans */
    pin_output(pin_lookup(PIN_SCK), 0);
    pin_output(pin_lookup(PIN_MOSI), 0); /* not connected; the SPI master drives it */
    pin_input(pin_lookup(PIN_MISO), 0);
    SPCR = _BV(SPE) | _BV(MSTR) | SPI_RATE; /* mode 0, MSB first */
    SPSR = SPI_DOUBLE ? _BV(SPI2X) : 0;
}

static uint8_t reading[SR_REGISTERS]; /* each register's last byte, by scan or between LEDs */

/* SH/LD pulsed low: every register copies its inputs; then CLK INH low: they shift. */
static void load(void)
{
    IO_PORT(latch) &= (uint8_t)~latch.mask; /* load: >= 100 ns low (here ~190 ns) */
    __asm__ volatile("nop\n\tnop\n\t");
    IO_PORT(latch) |= latch.mask;
    IO_PORT(select) &= (uint8_t)~select.mask;
}

/* The byte the SPI has just shifted in (its flag cleared: SPSR, then SPDR). */
static inline uint8_t shifted(void)
{
    (void)SPSR;
    return SR_ACTIVE_LOW ? (uint8_t)~SPDR : SPDR;
}

uint8_t scan_read(uint8_t *raw, const uint8_t *hold)
{
    (void)hold;
    uint8_t changed = 0;
    load();
    for (uint16_t k = 0; k < SR_REGISTERS; k++) {
        SPDR = 0;
        while (!(SPSR & _BV(SPIF)))
            ;
        uint8_t byte = shifted();
        changed |= byte ^ raw[k];
        raw[k] = reading[k] = byte;
    }
    IO_PORT(select) |= select.mask;
    return changed != 0;
}

/* -- between the LEDs of a write (scan.h): a register a pause (two when one would make a pass
 * longer than a scan period), the SPI shifting the next byte in while the next LED is written;
 * a pass every scan period at least, timed by Timer1. A chain that reports polarity is read
 * between writes only. */

/* Two registers a pause when a pass of one a pause would take longer than a scan period. */
#define REGISTERS_PER_GAP ((SR_REGISTERS + 1UL) * WS2812_LED_CYCLES > F_CPU / 1000 * SCAN_PERIOD_MS ? 2 : 1)

static struct {
    uint16_t next;  /* the register whose byte is shifting in; SR_REGISTERS: none */
    uint16_t began; /* clock_counts() when the pass began */
} gap;
static uint8_t agree[SR_REGISTERS]; /* scan_agree() of each register */

void scan_gap_begin(void)
{
    gap.next = SR_REGISTERS;
    gap.began = clock_counts() - CLOCK_COUNTS_PER_MS * SCAN_PERIOD_MS; /* the first at once */
    for (uint16_t k = 0; k < SR_REGISTERS; k++)
        agree[k] = 0;
}

/* Take the byte shifted in (register gap.next) and start the next; whether it changed. */
static uint8_t gap_take(uint16_t *at, uint32_t *value)
{
    uint16_t k = gap.next;
    uint8_t byte = shifted(), was = agree[k], now = scan_agree(was, byte ^ reading[k]);
    reading[k] = byte;
    agree[k] = now;
    if (++gap.next < SR_REGISTERS)
        SPDR = 0;
    else
        IO_PORT(select) |= select.mask;
    if (!SCAN_SETTLED(was, now))
        return 0;
    *at = (uint16_t)(8 * k);
    *value = byte;
    return 1;
}

uint8_t scan_gap(uint16_t *at, uint32_t *value)
{
    if (SENSES_POLARITY)
        return 0;
    if (gap.next == SR_REGISTERS) { /* between passes */
        uint16_t now = clock_counts();
        if ((uint16_t)(now - gap.began) < CLOCK_COUNTS_PER_MS * SCAN_PERIOD_MS)
            return 0;
        gap.began = now;
        load();
        gap.next = 0;
        SPDR = 0;
        return 0;
    }
    uint8_t settled = gap_take(at, value);
    if (REGISTERS_PER_GAP == 2 && gap.next < SR_REGISTERS) {
        while (!(SPSR & _BV(SPIF)))
            ;
        uint16_t at2;
        uint32_t value2;
        if (gap_take(&at2, &value2) && !settled) /* a second at once: after the write */
            settled = 1, *at = at2, *value = value2;
    }
    return settled ? 8 : 0;
}

uint8_t scan_gap_passes(uint16_t *from, uint16_t *to)
{
    if (gap.next < SR_REGISTERS) { /* a pass cut by the write's end */
        while (!(SPSR & _BV(SPIF)))
            ;
        (void)shifted();
        IO_PORT(select) |= select.mask;
        gap.next = SR_REGISTERS;
    }
    uint8_t most = 0;
    uint16_t first = SR_REGISTERS, last = 0;
    for (uint16_t k = 0; !SENSES_POLARITY && k < SR_REGISTERS; k++)
        if (agree[k] & SCAN_MOVED) {
            most = (agree[k] & 3) > most ? agree[k] & 3 : most;
            first = k < first ? k : first;
            last = k;
        }
    *from = first, *to = (uint16_t)(last + 1);
    return most;
}

void scan_gap_reading(uint8_t *raw, const uint8_t *hold, uint8_t back)
{
    for (uint16_t k = 0; k < SR_REGISTERS; k++)
        if (agree[k] & SCAN_MOVED)
            raw[k] = (agree[k] & 3) >= back ? reading[k] : hold[k];
}

#endif /* SCANNER_165 */

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

#include "config.h"
#include "pinmap.h"
#include "pins.h"
#include "scan.h"

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

uint8_t scan_read(uint8_t *raw, const uint8_t *hold)
{
    (void)hold;
    uint8_t changed = 0;
    IO_PORT(latch) &= (uint8_t)~latch.mask; /* load: >= 100 ns low (here ~190 ns) */
    __asm__ volatile("nop\n\tnop\n\t");
    IO_PORT(latch) |= latch.mask;
    IO_PORT(select) &= (uint8_t)~select.mask;
    for (uint16_t k = 0; k < SR_REGISTERS; k++) {
        SPDR = 0;
        while (!(SPSR & _BV(SPIF)))
            ;
        uint8_t byte = SR_ACTIVE_LOW ? (uint8_t)~SPDR : SPDR;
        changed |= byte ^ raw[k];
        raw[k] = byte;
    }
    IO_PORT(select) |= select.mask;
    return changed != 0;
}

/* The chain is read whole (scan_read) between writes only. */
void scan_gap_begin(void) {}
uint8_t scan_gap(uint16_t *at, uint32_t *value)
{
    (void)at, (void)value;
    return 0;
}
uint8_t scan_gap_passes(uint16_t *from, uint16_t *to)
{
    *from = *to = 0;
    return 0;
}
void scan_gap_reading(uint8_t *raw, const uint8_t *hold, uint8_t back)
{
    (void)raw, (void)hold, (void)back;
}

#endif /* SCANNER_165 */

/*
 * switches.c: the sensors wired as config.h says.
 *
 * Matrix: when the firmware reads a column port, each column reads low if a closed switch
 * joins it to a row driven low (with diodes), or to any row or column connected to one
 * through closed switches (without: that is how ghosts appear), else high through its
 * pull-up. A row driven high that closed switches join to a low row would short two
 * outputs on a diode-less matrix: reported as "short".
 *
 * 74HC165 chain: a low SH/LD (the latch pin) loads the inputs; each SPI byte then shifts out
 * the next register, input H first (active low: a closed switch reads 0). simavr's SPI takes
 * a fixed 100 us a byte; here a byte takes 8 clocks of the SPI clock the firmware set.
 */
#include <stdlib.h>
#include <string.h>

#include "../config.h"
#include "../pinmap.h"
#include "avr_spi.h"
#include "sim.h"
#include "sim_cycle_timers.h"

static uint8_t state[CHANNELS]; /* 0 empty, 1 closed (north up), 2 closed south up */

int switches_channels(void)
{
    return (int)CHANNELS;
}

int switches_get(int channel)
{
    return state[channel];
}

#if SCANNER == SCANNER_MATRIX

static const int row_pins[] = { ROW_PINS }, column_pins[] = { COLUMN_PINS };
static uint32_t row_closed[ROWS]; /* the closed columns of each row */
static unsigned generation = 1;   /* bumped when a switch changes */

static void changed(int channel)
{
    unsigned r = (unsigned)channel / COLUMNS, c = (unsigned)channel % COLUMNS;
    row_closed[r] = state[channel] ? row_closed[r] | 1u << c : row_closed[r] & ~(1u << c);
    generation++;
}

/* The columns that read low while `low` rows (a bit each) are driven low. */
static uint32_t low_columns(uint64_t low)
{
    uint32_t columns = 0;
    for (;;) {
        uint32_t more = columns;
        for (unsigned r = 0; r < ROWS; r++)
            if (low >> r & 1)
                more |= row_closed[r];
        if (MATRIX_DIODES || more == columns) /* with diodes current flows one way only */
            return more;
        columns = more; /* without: a low column pulls down every row switched to it */
        for (unsigned r = 0; r < ROWS; r++)
            if (row_closed[r] & columns)
                low |= 1ull << r;
    }
}

/* A row driven high joined to a low column would short two outputs (no diodes). */
static void check_short(uint32_t columns)
{
    if (MATRIX_DIODES)
        return;
    for (unsigned r = 0; r < ROWS; r++)
        if ((row_closed[r] & columns) && pin_is_output(row_pins[r]) && pin_level(row_pins[r])) {
            event("short %llu row %u", (unsigned long long)avr->cycle, r);
            return;
        }
}

/* Before a read of a port with columns: set their PIN bits. */
static void columns_read(avr_io_addr_t addr, void *param)
{
    static uint64_t cached_low = ~0ull;
    static unsigned cached_generation;
    static uint32_t columns;
    avr_ioport_t *port = param;
    uint64_t low = 0;
    for (unsigned r = 0; r < ROWS; r++)
        if (pin_is_output(row_pins[r]) && !pin_level(row_pins[r]))
            low |= 1ull << r;
    if (low != cached_low || generation != cached_generation) {
        columns = low ? low_columns(low) : 0;
        cached_low = low;
        cached_generation = generation;
        check_short(columns);
    }
    for (unsigned c = 0; c < COLUMNS; c++) {
        uint8_t mask;
        if (pin_port(column_pins[c], &mask) != port)
            continue;
        if (columns >> c & 1)
            avr->data[addr] &= (uint8_t)~mask;
        else
            avr->data[addr] |= mask; /* the pull-up (a floating input reads high too) */
    }
}

void switches_init(void)
{
    for (unsigned c = 0; c < COLUMNS; c++) {
        uint8_t mask;
        avr_ioport_t *port = pin_port(column_pins[c], &mask);
        int seen = 0;
        for (unsigned d = 0; d < c; d++) {
            uint8_t other;
            seen |= pin_port(column_pins[d], &other) == port;
        }
        if (!seen)
            hook_before_read(port->r_pin, columns_read, port);
    }
}

#else /* SCANNER_165 */

static avr_spi_t *spi;
static avr_irq_t *spi_in;
static uint8_t chain[SR_REGISTERS]; /* what the registers hold since the last load */
static int shifted;                  /* bytes shifted out since the load */
static uint8_t next_byte;

/* After a write to the latch pin's port: while SH/LD is low the registers follow the inputs. */
static void latch_written(avr_io_addr_t addr, void *param)
{
    (void)addr;
    (void)param;
    if (!pin_is_output(SR_LATCH_PIN) || pin_level(SR_LATCH_PIN))
        return;
    memset(chain, 0, sizeof chain);
    for (int input = 0; input < INPUTS; input++) {
        int channel = SENSES_POLARITY ? input / 2 : input, s = state[channel];
        int closed = SENSES_POLARITY ? s == (input % 2 ? 2 : 1) : s != 0;
        if (closed != SR_ACTIVE_LOW) /* the input's level: high unless pulled low */
            chain[input / 8] |= (uint8_t)(1 << (input % 8));
    }
    shifted = 0;
}

static avr_cycle_count_t spi_done(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    avr_raise_irq(spi_in, next_byte);
    return 0;
}

/* The firmware starts a transfer: the byte it will read is the chain's next register. */
static void spdr_written(avr_t *a, avr_io_addr_t addr, uint8_t value, void *param)
{
    (void)param;
    a->data[addr] = value;
    avr_regbit_clear(a, spi->spi.raised);
    int inhibited = !pin_is_output(SR_SELECT_PIN) || pin_level(SR_SELECT_PIN);
    int loading = pin_is_output(SR_LATCH_PIN) && !pin_level(SR_LATCH_PIN);
    if (inhibited || loading) /* the clock does not shift: QH stays, register 0's H */
        next_byte = (chain[0] & 0x80) ? 0xFF : 0x00;
    else
        next_byte = shifted < SR_REGISTERS ? chain[shifted++] : 0; /* the last SER is tied low */
    static const int dividers[] = { 4, 16, 64, 128 };
    int rate = avr_regbit_get(a, spi->spr[0]) | avr_regbit_get(a, spi->spr[1]) << 1;
    int divider = dividers[rate] >> (avr_regbit_get(a, spi->spr[2]) ? 1 : 0);
    avr_cycle_timer_register(a, (avr_cycle_count_t)(8 * divider), spi_done, NULL);
}

void switches_init(void)
{
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "spi"))
            spi = (avr_spi_t *)io;
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(spi->name), SPI_IRQ_INPUT);
    avr->io[AVR_DATA_TO_IO(spi->r_spdr)].w.c = spdr_written;
    uint8_t mask;
    avr_ioport_t *latch = pin_port(SR_LATCH_PIN, &mask);
    hook_after_write(latch->r_port, latch_written, NULL);
    hook_after_write(latch->r_ddr, latch_written, NULL);
}

#endif

int switches_set(int channel, int value)
{
    if (channel < 0 || channel >= (int)CHANNELS || value < 0 || value > 2)
        return -1;
    state[channel] = (uint8_t)(SENSES_POLARITY ? value : value != 0);
#if SCANNER == SCANNER_MATRIX
    changed(channel);
#endif
    return 0;
}

/*
 * ws2812.c: the WS2812B chains on LED_PINS, as the chips see their lines. Each high pulse is a
 * bit: 0 when high 0.25-0.55 us, 1 when high 0.65-0.95 us (the data sheet's 0.4 and 0.8 us,
 * +-150 ns); a pulse in neither window counts as a timing fault. A chain shows its bits once
 * its line stays low 50 us (the latch). A write of the chains is reported once every line has
 * been low that long, as
 *   leds <first edge> <last edge> <longest low between bits, cycles> <faults> <GRB hex> ...
 * with one GRB hex (or -) per chain, in the order of LED_PINS.
 */
#include <stdio.h>

#include "../config.h"
#include "sim.h"

#define LATCH_US 50

typedef struct {
    uint8_t bits[3 * LED_PER_CHAIN + 64]; /* room for a few LEDs too many (a fault) */
    int count, faults, level;
    avr_cycle_count_t rose, fell, first, longest_low;
} chain;

static chain chains[LED_CHAINS];

static avr_cycle_count_t us(double microseconds)
{
    return (avr_cycle_count_t)(microseconds * F_CPU / 1e6);
}

/* Whether some chain got bits, every line is low and has been for the latch time. */
static int latched(void)
{
    int any = 0;
    for (int c = 0; c < (int)LED_CHAINS; c++) {
        if (chains[c].level || (chains[c].count && avr->cycle - chains[c].fell < us(LATCH_US)))
            return 0;
        any |= chains[c].count > 0;
    }
    return any;
}

static void report(void)
{
    static char line[LED_CHAINS * (6 * LED_PER_CHAIN + 130) + 100];
    avr_cycle_count_t first = 0, last = 0, longest_low = 0;
    int faults = 0, at = 0;
    for (int c = 0; c < (int)LED_CHAINS; c++) {
        chain *ch = &chains[c];
        if (!ch->count)
            continue;
        first = !first || ch->first < first ? ch->first : first;
        last = ch->fell > last ? ch->fell : last;
        longest_low = ch->longest_low > longest_low ? ch->longest_low : longest_low;
        faults += ch->faults + (ch->count % 8 != 0); /* a partial byte */
    }
    at += sprintf(line, "leds %llu %llu %llu %d", (unsigned long long)first,
                  (unsigned long long)last, (unsigned long long)longest_low, faults);
    for (int c = 0; c < (int)LED_CHAINS; c++) {
        chain *ch = &chains[c];
        line[at++] = ' ';
        if (ch->count < 8)
            line[at++] = '-';
        for (int i = 0; i < ch->count / 8; i++)
            at += sprintf(line + at, "%02x", ch->bits[i]);
        ch->count = ch->faults = 0;
        ch->longest_low = 0;
    }
    line[at] = 0;
    event("%s", line);
}

static void pin_changed(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    chain *ch = param;
    int high = value & 1;
    if (high == ch->level)
        return;
    avr_cycle_count_t now = avr->cycle;
    if (high) {
        if (latched()) /* the lines were quiet: a new write begins */
            report();
        ch->level = 1;
        if (!ch->count)
            ch->first = now;
        else if (now - ch->fell > ch->longest_low)
            ch->longest_low = now - ch->fell;
        ch->rose = now;
        return;
    }
    ch->level = 0;
    ch->fell = now;
    avr_cycle_count_t width = now - ch->rose;
    int one = width >= us(0.6);
    if (width < us(0.25) || width > us(0.95) || (width > us(0.55) && width < us(0.65)))
        ch->faults++;
    if (ch->count < (int)sizeof ch->bits * 8) {
        if (one)
            ch->bits[ch->count / 8] |= (uint8_t)(0x80 >> (ch->count % 8));
        else
            ch->bits[ch->count / 8] &= (uint8_t)~(0x80 >> (ch->count % 8));
        ch->count++;
    } else {
        ch->faults++; /* far more bits than the chain has LEDs */
    }
}

void leds_init(void)
{
    static const int pins[] = { LED_PINS };
    for (int c = 0; c < (int)LED_CHAINS; c++) {
        uint8_t mask;
        avr_ioport_t *port = pin_port(pins[c], &mask);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port->name),
                                              __builtin_ctz(mask)), pin_changed, &chains[c]);
    }
}

void leds_poll(void)
{
    if (latched())
        report();
}

/*
 * ws2812.c: a WS2812B chain on LED_PIN, as the chips see the line. Each high pulse is a bit:
 * 0 when high 0.25-0.55 us, 1 when high 0.65-0.95 us (the data sheet's 0.4 and 0.8 us,
 * +-150 ns); a pulse in neither window counts as a timing fault. The chain shows the bits
 * once the line stays low 50 us (the latch). Each frame is reported as
 *   leds <first edge> <last edge> <longest low between bits, cycles> <faults> <GRB hex>
 */
#include <stdlib.h>

#include "../config.h"
#include "sim.h"

#define LATCH_US 50

static uint8_t bits[3 * 16384 + 8];
static int count, faults;
static int level;
static avr_cycle_count_t rose, fell, first, longest_low;

static avr_cycle_count_t us(double microseconds)
{
    return (avr_cycle_count_t)(microseconds * F_CPU / 1e6);
}

static void report(void)
{
    char *hex = malloc((size_t)count / 4 + 2);
    int bytes = count / 8;
    for (int i = 0; i < bytes; i++) {
        static const char digits[] = "0123456789abcdef";
        hex[2 * i] = digits[bits[i] >> 4];
        hex[2 * i + 1] = digits[bits[i] & 15];
    }
    hex[2 * bytes] = 0;
    if (count % 8)
        faults++; /* a partial byte */
    event("leds %llu %llu %llu %d %s", (unsigned long long)first, (unsigned long long)fell,
          (unsigned long long)longest_low, faults, bytes ? hex : "-");
    free(hex);
    count = faults = 0;
    longest_low = 0;
}

static void pin_changed(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    int high = value & 1;
    if (high == level)
        return;
    level = high;
    avr_cycle_count_t now = avr->cycle;
    if (high) {
        if (count && now - fell >= us(LATCH_US))
            report();
        if (!count)
            first = now;
        else if (now - fell > longest_low)
            longest_low = now - fell;
        rose = now;
        return;
    }
    fell = now;
    avr_cycle_count_t width = now - rose;
    int one = width >= us(0.6);
    if (width < us(0.25) || width > us(0.95) || (width > us(0.55) && width < us(0.65)))
        faults++;
    if (count < (int)sizeof bits * 8) {
        if (one)
            bits[count / 8] |= (uint8_t)(0x80 >> (count % 8));
        else
            bits[count / 8] &= (uint8_t)~(0x80 >> (count % 8));
        count++;
    }
}

void leds_init(void)
{
    uint8_t mask;
    avr_ioport_t *port = pin_port(LED_PIN, &mask);
    int bit = __builtin_ctz(mask);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port->name), bit),
                            pin_changed, NULL);
}

void leds_poll(void)
{
    if (count && !level && avr->cycle - fell >= us(LATCH_US))
        report();
}

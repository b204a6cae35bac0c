/*
 * ws2812.c: the WS2812 bit timing at 16 MHz, in cycles of 62.5 ns, for 1 to 8 chains at once.
 *
 * A bit is three stores to the port: every chain high; 6 cycles later, the chains whose bit
 * is 0 low (high 375 ns); 7 cycles later, all low (a 1 bit was high 812 ns); the data sheet
 * allows +-150 ns on the high times. While the port holds a level, the next bit's port value
 * is worked out from the chains' bytes, a bit each (bst/bld: 2 cycles a chain), so a bit
 * takes 20 cycles (1.25 us) for up to 6 chains, 21 for 7 and 23 for 8 (the data sheet allows
 * +-600 ns on the bit). The last bit of a byte takes longer: the next bytes are loaded then.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "config.h"
#include "pinmap.h"
#include "pins.h"
#include "protocol.h"
#include "sensors.h"
#include "uart.h"
#include "ws2812.h"

static volatile uint8_t *port;
static uint8_t mask; /* every chain's pin */

void ws2812_init(void)
{
    static const uint8_t pins[] = { LED_PINS };
    for (uint8_t c = 0; c < LED_CHAINS; c++) {
        io_pin pin = pin_lookup(pins[c]);
        pin_output(pin, 0);
        port = &IO_PORT(pin); /* one port for all (check_config) */
        mask |= pin.mask;
    }
}

/* The port bit of chain c, known when compiling (the assembler needs it as a number). */
#define CHAIN_PIN(c) (((const unsigned char[]){ LED_PINS, 0, 0, 0, 0, 0, 0, 0 })[c])
#define CHAIN_BIT(c) (c < LED_CHAINS ? PINMAP_BIT(((const unsigned char[])PINMAP)[CHAIN_PIN(c)]) : 0)
#define CHAIN_BITS_FROM(c) ((uint32_t)CHAIN_BIT(c) << (3 * c))
#define CHAIN_BITS (CHAIN_BITS_FROM(0) | CHAIN_BITS_FROM(1) | CHAIN_BITS_FROM(2) | \
                    CHAIN_BITS_FROM(3) | CHAIN_BITS_FROM(4) | CHAIN_BITS_FROM(5) | \
                    CHAIN_BITS_FROM(6) | CHAIN_BITS_FROM(7)) /* 3 bits a chain */

/*
 * One LED of every chain: 24 bits. Chain c's byte is in register r(2 + c). Working out a bit
 * (into register nx) is a list of one-cycle items: item 0 starts from the port's low value,
 * items 2c + 1 and 2c + 2 copy chain c's bit to its port bit. Items 0-3 fit between the first
 * two stores, 4-8 between the last two, the rest (chains 4-7) after them; items of chains
 * that do not exist are nops where the timing needs them.
 */
static inline __attribute__((always_inline)) void send_led(volatile uint8_t *out, uint8_t high,
                                                           uint8_t low, const uint8_t **data)
{
    uint8_t a, b;
    __asm__ volatile(
        ".set N, %[n]\n\t"
        ".set BITS, %[bits]\n\t"
        /* an item, or a nop when the chain does not exist and pad is 1 */
        ".macro ws_item i, pad, insn:vararg\n\t"
        ".if \\i < 1 + 2 * N\n\t\\insn\n\t.elseif \\pad\n\tnop\n\t.endif\n\t"
        ".endm\n\t"
        ".macro ws_a nx, k, pad\n\t"
        "ws_item 0, \\pad, mov \\nx, %[lo]\n\t"
        "ws_item 1, \\pad, bst r2, \\k\n\t"
        "ws_item 2, \\pad, bld \\nx, BITS & 7\n\t"
        "ws_item 3, \\pad, bst r3, \\k\n\t"
        ".endm\n\t"
        ".macro ws_b nx, k, pad\n\t"
        "ws_item 4, \\pad, bld \\nx, (BITS >> 3) & 7\n\t"
        "ws_item 5, \\pad, bst r4, \\k\n\t"
        "ws_item 6, \\pad, bld \\nx, (BITS >> 6) & 7\n\t"
        "ws_item 7, \\pad, bst r5, \\k\n\t"
        "ws_item 8, \\pad, bld \\nx, (BITS >> 9) & 7\n\t"
        ".endm\n\t"
        ".macro ws_c nx, k\n\t"
        "ws_item 9, 0, bst r6, \\k\n\t"
        "ws_item 10, 0, bld \\nx, (BITS >> 12) & 7\n\t"
        "ws_item 11, 0, bst r7, \\k\n\t"
        "ws_item 12, 0, bld \\nx, (BITS >> 15) & 7\n\t"
        "ws_item 13, 0, bst r8, \\k\n\t"
        "ws_item 14, 0, bld \\nx, (BITS >> 18) & 7\n\t"
        "ws_item 15, 0, bst r9, \\k\n\t"
        "ws_item 16, 0, bld \\nx, (BITS >> 21) & 7\n\t"
        ".endm\n\t"
        /* the next byte of every chain into r2.. */
        ".macro ws_load\n\t"
        ".irp r, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
        ".if \\r < 2 + N\n\tld r\\r, %a[data]+\n\t.endif\n\t"
        ".endr\n\t"
        ".endm\n\t"
        /* send the bit in cur, work out bit k of the same bytes into nx */
        ".macro ws_bit cur, nx, k\n\t"
        "st %a[port], %[hi]\n\t"
        "ws_a \\nx, \\k, 1\n\t"
        "st %a[port], \\cur\n\t"
        "ws_b \\nx, \\k, 1\n\t"
        "st %a[port], %[lo]\n\t"
        "ws_c \\nx, \\k\n\t"
        ".if N <= 4\n\t.rept 5\n\tnop\n\t.endr\n\t" /* a bit lasts 20 cycles at least */
        ".elseif N <= 6\n\t.rept 13 - 2 * N\n\tnop\n\t.endr\n\t.endif\n\t"
        ".endm\n\t"
        /* send the bit in cur with nothing to work out */
        ".macro ws_send cur\n\t"
        "st %a[port], %[hi]\n\t"
        ".rept 4\n\tnop\n\t.endr\n\t"
        "st %a[port], \\cur\n\t"
        ".rept 5\n\tnop\n\t.endr\n\t"
        "st %a[port], %[lo]\n\t"
        ".endm\n\t"
        /* load the next bytes and work out their first bit into nx */
        ".macro ws_next nx\n\t"
        "ws_load\n\t"
        "ws_a \\nx, 7, 0\n\t"
        "ws_b \\nx, 7, 0\n\t"
        "ws_c \\nx, 7\n\t"
        ".endm\n\t"
        ".macro ws_byte\n\t" /* the bits of a byte, first in a */
        "ws_bit %[a], %[b], 6\n\t"
        "ws_bit %[b], %[a], 5\n\t"
        "ws_bit %[a], %[b], 4\n\t"
        "ws_bit %[b], %[a], 3\n\t"
        "ws_bit %[a], %[b], 2\n\t"
        "ws_bit %[b], %[a], 1\n\t"
        "ws_bit %[a], %[b], 0\n\t"
        ".endm\n\t"
        "ws_next %[a]\n\t" /* green */
        "ws_byte\n\t"
        "ws_send %[b]\n\t"
        "ws_next %[a]\n\t" /* red */
        "ws_byte\n\t"
        "ws_send %[b]\n\t"
        "ws_next %[a]\n\t" /* blue */
        "ws_byte\n\t"
        "ws_send %[b]\n\t"
        ".purgem ws_item\n\t.purgem ws_a\n\t.purgem ws_b\n\t.purgem ws_c\n\t.purgem ws_load\n\t"
        ".purgem ws_bit\n\t.purgem ws_send\n\t.purgem ws_next\n\t.purgem ws_byte\n\t"
        : [a] "=&r"(a), [b] "=&r"(b), [data] "+e"(*data)
        : [port] "e"(out), [hi] "r"(high), [lo] "r"(low), [n] "n"(LED_CHAINS),
          [bits] "n"(CHAIN_BITS)
        : "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory");
}

/* Not inlined: the caller's branches could not reach across the unrolled bits. */
__attribute__((noinline)) void ws2812_write(const uint8_t *data, uint16_t leds)
{
    cli();
    uart_batch batch;
    uart_batch_begin(&batch);
    if (SCAN_DURING_WRITES)
        sensors_gap_begin();
    volatile uint8_t *const out = port;
    uint8_t low = (uint8_t)(*out & ~mask), high = (uint8_t)(low | mask);
    uint8_t changed = 0;
    while (leds--) {
        send_led(out, high, low, &data);
        uart_batch_poll(&batch);
        if (!SCAN_DURING_WRITES) {
            continue;
        } else if (!changed) {
            changed = sensors_gap();
        } else { /* the next pause: the change's frame into the ring, the UART takes it */
            uart_batch_end(&batch);
            proto_send_changes();
            uart_batch_begin(&batch);
            changed = 0;
        }
    }
    uart_batch_end(&batch);
    sei();
}

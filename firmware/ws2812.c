/*
 * ws2812.c: the WS2812 bit timing at 16 MHz, in cycles of 62.5 ns: a 0 bit is high 6 cycles
 * (375 ns), a 1 bit high 13 (812 ns), each bit 19 or 20 cycles (~1.2 us) in all; the data
 * sheet allows +-150 ns on the high times and +-600 ns on the bit.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "config.h"
#include "pins.h"
#include "ws2812.h"

static io_pin pin;
static uint8_t high, low; /* the port's value with the data pin high, low */

void ws2812_init(void)
{
    pin = pin_lookup(LED_PIN);
    pin_output(pin, 0);
}

void ws2812_begin(void)
{
    cli();
    low = (uint8_t)(IO_PORT(pin) & ~pin.mask);
    high = (uint8_t)(low | pin.mask);
}

void ws2812_end(void)
{
    sei();
}

/* One byte, most significant bit first. Cycle counts per instruction in the comments. */
static inline void send_byte(volatile uint8_t *port, uint8_t byte)
{
    uint8_t bits = 8;
    __asm__ volatile(
        "1:                    \n\t"
        "st   %a[port], %[hi]  \n\t" /* 2: the bit starts high */
        "nop                   \n\t" /* 3 */
        "rjmp .+0              \n\t" /* 5 */
        "sbrs %[byte], 7       \n\t" /* 6 (7 when skipping: a 1 bit) */
        "st   %a[port], %[lo]  \n\t" /* a 0 bit ends its high time after 6 cycles */
        "rjmp .+0              \n\t"
        "rjmp .+0              \n\t"
        "nop                   \n\t"
        "lsl  %[byte]          \n\t"
        "st   %a[port], %[lo]  \n\t" /* a 1 bit ends its high time after 13 cycles */
        "nop                   \n\t"
        "dec  %[bits]          \n\t"
        "brne 1b               \n\t"
        : [byte] "+r"(byte), [bits] "+r"(bits)
        : [port] "e"(port), [hi] "r"(high), [lo] "r"(low)
        : "memory");
}

void ws2812_pixel(uint8_t green, uint8_t red, uint8_t blue)
{
    volatile uint8_t *port = &IO_PORT(pin);
    send_byte(port, green);
    send_byte(port, red);
    send_byte(port, blue);
    /* Let at most two waiting interrupts run: after `sei` one instruction runs before any
     * interrupt, and after each return from one, one more runs before the next. */
    __asm__ volatile("sei\n\tnop\n\tnop\n\tcli\n\t" ::: "memory");
}

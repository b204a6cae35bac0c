/*
 * ws2812.c: the WS2812 bit timing at 16 MHz, in cycles of 62.5 ns: a 0 bit is high 6 cycles
 * (375 ns), a 1 bit high 13 (812 ns), each bit 19 or 20 cycles (~1.2 us) in all; the data
 * sheet allows +-150 ns on the high times and +-600 ns on the bit.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "config.h"
#include "pins.h"
#include "uart.h"
#include "ws2812.h"

static io_pin pin;

void ws2812_init(void)
{
    pin = pin_lookup(LED_PIN);
    pin_output(pin, 0);
}

/* One byte, most significant bit first. Cycle counts per instruction in the comments. */
static inline __attribute__((always_inline)) void send_byte(volatile uint8_t *port, uint8_t high, uint8_t low, uint8_t byte)
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

void ws2812_write(const uint8_t *grb, uint16_t count)
{
    volatile uint8_t *port = &IO_PORT(pin);
    cli();
    uint8_t low = (uint8_t)(*port & ~pin.mask), high = (uint8_t)(low | pin.mask);
    while (count--) {
        send_byte(port, high, low, grb[0]);
        send_byte(port, high, low, grb[1]);
        send_byte(port, high, low, grb[2]);
        grb += 3;
        uart_service();
    }
    sei();
}

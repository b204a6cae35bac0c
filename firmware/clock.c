/*
 * clock.c: milliseconds from Timer1, counting freely at F_CPU / 64 (4 us a count). A compare
 * interrupt every 250 counts adds a millisecond and wakes the main loop; when interrupts were
 * off longer than that (while the LEDs are written), it catches up from the counter, so the
 * clock never loses time.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "clock.h"
#include "config.h"

#if F_CPU != 16000000UL
# error "clock.c and ws2812.c are written for a 16 MHz clock"
#endif


static volatile uint32_t ms;
static uint16_t next; /* the counter value at which the next millisecond begins */

void clock_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(CS11) | _BV(CS10); /* normal mode, F_CPU / 64 */
    next = CLOCK_COUNTS_PER_MS;
    OCR1A = next;
    TIMSK1 = _BV(OCIE1A);
}

ISR(TIMER1_COMPA_vect)
{
    do {
        ms++;
        next += CLOCK_COUNTS_PER_MS;
    } while ((int16_t)(TCNT1 - next) >= 0);
    OCR1A = next;
}

uint32_t clock_ms(void)
{
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        now = ms;
    }
    return now;
}

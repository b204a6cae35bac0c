/* clock.c: a 1 kHz tick from Timer2 in CTC mode (16 MHz / 128 / 125). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "clock.h"
#include "config.h"

#if F_CPU != 16000000UL
# error "clock.c and ws2812.c are written for a 16 MHz clock"
#endif

static volatile uint32_t ms;

void clock_init(void)
{
    TCCR2A = _BV(WGM21);             /* clear the counter on compare match A */
    TCCR2B = _BV(CS22) | _BV(CS20);  /* F_CPU / 128 = 125 kHz */
    OCR2A = 124;                     /* 125 counts: 1 ms */
    TIMSK2 = _BV(OCIE2A);
}

ISR(TIMER2_COMPA_vect)
{
    ms++;
}

uint32_t clock_ms(void)
{
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        now = ms;
    }
    return now;
}

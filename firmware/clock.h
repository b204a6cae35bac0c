/* clock.h: milliseconds since reset, from Timer1; patterns, scans and heartbeats use it. */
#ifndef CLOCK_H
#define CLOCK_H

#include <avr/io.h>
#include <stdint.h>

void clock_init(void);
uint32_t clock_ms(void);

/* Timer1's free count, CLOCK_COUNTS_PER_MS a millisecond: it goes on while interrupts are off
 * (the LED writes time their scans by it). Read with interrupts off. */
#define CLOCK_COUNTS_PER_MS 250
static inline uint16_t clock_counts(void)
{
    return TCNT1;
}

#endif /* CLOCK_H */

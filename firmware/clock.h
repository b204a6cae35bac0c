/* clock.h: milliseconds since reset, from Timer1; patterns, scans and heartbeats use it. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

void clock_init(void);
uint32_t clock_ms(void);

#endif /* CLOCK_H */

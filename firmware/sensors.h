/*
 * sensors.h: the debounced state of every channel and what the host has not heard yet.
 *
 * A channel changes once its raw reading differs from its sure state DEBOUNCE_SCANS scans
 * in a row (closed and north-up are debounced alike). Changes wait in a mask until a
 * CHANGE frame (or a full STATE) carries them, so a full transmit buffer delays a report
 * but never loses it.
 */
#ifndef SENSORS_H
#define SENSORS_H

#include <stdint.h>

#include "config.h"

/* The sure state: closed channels, and (boards with polarity) the closed ones north-up. */
extern uint8_t sensors_closed[MASK_BYTES];
extern uint8_t sensors_north[SENSES_POLARITY ? MASK_BYTES : 1];

void sensors_init(void);
/* Scan once and debounce. */
void sensors_scan(void);
/* A chain write begins (interrupts off until it ends). */
void sensors_gap_begin(void);
/* Between two of its LEDs: read a part of the inputs (scan.h); a part that read otherwise
 * than before and then the same DEBOUNCE_SCANS times has changed at once. Returns whether
 * something changed (its CHANGE can go out during the write). */
uint8_t sensors_gap(void);
/* Debounce the rest of what was read between the LEDs of the write that just ended. */
void sensors_after_write(void);

/* Whether some switch is changing: it reads otherwise than its sure state (the debounce is
 * counting), or its change waits to be reported. */
uint8_t sensors_settling(void);
/* Whether some change waits to be reported. */
uint8_t sensors_unreported(void);
/* Take up to `max` waiting changes as the CHANGE body (closed<<15 | north<<14 | channel,
 * big-endian, two bytes each); returns how many. */
uint16_t sensors_take_changes(uint8_t *body, uint16_t max);
/* A full STATE went out: nothing waits any more. */
void sensors_all_reported(void);

#endif /* SENSORS_H */

/*
 * pins.h: an Arduino pin number as the registers that drive it.
 *
 * The three registers of a port follow each other in the I/O space on both chips:
 * PINx, then DDRx, then PORTx, so one pointer and a bit mask name a pin.
 */
#ifndef PINS_H
#define PINS_H

#include <stdint.h>

typedef struct {
    volatile uint8_t *in; /* PINx; DDRx is in[1], PORTx is in[2] */
    uint8_t mask;
} io_pin;

#define IO_DDR(p) ((p).in[1])
#define IO_PORT(p) ((p).in[2])
#define IO_READ(p) (*(p).in & (p).mask)

/* The registers of Arduino pin `number` (checked by check_config at build time). */
io_pin pin_lookup(uint8_t number);

/* Output, driven low or high. */
void pin_output(io_pin p, uint8_t high);
/* Input, with or without the internal pull-up. */
void pin_input(io_pin p, uint8_t pullup);

#endif /* PINS_H */

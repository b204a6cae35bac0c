/* pins.c: Arduino pin numbers to port registers (pinmap.h), and setting a pin's mode. */
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <util/atomic.h>

#include "config.h"
#include "pinmap.h"
#include "pins.h"

static const uint8_t pinmap[PINMAP_SIZE] PROGMEM = PINMAP;

/* PINx of each port letter from A; 0 where the chip has no such port. */
static volatile uint8_t *port_base(char letter)
{
    switch (letter) {
#ifdef PINA
    case 'A': return &PINA;
#endif
    case 'B': return &PINB;
    case 'C': return &PINC;
    case 'D': return &PIND;
#ifdef PINE
    case 'E': return &PINE;
    case 'F': return &PINF;
    case 'G': return &PING;
    case 'H': return &PINH;
    case 'J': return &PINJ;
    case 'K': return &PINK;
    case 'L': return &PINL;
#endif
    default: return 0;
    }
}

io_pin pin_lookup(uint8_t number)
{
    uint8_t entry = pgm_read_byte(&pinmap[number]);
    io_pin p = { port_base(PINMAP_PORT(entry)), (uint8_t)(1 << PINMAP_BIT(entry)) };
    return p;
}

/* Ports H..L of the Mega lie outside the reach of the single-instruction bit set/clear, so a
 * read-modify-write there could race an interrupt; none of ours touches a port, but be safe. */
static void set_bit(volatile uint8_t *reg, uint8_t mask, uint8_t on)
{
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        if (on)
            *reg |= mask;
        else
            *reg &= (uint8_t)~mask;
    }
}

void pin_output(io_pin p, uint8_t high)
{
    set_bit(&IO_PORT(p), p.mask, high);
    set_bit(&IO_DDR(p), p.mask, 1);
}

void pin_input(io_pin p, uint8_t pullup)
{
    set_bit(&IO_DDR(p), p.mask, 0);
    set_bit(&IO_PORT(p), p.mask, pullup);
}

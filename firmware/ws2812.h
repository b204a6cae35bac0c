/*
 * ws2812.h: WS2812(B) chains on LED_PINS: 24 bits per LED, green, red, blue, most significant
 * bit first, 1.25 us a bit; a chain shows what it got once its line stays low 50 us or more.
 *
 * Up to 8 chains on pins of one port are written in parallel: each bit is three writes of
 * the whole port (every chain high; low where the chain's bit is 0; all low), so 8 chains
 * take as long as one. The chains are written with interrupts off, so the bit timing is exact
 * and the pauses between LEDs stay well under the 50 us latch; in them the UART is served by
 * polling (uart_batch), so no byte from the host is lost, and the switches are read
 * (sensors_gap, SCAN_DURING_WRITES: a change's frame goes out during the write); the clock
 * catches up afterwards (clock.c).
 *
 * The data is laid out LED by LED along the chains: for LED i of every chain, the green
 * bytes of chains 0..LED_CHAINS-1, then their red bytes, then their blue bytes:
 *
 *     data[(3 * i + colour) * LED_CHAINS + chain]     colour 0 green, 1 red, 2 blue
 */
#ifndef WS2812_H
#define WS2812_H

#include <stdint.h>

#include "config.h"

_Static_assert(LED_CHAINS >= 1 && LED_CHAINS <= 8, "LED_PINS: 1 to 8 pins");

/* Cycles a bit takes (ws2812.c), and an LED of every chain with the pause after it. */
#define WS2812_BIT_CYCLES (LED_CHAINS <= 6 ? 20 : LED_CHAINS == 7 ? 21 : 23)
#define WS2812_LED_CYCLES (24 * WS2812_BIT_CYCLES + 40)

void ws2812_init(void);
/* Write LED 0 .. leds-1 of every chain from `data` (laid out as above). */
void ws2812_write(const uint8_t *data, uint16_t leds);

#endif /* WS2812_H */

/*
 * ws2812.h: a WS2812(B) chain on LED_PIN: 24 bits per LED, green, red, blue, most significant
 * bit first, 1.25 us a bit; the chain shows what it got once the line stays low 50 us or more.
 *
 * The whole chain is written with interrupts off (30 us an LED), so the bit timing and the
 * pauses between LEDs stay short and exact: some WS2812B take a pause of a few microseconds
 * for the latch. Meanwhile the UART is served by polling between LEDs (uart_service), so no
 * byte from the host is lost, and the clock catches up afterwards (clock.c).
 */
#ifndef WS2812_H
#define WS2812_H

#include <stdint.h>

void ws2812_init(void);
/* Write `count` LEDs from grb (3 bytes each, in wire order). */
void ws2812_write(const uint8_t *grb, uint16_t count);

#endif /* WS2812_H */

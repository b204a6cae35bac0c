/*
 * ws2812.h: a WS2812(B) chain on LED_PIN: 24 bits per LED, green, red, blue, most significant
 * bit first, 1.25 us a bit; the chain shows what it got once the line stays low 50 us or more.
 *
 * Interrupts are off only while one LED's 24 bits go out (30 us); between LEDs the pending
 * interrupts (the UART's, the clock's) run, at most two, so the pause between LEDs stays a
 * few microseconds, far below the latch time, and no byte from the host is lost.
 */
#ifndef WS2812_H
#define WS2812_H

#include <stdint.h>

void ws2812_init(void);
/* Start a frame (interrupts off but for the pauses between LEDs): the next pixel goes to
 * the first LED of the chain. */
void ws2812_begin(void);
void ws2812_pixel(uint8_t green, uint8_t red, uint8_t blue);
/* End the frame: interrupts on again. The chain shows it once the line has been low 50 us. */
void ws2812_end(void);

#endif /* WS2812_H */

/*
 * uart.h: the serial port to the host (USART0, the Arduino's USB-serial chip), interrupt
 * driven: bytes wait in a ring each way, so neither the scan nor the LED writes wait for
 * the line.
 */
#ifndef UART_H
#define UART_H

#include <stdint.h>

void uart_init(void);

/* The next byte from the host, or -1 when none waits. */
int16_t uart_get(void);
/* True when bytes from the host wait. */
uint8_t uart_pending(void);

/* Free room in the transmit ring; uart_put() may be called that many times. */
uint16_t uart_room(void);
void uart_put(uint8_t byte);

/* Bytes lost because the receive ring was full. */
extern volatile uint16_t uart_overflows;

#endif /* UART_H */

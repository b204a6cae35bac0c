/*
 * uart.h: the serial port to the host (USART0, the Arduino's USB-serial chip), interrupt
 * driven: bytes wait in a ring each way, so neither the scan nor the LED writes wait for
 * the line.
 */
#ifndef UART_H
#define UART_H

#include <avr/io.h>
#include <stdint.h>

#include "config.h"

#ifndef USART0_RX_vect /* the ATmega328P has one USART and names it without a number */
# define USART0_RX_vect USART_RX_vect
# define USART0_UDRE_vect USART_UDRE_vect
#endif

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

/* -- the rings, shared with the interrupt handlers and uart_service() ------------------- */
typedef uint16_t ring_index;
extern volatile uint8_t uart_rx_ring[RX_BUFFER], uart_tx_ring[TX_BUFFER];
extern volatile ring_index uart_rx_head, uart_rx_tail, uart_tx_head, uart_tx_tail;

/* A byte from the UART into the receive ring (interrupts off). */
static inline __attribute__((always_inline)) void uart_receive(void)
{
    uint8_t byte = UDR0;
    ring_index next = (ring_index)((uart_rx_head + 1) & (RX_BUFFER - 1));
    if (next == uart_rx_tail) {
        uart_overflows++;
        return;
    }
    uart_rx_ring[uart_rx_head] = byte;
    uart_rx_head = next;
}

/* The next byte of the transmit ring to the UART, which has room (interrupts off). */
static inline __attribute__((always_inline)) void uart_transmit(void)
{
    if (uart_tx_tail == uart_tx_head) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = uart_tx_ring[uart_tx_tail];
    uart_tx_tail = (ring_index)((uart_tx_tail + 1) & (TX_BUFFER - 1));
}

/* Move a byte each way between the UART and the rings by polling, for code that runs with
 * interrupts off (the LED writes): a few cycles when nothing waits. */
static inline __attribute__((always_inline)) void uart_service(void)
{
    uint8_t status = UCSR0A;
    if (status & _BV(RXC0))
        uart_receive();
    if ((status & _BV(UDRE0)) && (UCSR0B & _BV(UDRIE0)))
        uart_transmit();
}

#endif /* UART_H */

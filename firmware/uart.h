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

/* Free room in the transmit ring: uart_write() takes that many bytes. */
uint16_t uart_room(void);
void uart_write(const uint8_t *bytes, uint16_t n);
/* Bytes queued that the UART has not taken yet; forget them (the byte it is sending and the
 * one waiting in its buffer still go out). */
uint16_t uart_unsent(void);
void uart_drop_unsent(void);

/* Bytes lost because the receive ring was full. */
extern volatile uint16_t uart_overflows;

/* -- the rings, shared with the interrupt handlers and uart_batch ------------------------- */
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

/* The UART served by polling, for code that runs with interrupts off (the LED writes): the
 * rings' ends are kept in a uart_batch (registers) from begin to end, so a poll moves a byte
 * each way in a few cycles:
 *
 *     cli(); uart_batch b; uart_batch_begin(&b); ... uart_batch_poll(&b); ... uart_batch_end(&b); sei();
 */
typedef struct {
    ring_index rx_head, rx_room; /* where the next byte from the host goes; room for how many */
    ring_index tx_tail, tx_left; /* the next byte to send; how many wait */
} uart_batch;

static inline __attribute__((always_inline)) void uart_batch_begin(uart_batch *b)
{
    b->rx_head = uart_rx_head;
    b->rx_room = (ring_index)((uart_rx_tail - uart_rx_head - 1) & (RX_BUFFER - 1));
    b->tx_tail = uart_tx_tail;
    b->tx_left = (ring_index)((uart_tx_head - uart_tx_tail) & (TX_BUFFER - 1));
}

/* A byte from the host, or else one to it: one of the two keeps a poll short, and polls come
 * far oftener than bytes (an LED along the chains takes 30-40 us, a byte 87 us at 115200). */
static inline __attribute__((always_inline)) void uart_batch_poll(uart_batch *b)
{
    uint8_t status = UCSR0A;
    if (status & _BV(RXC0)) {
        uint8_t byte = UDR0;
        if (b->rx_room) {
            uart_rx_ring[b->rx_head] = byte;
            b->rx_head = (ring_index)((b->rx_head + 1) & (RX_BUFFER - 1));
            b->rx_room--;
        } else {
            uart_overflows++;
        }
    } else if ((status & _BV(UDRE0)) && b->tx_left) {
        UDR0 = uart_tx_ring[b->tx_tail];
        b->tx_tail = (ring_index)((b->tx_tail + 1) & (TX_BUFFER - 1));
        b->tx_left--;
    }
}

static inline __attribute__((always_inline)) void uart_batch_end(const uart_batch *b)
{
    uart_rx_head = b->rx_head;
    uart_tx_tail = b->tx_tail;
}

#endif /* UART_H */

/* uart.c: USART0 with receive and transmit rings (see uart.h). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <string.h>
#include <util/atomic.h>

#include "config.h"
#include "uart.h"


#if (RX_BUFFER & (RX_BUFFER - 1)) || (TX_BUFFER & (TX_BUFFER - 1))
# error "RX_BUFFER and TX_BUFFER must be powers of two"
#endif

volatile uint8_t uart_rx_ring[RX_BUFFER];
volatile ring_index uart_rx_head, uart_rx_tail; /* head: written by the interrupt */
volatile uint8_t uart_tx_ring[TX_BUFFER];
volatile ring_index uart_tx_head, uart_tx_tail; /* tail: advanced by the interrupt */
volatile uint16_t uart_overflows;

#define rx_ring uart_rx_ring
#define rx_head uart_rx_head
#define rx_tail uart_rx_tail
#define tx_ring uart_tx_ring
#define tx_head uart_tx_head
#define tx_tail uart_tx_tail

void uart_init(void)
{
    /* Double speed: 115200 baud is 2.1% off at 16 MHz this way, 3.5% the other. */
    uint16_t ubrr = (uint16_t)((F_CPU + 4UL * BAUD) / (8UL * BAUD) - 1);
    UCSR0A = _BV(U2X0); /* before the rate: simavr works the rate out when UBRR is written */
    UBRR0H = (uint8_t)(ubrr >> 8);
    UBRR0L = (uint8_t)ubrr;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART0_RX_vect)
{
    uart_receive();
}

ISR(USART0_UDRE_vect)
{
    uart_transmit();
}

static ring_index atomic_read(volatile ring_index *index)
{
    ring_index value;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        value = *index;
    }
    return value;
}

uint8_t uart_pending(void)
{
    return atomic_read(&rx_head) != rx_tail;
}

int16_t uart_get(void)
{
    if (!uart_pending())
        return -1;
    uint8_t byte = rx_ring[rx_tail];
    ring_index next = (ring_index)((rx_tail + 1) & (RX_BUFFER - 1));
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        rx_tail = next;
    }
    return byte;
}

uint16_t uart_room(void)
{
    return (uint16_t)((atomic_read(&tx_tail) - tx_head - 1) & (TX_BUFFER - 1));
}

void uart_write(const uint8_t *bytes, uint16_t n)
{
    ring_index head = tx_head, first = TX_BUFFER - head; /* head: only written here */
    if (first > n)
        first = n;
    /* the interrupt reads only up to tx_head: the bytes beyond are not shared yet */
    memcpy((uint8_t *)&tx_ring[head], bytes, first);
    memcpy((uint8_t *)tx_ring, bytes + first, n - first);
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        tx_head = (ring_index)((head + n) & (TX_BUFFER - 1));
        UCSR0B |= _BV(UDRIE0);
    }
}

uint16_t uart_unsent(void)
{
    return (uint16_t)((tx_head - atomic_read(&tx_tail)) & (TX_BUFFER - 1));
}

void uart_drop_unsent(void)
{
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        tx_head = tx_tail;
    }
}

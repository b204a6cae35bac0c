/*
 * pinmap.h: Arduino pin numbers to the chip's ports, for the Mega 2560 and the Uno/Nano.
 *
 * PINMAP[n] is the port letter and bit of Arduino pin n, packed as PINMAP_ENTRY(letter, bit);
 * PINMAP_PORT() and PINMAP_BIT() unpack it. Plain C, shared with the emulator harness.
 */
#ifndef PINMAP_H
#define PINMAP_H

#define PINMAP_ENTRY(letter, bit) ((unsigned char)((((letter) - 'A') << 3) | (bit)))
#define PINMAP_PORT(entry) ((char)('A' + ((entry) >> 3)))
#define PINMAP_BIT(entry) ((entry) & 7)

#define P_(letter, bit) PINMAP_ENTRY(letter, bit)

#if defined(BOARD_MEGA)
/* D0..D69: D54..D69 are A0..A15. */
# define PINMAP { \
    P_('E', 0), P_('E', 1), P_('E', 4), P_('E', 5), P_('G', 5), P_('E', 3), P_('H', 3),  \
    P_('H', 4), P_('H', 5), P_('H', 6), P_('B', 4), P_('B', 5), P_('B', 6), P_('B', 7),  \
    P_('J', 1), P_('J', 0), P_('H', 1), P_('H', 0), P_('D', 3), P_('D', 2), P_('D', 1),  \
    P_('D', 0), P_('A', 0), P_('A', 1), P_('A', 2), P_('A', 3), P_('A', 4), P_('A', 5),  \
    P_('A', 6), P_('A', 7), P_('C', 7), P_('C', 6), P_('C', 5), P_('C', 4), P_('C', 3),  \
    P_('C', 2), P_('C', 1), P_('C', 0), P_('D', 7), P_('G', 2), P_('G', 1), P_('G', 0),  \
    P_('L', 7), P_('L', 6), P_('L', 5), P_('L', 4), P_('L', 3), P_('L', 2), P_('L', 1),  \
    P_('L', 0), P_('B', 3), P_('B', 2), P_('B', 1), P_('B', 0),                          \
    P_('F', 0), P_('F', 1), P_('F', 2), P_('F', 3), P_('F', 4), P_('F', 5), P_('F', 6),  \
    P_('F', 7), P_('K', 0), P_('K', 1), P_('K', 2), P_('K', 3), P_('K', 4), P_('K', 5),  \
    P_('K', 6), P_('K', 7) }
# define PINMAP_SIZE 70
# define PIN_SCK 52
# define PIN_MISO 50
# define PIN_MOSI 51
#elif defined(BOARD_UNO)
/* D0..D19: D14..D19 are A0..A5 (a Nano's A6 and A7 are analog inputs only). */
# define PINMAP { \
    P_('D', 0), P_('D', 1), P_('D', 2), P_('D', 3), P_('D', 4), P_('D', 5), P_('D', 6),  \
    P_('D', 7), P_('B', 0), P_('B', 1), P_('B', 2), P_('B', 3), P_('B', 4), P_('B', 5),  \
    P_('C', 0), P_('C', 1), P_('C', 2), P_('C', 3), P_('C', 4), P_('C', 5) }
# define PINMAP_SIZE 20
# define PIN_SCK 13
# define PIN_MISO 12
# define PIN_MOSI 11
#endif

/* The UART to the host: never a switch or LED pin. */
#define PIN_RX 0
#define PIN_TX 1

#endif /* PINMAP_H */

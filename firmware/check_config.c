/*
 * check_config.c: run on the build machine before the firmware is compiled; stops the
 * build with a message naming the setting when config.h's pins or sizes cannot work.
 */
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "pinmap.h"

static int failures;

static void fail(const char *message, int value)
{
    fprintf(stderr, "config.h: %s (%d)\n", message, value);
    failures++;
}

static const char *owner[PINMAP_SIZE];

/* Claim pin `number` for `what`; complain if it does not exist or is taken. */
static void claim(int number, const char *what)
{
    if (number < 0 || number >= PINMAP_SIZE) {
        fprintf(stderr, "config.h: %s: there is no pin %d on this board (0..%d)\n", what,
                number, PINMAP_SIZE - 1);
        failures++;
    } else if (owner[number]) {
        fprintf(stderr, "config.h: %s: pin %d is also used by %s\n", what, number, owner[number]);
        failures++;
    } else {
        owner[number] = what;
    }
}

/* The LED chains: pins of one port, at most 8, enough LEDs along them for LED_COUNT. */
static void check_leds(void)
{
    static const unsigned char pinmap[PINMAP_SIZE] = PINMAP;
    const int pins[] = { LED_PINS };
    for (size_t c = 0; c < LED_CHAINS; c++) {
        claim(pins[c], "LED_PINS");
        if (pins[c] >= 0 && pins[c] < PINMAP_SIZE && pins[0] >= 0 && pins[0] < PINMAP_SIZE &&
            PINMAP_PORT(pinmap[pins[c]]) != PINMAP_PORT(pinmap[pins[0]]))
            fprintf(stderr, "config.h: LED_PINS: pin %d is on port %c, pin %d on port %c: the chains "
                    "must share one port\n", pins[c], PINMAP_PORT(pinmap[pins[c]]), pins[0],
                    PINMAP_PORT(pinmap[pins[0]])), failures++;
    }
    if (LED_CHAINS > 8)
        fail("LED_PINS: at most 8 chains", (int)LED_CHAINS);
    if (LED_PER_CHAIN < 1 || LED_PER_CHAIN * LED_CHAINS < LED_COUNT)
        fail("LED_PER_CHAIN: the chains must hold LED_COUNT LEDs", LED_PER_CHAIN);
}

int main(void)
{
    claim(PIN_RX, "the UART to the host (RX)");
    claim(PIN_TX, "the UART to the host (TX)");
    check_leds();
#ifdef TRACE_PIN
    claim(TRACE_PIN, "TRACE_PIN");
#endif
#if SCANNER == SCANNER_MATRIX
    const int rows[] = { ROW_PINS }, columns[] = { COLUMN_PINS };
    for (size_t i = 0; i < ROWS; i++)
        claim(rows[i], "ROW_PINS");
    for (size_t i = 0; i < COLUMNS; i++)
        claim(columns[i], "COLUMN_PINS");
    if (COLUMNS > 32)
        fail("COLUMN_PINS: at most 32 columns", (int)COLUMNS);
    if (ROWS > 64)
        fail("ROW_PINS: at most 64 rows", (int)ROWS);
#else
    claim(SR_LATCH_PIN, "SR_LATCH_PIN");
    claim(SR_SELECT_PIN, "the SPI's SS pin (CLK INH)");
    claim(PIN_SCK, "the SPI's SCK pin");
    claim(PIN_MISO, "the SPI's MISO pin");
    claim(PIN_MOSI, "the SPI's MOSI pin");
    if (SR_REGISTERS < 1 || SR_REGISTERS > 2048)
        fail("SR_REGISTERS must be 1..2048", SR_REGISTERS);
#endif
    if (CHANNELS > 16384)
        fail("at most 16384 channels", (int)CHANNELS);
    if (LED_COUNT < 1 || LED_COUNT > 16384)
        fail("LED_COUNT must be 1..16384", LED_COUNT);
    /* Between LEDs (30-40 us) the UART is polled for a byte: at most one byte a poll. */
    if (BAUD > 250000)
        fail("BAUD: at most 250000 (faster, bytes from the host are lost while the LEDs are written)",
             (int)BAUD);
    /* While the chains are written (ws2812.c: about 32 us an LED along them, 38 with 8
     * chains) the host's bytes wait in RX_BUFFER. */
    long write_us = (long)LED_PER_CHAIN * (LED_CHAINS > 6 ? 38L : 32L);
    long waiting = write_us * (long)(BAUD / 10) / 1000000L + 16;
    if (RX_BUFFER < waiting)
        fail("RX_BUFFER too small for the bytes that arrive while the LEDs are written",
             (int)waiting);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

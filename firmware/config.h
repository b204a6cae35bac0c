/*
 * config.h: the one place where a board's wiring and sizes are set (docs/firmware.md).
 *
 * Edit the section of your board (the Makefile's BOARD=mega or BOARD=uno; a Nano is an Uno),
 * or override any value on the command line: make BOARD=uno DEFS='-DLED_COUNT=61'.
 * Pins are Arduino pin numbers as printed on the board (A0 = 54 on a Mega, 14 on an Uno).
 *
 * Every value is checked when building: a pin used twice, a matrix too large, buffers too
 * small for the LED chain stop the build with a message naming the setting.
 *
 * This header is also read by the emulator harness (sim/), so it must stay plain C with no
 * AVR headers.
 */
#ifndef CONFIG_H
#define CONFIG_H

/* ---- Scanners -------------------------------------------------------------------------- */
#define SCANNER_MATRIX 1  /* rows driven low one at a time, columns read through pull-ups */
#define SCANNER_165 2     /* a chain of 74HC165 shift registers read over SPI */

#if defined(BOARD_MEGA)
/* ---- Arduino Mega 2560 (ATmega2560, 8 KiB RAM): large boards ------------------------ */
# ifndef SCANNER
#  define SCANNER SCANNER_MATRIX
# endif
/* Default: 16 rows x 18 columns = 288 switches (Antipalos on its 12x12 board). */
# ifndef ROW_PINS
#  define ROW_PINS 22, 23, 24, 25, 26, 27, 28, 29, 37, 36, 35, 34, 33, 32, 31, 30
# endif
# ifndef COLUMN_PINS
#  define COLUMN_PINS 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 42, 43
# endif
/* 74HC165 chain: SPI's SCK (52) to CLK, MISO (50) to QH of register 0; SS (53) to CLK INH. */
# ifndef SR_REGISTERS
#  define SR_REGISTERS 36
# endif
# ifndef SR_LATCH_PIN
#  define SR_LATCH_PIN 49 /* to every SH/LD */
# endif
# define SR_SELECT_PIN 53 /* SPI's SS: must be an output for the SPI master anyway */
# ifndef LED_PINS
#  define LED_PINS 6, 7, 8, 9 /* four chains on port H: 288 LEDs written in 2.4 ms */
# endif
# ifndef LED_COUNT
#  define LED_COUNT 288
# endif
# ifndef RX_BUFFER
#  define RX_BUFFER 1024 /* bytes from the host that wait while the LEDs are written */
# endif
# ifndef TX_BUFFER
#  define TX_BUFFER 512
# endif

#elif defined(BOARD_UNO)
/* ---- Arduino Uno / Nano (ATmega328P, 2 KiB RAM): small boards ----------------------- */
# ifndef SCANNER
#  define SCANNER SCANNER_MATRIX
# endif
/* Default: 8 x 8 = 64 switches. D13 (the on-board LED) is left free: it loads the line. */
# ifndef ROW_PINS
#  define ROW_PINS 2, 3, 4, 5, 7, 8, 9, 10
# endif
# ifndef COLUMN_PINS
#  define COLUMN_PINS 11, 12, 14, 15, 16, 17, 18, 19
# endif
# ifndef SR_REGISTERS
#  define SR_REGISTERS 8
# endif
# ifndef SR_LATCH_PIN
#  define SR_LATCH_PIN 9
# endif
# define SR_SELECT_PIN 10 /* SPI's SS; SCK is 13, MISO 12 */
# ifndef LED_COUNT
#  define LED_COUNT 64
# endif
# ifndef RX_BUFFER
#  define RX_BUFFER 128
# endif
# ifndef TX_BUFFER
#  define TX_BUFFER 128
# endif

#else
# error "set BOARD_MEGA or BOARD_UNO (make BOARD=mega or make BOARD=uno)"
#endif

/* ---- Settings common to both boards ----------------------------------------------------- */
#ifndef F_CPU
# define F_CPU 16000000UL /* the WS2812 timing is written for 16 MHz */
#endif
#ifndef BAUD
# define BAUD 115200UL /* the host's [sensors] baudrate must match (USB CDC ignores it) */
#endif

/* Matrix: true when each switch has a diode (column to row). Without diodes a reading
 * where two rows share two closed columns is ambiguous; those switches keep their last
 * sure state (docs/firmware.md). */
#ifndef MATRIX_DIODES
# define MATRIX_DIODES 1
#endif
#ifndef MATRIX_SETTLE_US
# define MATRIX_SETTLE_US 4 /* wait after driving a row low before reading the columns */
#endif

/* 74HC165 chain. Channel = 8 x register + input (A = 0 .. H = 7), register 0 nearest. */
#ifndef SR_ACTIVE_LOW
# define SR_ACTIVE_LOW 1 /* a closed switch reads 0 (switches to GND, pull-ups) */
#endif
#ifndef SR_POLARITY_PAIRS
/* 1: every site has two sensors, input 2k closed when the north face is up, 2k+1 when the
 * south face is up (two hall switches); the board then reports polarity and has half as
 * many channels as inputs. */
# define SR_POLARITY_PAIRS 0
#endif
#ifndef SR_SPI_DIVIDER
# define SR_SPI_DIVIDER 4 /* SPI clock = F_CPU / this: 2, 4, 8, 16, 32, 64 or 128 */
#endif

/* LEDs: WS2812 (GRB, 800 kHz) chains, up to 8 on pins of one port, all written at once (one
 * port write a bit for every chain). LED channel n is LED n % LED_PER_CHAIN of chain
 * n / LED_PER_CHAIN, chain c on the c-th pin listed; the last chain may be shorter (its
 * missing LEDs are sent dark, past its end). One pin: one chain. */
#ifndef LED_PINS
# define LED_PINS 6
#endif
#ifndef LED_MAX_CURRENT_MA
# define LED_MAX_CURRENT_MA 2000 /* the whole frame is dimmed to stay under this */
#endif
#ifndef LED_MA_PER_CHANNEL
# define LED_MA_PER_CHANNEL 20 /* per fully lit colour channel (60 mA for a white LED) */
#endif
#ifndef LED_PULSE_FRAME_MS
# define LED_PULSE_FRAME_MS 40 /* redraw period while something pulses (25 per second) */
#endif

/* Timing. */
#ifndef SCAN_DURING_WRITES
/* 1: the switches are read between the LEDs of a chain write, so a change goes out
 * during the write; the pauses between LEDs grow to 35 us at most (the WS2812B's latch is
 * 50 us). 0: the pauses stay under 5 us, and a change that comes during a write waits for it. */
# define SCAN_DURING_WRITES 1
#endif

#ifndef SCAN_PERIOD_MS
# define SCAN_PERIOD_MS 1
#endif
#ifndef DEBOUNCE_SCANS
# define DEBOUNCE_SCANS 3 /* 1..3: a switch must read the same this many scans in a row */
#endif
#ifndef HEARTBEAT_MS
# define HEARTBEAT_MS 1000 /* a STATE frame this often (the host expects one a second) */
#endif
#ifndef WATCHDOG_MS
# define WATCHDOG_MS 500 /* 250, 500, 1000 or 2000: a hung firmware restarts after this */
#endif

/* ---- Derived sizes (do not edit) ------------------------------------------------------- */
#define PIN_COUNT(...) (sizeof((const unsigned char[]){__VA_ARGS__}))
#if SCANNER == SCANNER_MATRIX
# define ROWS PIN_COUNT(ROW_PINS)
# define COLUMNS PIN_COUNT(COLUMN_PINS)
# define INPUTS (ROWS * COLUMNS)
# define CHANNELS INPUTS
# define SENSES_POLARITY 0
#elif SCANNER == SCANNER_165
# define INPUTS (8 * SR_REGISTERS)
# define SENSES_POLARITY SR_POLARITY_PAIRS
# define CHANNELS (SENSES_POLARITY ? INPUTS / 2 : INPUTS)
#else
# error "SCANNER must be SCANNER_MATRIX or SCANNER_165"
#endif
#define INPUT_BYTES ((INPUTS + 7) / 8)
#define LED_CHAINS PIN_COUNT(LED_PINS)
#ifndef LED_PER_CHAIN
# define LED_PER_CHAIN ((LED_COUNT + LED_CHAINS - 1) / LED_CHAINS)
#endif
#define MASK_BYTES ((CHANNELS + 7) / 8)

#endif /* CONFIG_H */

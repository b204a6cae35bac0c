/*
 * main.c: the board's main loop.
 *
 * Every SCAN_PERIOD_MS the switches are scanned and debounced; changes go to the host at
 * once, the full state every HEARTBEAT_MS; frames from the host are decoded as they come;
 * the LEDs are redrawn when their picture changes. In between the CPU sleeps until the
 * next interrupt (the 1 ms tick or a byte from the host). A watchdog restarts a firmware
 * that stops going round the loop; after any reset the board announces itself (INFO, then
 * STATE), so a host that opened the port while the board was starting still hears it.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "clock.h"
#include "config.h"
#include "leds.h"
#include "pins.h"
#include "protocol.h"
#include "sensors.h"
#include "uart.h"

#if WATCHDOG_MS == 250
# define WATCHDOG WDTO_250MS
#elif WATCHDOG_MS == 500
# define WATCHDOG WDTO_500MS
#elif WATCHDOG_MS == 1000
# define WATCHDOG WDTO_1S
#elif WATCHDOG_MS == 2000
# define WATCHDOG WDTO_2S
#else
# error "WATCHDOG_MS must be 250, 500, 1000 or 2000"
#endif

/* How long the heartbeat and an LED redraw wait for a switch that is changing, at most. */
#define BEAT_HOLD_MS 100
#define LED_HOLD_MS (DEBOUNCE_SCANS * SCAN_PERIOD_MS + 2)

/* Straight after reset, before anything else: a watchdog reset leaves the watchdog running
 * (at its shortest period), which would reset the board again while it starts. */
uint8_t reset_cause __attribute__((section(".noinit")));
void early_reset(void) __attribute__((naked, used, section(".init3")));
void early_reset(void)
{
    reset_cause = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

#ifdef TRACE_PIN
/* TRACE_PIN (make DEFS=-DTRACE_PIN=13) is high while a scan runs: for a scope, and for the
 * emulator's figures (bench/firmware.py). */
static io_pin trace;
# define TRACE(high) (high ? (IO_PORT(trace) |= trace.mask) : (IO_PORT(trace) &= (uint8_t)~trace.mask))
#else
# define TRACE(high) ((void)0)
#endif

/* A scan when SCAN_PERIOD_MS have passed since the last (at `*scanned`). */
static void scan_if_due(uint32_t *scanned)
{
    uint32_t now = clock_ms();
    if (now - *scanned < SCAN_PERIOD_MS)
        return;
    *scanned = now;
    TRACE(1);
    sensors_scan();
    TRACE(0);
}

/* Sleep until the next interrupt unless bytes from the host already wait or `busy`. */
static void idle(uint8_t busy)
{
    cli();
    if (!busy && !uart_pending()) {
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
    }
    sei();
}

int main(void)
{
    clock_init();
    uart_init();
    sensors_init();
    leds_init();
#ifdef TRACE_PIN
    trace = pin_lookup(TRACE_PIN);
    pin_output(trace, 0);
#endif
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    wdt_enable(WATCHDOG);
    proto_want_info();

    uint32_t scanned = clock_ms(), beat = scanned, leds_waiting = scanned;
    for (;;) {
        wdt_reset();
        proto_receive();
        uint32_t now = clock_ms();
        scan_if_due(&scanned);
        /* A picture is rendered a part a loop, so scans keep their pace; the chains are not
         * written while a switch is changing (for at most LED_HOLD_MS): its change goes out
         * first. The write reads the switches between LEDs, and what it read is debounced
         * straight after, so a change that came during the write goes out at once. */
        uint8_t due = leds_due(now), ready = due && leds_render(now);
        if (ready)
            scan_if_due(&scanned); /* the rendering took a while: a fresh reading first */
        if (!ready) {
            leds_waiting = now; /* a hold begins once the picture is ready */
        } else if (!sensors_settling() || now - leds_waiting >= LED_HOLD_MS) {
            leds_write();
            sensors_after_write();
        }
        if (now - beat >= HEARTBEAT_MS)
            proto_want_beat(now - beat >= HEARTBEAT_MS + BEAT_HOLD_MS);
        if (proto_transmit())
            beat = now;
        /* more to render, or a long scan or write: go on at once */
        idle((due && !ready) || clock_ms() - scanned >= SCAN_PERIOD_MS);
    }
}

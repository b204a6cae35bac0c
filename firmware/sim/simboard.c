/*
 * simboard.c: the firmware in simavr as a board on a pty, run in step with the wall clock.
 *
 *   simboard FIRMWARE.elf --link PATH [--speed X] [--trace]
 *
 * PATH becomes a symlink to the board's pty (as a udev /dev/serial/by-id name would be).
 * --speed: emulated seconds per wall second (1 by default; 0: as fast as the host can).
 * --trace: also report timing events (tx, rx, mark, applied).
 *
 * Commands, one a line on stdin:
 *   place CH [north|south]   close switch CH (with polarity: the face up, north by default)
 *   lift CH                  open it
 *   flip CH                  turn the token on CH over
 *   bounce CH N US           toggle switch CH N times, US microseconds apart (contact bounce)
 *   send HEX                 bytes on the line to the firmware, as if the host wrote them
 *   garbage HEX              bytes on the line to the host, as if from noise
 *   lose N                   the board's next N frames are lost on the line
 *   lose_host N              the host's next N frames are lost on the line
 *   unplug / plug            pull the USB cable (board off, pty gone) / put it back (reset)
 *   hang                     make the firmware stop in a loop with interrupts off (the
 *                            watchdog must restart it)
 *   counts                   report the firmware's counts of dropped frames
 *   time                     report the emulated time: "time CYCLE"
 *   at CYCLE COMMAND         run COMMAND when the emulated time reaches CYCLE (at once if
 *                            it has): changes at an exact moment, for the figures
 *   quit
 *
 * Events on stdout, a line each: "ready PTY LEDS CHAINS PER_CHAIN" (the LED chains: LED
 * channel n is LED n % PER_CHAIN of chain n / PER_CHAIN), "leds ..." (ws2812.c), "reset CYCLE CAUSE", "overrun",
 * "short", "dropped", "counts ...", "error TEXT"; with --trace also "tx CYCLE HEX" (a frame
 * to the host has left the line), "rx CYCLE" (a 00 from the host has arrived), "applied
 * CYCLE CH" (a switch changed), "mark RISE FALL" (TRACE_PIN high then low).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../config.h"
#include "avr_extint.h"
#include "sim.h"
#include "sim_cycle_timers.h"
#include "sim_elf.h"

avr_t *avr;
int tracing;

static double speed = 1.0;
static int powered = 1;
static char *link_path;

/* The hang: two instructions written over the firmware at the PC, put back after reset. */
static struct {
    int active;
    avr_flashaddr_t at;
    uint8_t saved[4];
} hang;

void event(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

static double wall(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec / 1e9;
}

/* The sleep simavr asks for while the firmware sleeps: the main loop paces instead. */
static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long;
}

static int hex_bytes(const char *hex, uint8_t *out, int room)
{
    int n = 0;
    unsigned value;
    while (n < room && sscanf(hex + 2 * n, "%2x", &value) == 1)
        out[n++] = (uint8_t)value;
    return n;
}

static void set_switch(int channel, int value)
{
    if (switches_set(channel, value) < 0)
        event("error no channel %d (the board has %d)", channel, switches_channels());
    else if (tracing)
        event("applied %llu %d", (unsigned long long)avr->cycle, channel);
}

/* Contact bounce: a switch toggled a number of times at a steady pace. */
typedef struct {
    int channel, left;
    avr_cycle_count_t every;
} bouncing;

static avr_cycle_count_t bounce_step(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    bouncing *b = param;
    set_switch(b->channel, !switches_get(b->channel));
    if (--b->left > 0)
        return when + b->every;
    free(b);
    return 0;
}

static void bounce(int channel, int times, int microseconds)
{
    if (channel < 0 || channel >= switches_channels() || times < 1 || microseconds < 1) {
        event("error bounce: no channel %d, or not a count and a time", channel);
        return;
    }
    bouncing *b = malloc(sizeof *b);
    b->channel = channel;
    b->left = times;
    b->every = (avr_cycle_count_t)microseconds * (F_CPU / 1000000);
    avr_cycle_timer_register(avr, 1, bounce_step, b);
}

#ifdef TRACE_PIN
static avr_cycle_count_t mark_rose;
static void mark_changed(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value & 1)
        mark_rose = avr->cycle;
    else if (mark_rose && tracing)
        event("mark %llu %llu", (unsigned long long)mark_rose, (unsigned long long)avr->cycle);
}
#endif

static void power_on(void)
{
    avr_reset(avr);
    powered = 1;
    if (link_open() < 0) {
        event("error cannot make the pty at %s: %s", link_path, strerror(errno));
        exit(1);
    }
}

static void start_hang(void)
{
    static const uint8_t loop[4] = { 0xF8, 0x94, 0xFF, 0xCF }; /* cli; rjmp .-2 (to itself) */
    hang.at = avr->pc;
    memcpy(hang.saved, avr->flash + hang.at, 4);
    memcpy(avr->flash + hang.at, loop, 4);
    hang.active = 1;
}

/* After a reset the PC leaves the loop: put the firmware back as it was. */
static void check_hang(void)
{
    if (hang.active && (avr->pc < hang.at || avr->pc >= hang.at + 4)) {
        memcpy(avr->flash + hang.at, hang.saved, 4);
        hang.active = 0;
        event("reset %llu watchdog", (unsigned long long)avr->cycle);
    }
}

/* Where the firmware keeps proto_dropped (protocol.h) in its RAM; 0 if unknown. */
static uint32_t counts_at;

static void counts(void)
{
    /* frames, bad_cobs, short, bad_crc, oversized, unknown_kind, malformed: uint16 each */
    if (!counts_at) {
        event("error the firmware has no proto_dropped symbol");
        return;
    }
    const uint8_t *p = avr->data + counts_at;
    event("counts frames=%d bad_cobs=%d short=%d bad_crc=%d oversized=%d unknown_kind=%d "
          "malformed=%d", p[0] | p[1] << 8, p[2] | p[3] << 8, p[4] | p[5] << 8, p[6] | p[7] << 8,
          p[8] | p[9] << 8, p[10] | p[11] << 8, p[12] | p[13] << 8);
}

static uint32_t counts_address(elf_firmware_t *firmware)
{
    for (uint32_t i = 0; i < firmware->symbolcount; i++)
        if (!strcmp(firmware->symbol[i]->symbol, "proto_dropped"))
            return firmware->symbol[i]->addr & 0xFFFF; /* data space is at 0x800000 */
    return 0;
}

static int command(char *line);

/* A command waiting for its cycle ("at"). */
static avr_cycle_count_t run_later(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)when;
    command(param);
    free(param);
    return 0;
}

static void later(avr_cycle_count_t cycle, const char *line)
{
    char *copy = strdup(line);
    avr_cycle_timer_register(avr, cycle > avr->cycle ? cycle - avr->cycle : 1, run_later, copy);
}

static int command(char *line)
{
    char word[16] = "", arg[8] = "";
    int channel = -1, times = 0, pace = 0, skip = 0;
    unsigned long long at = 0;
    static uint8_t bytes[65536];
    if (sscanf(line, "%15s", word) != 1)
        return 1;
    const char *rest = line + strlen(word);
    while (*rest == ' ')
        rest++;
    if (!strcmp(word, "place") && sscanf(rest, "%d %7s", &channel, arg) >= 1) {
        set_switch(channel, strcmp(arg, "south") ? 1 : 2);
    } else if (!strcmp(word, "lift") && sscanf(rest, "%d", &channel) == 1) {
        set_switch(channel, 0);
    } else if (!strcmp(word, "flip") && sscanf(rest, "%d", &channel) == 1) {
        int now = channel >= 0 && channel < switches_channels() ? switches_get(channel) : 0;
        set_switch(channel, now == 1 ? 2 : now == 2 ? 1 : 0);
    } else if (!strcmp(word, "bounce") && sscanf(rest, "%d %d %d", &channel, &times, &pace) == 3) {
        bounce(channel, times, pace);
    } else if (!strcmp(word, "send")) {
        link_send(bytes, hex_bytes(rest, bytes, sizeof bytes));
    } else if (!strcmp(word, "garbage")) {
        link_garbage(bytes, hex_bytes(rest, bytes, sizeof bytes));
    } else if (!strcmp(word, "lose") && sscanf(rest, "%d", &channel) == 1) {
        link_lose(channel);
    } else if (!strcmp(word, "lose_host") && sscanf(rest, "%d", &channel) == 1) {
        link_lose_from_host(channel);
    } else if (!strcmp(word, "unplug")) {
        link_close();
        powered = 0;
    } else if (!strcmp(word, "plug")) {
        if (!powered)
            power_on();
    } else if (!strcmp(word, "hang")) {
        start_hang();
    } else if (!strcmp(word, "counts")) {
        counts();
    } else if (!strcmp(word, "at") && sscanf(rest, "%llu %n", &at, &skip) == 1 && rest[skip]) {
        later(at, rest + skip);
    } else if (!strcmp(word, "time")) {
        event("time %llu", (unsigned long long)avr->cycle);
    } else if (!strcmp(word, "quit")) {
        return 0;
    } else {
        event("error unknown command: %s", line);
    }
    return 1;
}

/* Read and run the commands waiting on stdin; 0 once told to quit (or stdin closed). */
static int commands(void)
{
    static char buffer[1 << 18];
    static size_t used;
    ssize_t n = read(0, buffer + used, sizeof buffer - 1 - used);
    if (n == 0)
        return 0;
    if (n < 0)
        return errno == EAGAIN || errno == EINTR;
    used += (size_t)n;
    buffer[used] = 0;
    char *line = buffer, *end;
    while ((end = strchr(line, '\n'))) {
        *end = 0;
        if (!command(line))
            return 0;
        line = end + 1;
    }
    used = strlen(line);
    memmove(buffer, line, used);
    return 1;
}

/* Wait for stdin or the pty for up to `seconds`; whether stdin has something. */
static int wait_input(double seconds)
{
    struct pollfd fds[2] = { { 0, POLLIN, 0 }, { link_fd(), POLLIN, 0 } };
    int n = poll(fds, link_fd() >= 0 ? 2 : 1, seconds > 0 ? (int)(seconds * 1000) : 0);
    return n > 0 && (fds[0].revents & (POLLIN | POLLHUP));
}

/* simavr polls a low INTn pin every cycle while it is set to the low-level trigger (the
 * default after each reset), even with the interrupt off: a matrix row on INT0 would slow the
 * emulation twentyfold. The firmware uses no external interrupt. */
static avr_extint_t *extint;

static void no_level_polling(void)
{
    if (extint)
        for (int i = 0; i < EXTINT_COUNT; i++)
            extint->eint[i].strict_lvl_trig = 0;
}

/* Run the firmware for one slice of emulated time; 0 when it stopped for good. */
static int run_slice(avr_cycle_count_t cycles)
{
    no_level_polling();
    avr_cycle_count_t end = avr->cycle + cycles;
    while (avr->cycle < end) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            event("error the firmware stopped (state %d) at pc 0x%x", state, avr->pc);
            return 0;
        }
    }
    check_hang();
    leds_poll();
    return 1;
}

static void usage(void)
{
    fprintf(stderr, "usage: simboard FIRMWARE.elf --link PATH [--speed X] [--trace]\n");
    exit(2);
}

/* simavr's messages go to stderr, errors only: stdout carries the events. */
static void log_to_stderr(avr_t *a, const int level, const char *format, va_list args)
{
    if (level <= LOG_ERROR && (!a || level <= a->log))
        vfprintf(stderr, format, args);
}

static void load(const char *elf)
{
    avr_global_logger_set(log_to_stderr);
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(elf, &firmware) != 0) {
        fprintf(stderr, "simboard: cannot read %s\n", elf);
        exit(1);
    }
    avr = avr_make_mcu_by_name(SIM_MCU);
    if (!avr) {
        fprintf(stderr, "simboard: simavr does not know the %s\n", SIM_MCU);
        exit(1);
    }
    avr_init(avr);
    avr->log = LOG_ERROR;
    firmware.frequency = F_CPU;
    avr_load_firmware(avr, &firmware);
    counts_at = counts_address(&firmware);
}

int main(int argc, char **argv)
{
    const char *elf = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link_path = argv[++i];
        else if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--trace"))
            tracing = 1;
        else if (argv[i][0] == '-' || elf)
            usage();
        else
            elf = argv[i];
    }
    if (!elf || !link_path)
        usage();
    load(elf);
    avr->sleep = no_sleep;
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "extint"))
            extint = (avr_extint_t *)io;
    link_init(link_path);
    switches_init();
    leds_init();
#ifdef TRACE_PIN
    uint8_t mask;
    avr_ioport_t *port = pin_port(TRACE_PIN, &mask);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port->name),
                                          __builtin_ctz(mask)), mark_changed, NULL);
#endif
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    power_on();
    event("ready %s %d %d %d", link_path, (int)LED_COUNT, (int)LED_CHAINS, (int)LED_PER_CHAIN);

    /* Slices of 100 us of emulated time; between them the pty and stdin are served, and
     * the emulation waits while it is ahead of the wall clock (times the speed). */
    const avr_cycle_count_t slice = F_CPU / 10000;
    double began = wall();
    avr_cycle_count_t base = avr->cycle;
    for (;;) {
        if (!powered) { /* the cable is out: nothing runs, only commands */
            if (wait_input(0.05) && !commands())
                break;
            began = wall();
            base = avr->cycle;
            continue;
        }
        if (!run_slice(slice))
            return 1;
        link_poll();
        double ahead = speed > 0 ? (double)(avr->cycle - base) / F_CPU / speed - (wall() - began) : 0;
        if (wait_input(ahead > 0.001 ? ahead : 0) && !commands())
            break;
        if (ahead < -0.25) { /* far behind (a loaded machine): do not try to catch up */
            began = wall();
            base = avr->cycle;
        }
    }
    link_close();
    return 0;
}

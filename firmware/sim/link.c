/*
 * link.c: the board's USB-serial bridge, as a pty. The host opens the pty's name (a symlink
 * at the path given, like a /dev/serial/by-id name); what it writes reaches the firmware's
 * UART at the baud rate the firmware set, and what the firmware sends goes to the host.
 *
 * Fidelity: simavr's UART buffers 64 bytes, where the chip holds two; a byte that arrives
 * while two wait unread would be lost on a real chip (an overrun), so here it is dropped
 * too and reported ("overrun"). Frames to the host are written whole once their closing
 * 00 is sent (the host reads whole frames anyway), so `lose` can drop whole frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "avr_uart.h"
#include "sim.h"
#include "sim_cycle_timers.h"

#define QUEUE 65536

static const char *path;
static int master = -1, slave = -1;
static avr_uart_t *uart;
static avr_irq_t *to_firmware;

static uint8_t queue[QUEUE]; /* bytes from the host not yet on the line */
static int queued, sent;
static int feeding;

static uint8_t packet[4096]; /* the frame being sent to the host, up to its closing 00 */
static int packet_length;
static int frames_to_lose;
static int host_frames_to_lose, losing_host_frame;

/* -- host to firmware ------------------------------------------------------------------- */

static avr_cycle_count_t feed(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)param;
    if (sent == queued) {
        feeding = 0;
        return 0;
    }
    uint8_t byte = queue[sent++];
    if (sent == queued)
        sent = queued = 0;
    if (((uart->input.write - uart->input.read) & (uart_fifo_fifo_size - 1)) >= 2)
        event("overrun %llu", (unsigned long long)a->cycle);
    else
        avr_raise_irq(to_firmware, byte);
    if (tracing && byte == 0) /* received in full one byte time from now */
        event("rx %llu", (unsigned long long)(a->cycle + uart->cycles_per_byte));
    return when + uart->cycles_per_byte;
}

/* Start putting queued bytes on the line, unless that is under way. A reset clears simavr's
 * timers, and the line waits for the firmware to set its baud rate. */
static void kick(void)
{
    if (feeding && !avr_cycle_timer_status(avr, feed, NULL))
        feeding = 0;
    if (!feeding && queued > sent && uart->cycles_per_byte) {
        feeding = 1;
        avr_cycle_timer_register(avr, uart->cycles_per_byte, feed, NULL);
    }
}

/* Leave out the bytes of host frames being lost on the line (their delimiters stay). */
static int lose_host_frames(uint8_t *data, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (data[i] && (losing_host_frame || host_frames_to_lose)) {
            losing_host_frame = 1;
            continue;
        }
        if (!data[i] && losing_host_frame) {
            losing_host_frame = 0;
            host_frames_to_lose--;
        }
        data[kept++] = data[i];
    }
    return kept;
}

void link_send(const uint8_t *data, int n)
{
    if (queued + n > QUEUE) { /* the host wrote more than a line could ever carry */
        memmove(queue, queue + sent, (size_t)(queued - sent));
        queued -= sent;
        sent = 0;
        if (queued + n > QUEUE)
            n = QUEUE - queued;
    }
    memcpy(queue + queued, data, (size_t)n);
    queued += n;
    kick();
}

void link_poll(void)
{
    if (master < 0) {
        kick();
        return;
    }
    uint8_t data[4096];
    ssize_t n;
    while ((n = read(master, data, sizeof data)) > 0)
        link_send(data, lose_host_frames(data, (int)n));
    kick();
}

/* -- firmware to host ------------------------------------------------------------------- */

static void to_host(const uint8_t *data, int n)
{
    if (master < 0)
        return;
    if (write(master, data, (size_t)n) != n)
        event("dropped %llu %d", (unsigned long long)avr->cycle, n); /* the host is not reading */
}

static void from_firmware(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t byte = (uint8_t)value;
    if (byte != 0) {
        if (packet_length < (int)sizeof packet)
            packet[packet_length++] = byte;
        return;
    }
    if (packet_length) {
        if (frames_to_lose) {
            frames_to_lose--;
        } else {
            to_host(packet, packet_length);
            if (tracing) {
                char hex[2 * sizeof packet + 1];
                for (int i = 0; i < packet_length; i++)
                    sprintf(hex + 2 * i, "%02x", packet[i]);
                /* the delimiter has left the line one byte time after the firmware wrote it */
                event("tx %llu %s", (unsigned long long)(avr->cycle + uart->cycles_per_byte), hex);
            }
        }
        packet_length = 0;
    }
    to_host(&byte, 1);
}

void link_garbage(const uint8_t *data, int n)
{
    to_host(data, n);
}

void link_lose(int frames)
{
    frames_to_lose += frames;
}

void link_lose_from_host(int frames)
{
    host_frames_to_lose += frames;
}

/* -- the pty ---------------------------------------------------------------------------- */

void link_init(const char *link_path)
{
    path = link_path;
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "uart") && ((avr_uart_t *)io)->name == '0')
            uart = (avr_uart_t *)io;
    uint32_t flags = 0; /* no console echo, no sleeping while the firmware polls */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    to_firmware = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            from_firmware, NULL);
}

int link_open(void)
{
    struct termios raw;
    if (openpty(&master, &slave, NULL, NULL, NULL) < 0)
        return -1;
    tcgetattr(slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(slave, TCSANOW, &raw);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unlink(tmp);
    if (symlink(ttyname(slave), tmp) < 0 || rename(tmp, path) < 0)
        return -1;
    queued = sent = packet_length = 0;
    return 0;
}

void link_close(void)
{
    if (master < 0)
        return;
    unlink(path);
    close(master);
    close(slave);
    master = slave = -1;
    queued = sent = packet_length = 0;
}

int link_fd(void)
{
    return master;
}

/*
 * sim.h: the emulated board around the firmware. simavr runs the firmware; the parts here
 * stand in for what is soldered around the chip: the USB-serial bridge (a pty), the switches
 * (a matrix or a 74HC165 chain, as config.h wires them) and the WS2812 chain (decoded).
 *
 * Events go to stdout, one line each, starting with a word and the cycle count (see
 * simboard.c); the tests and bench/firmware.py read them.
 */
#ifndef SIM_H
#define SIM_H

#include <stdint.h>

#include "avr_ioport.h"
#include "sim_avr.h"

extern avr_t *avr;
/* Print an event line: "word cycle ..." (flushed at once). */
void event(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Whether the tests asked for timing events (tx, rx, mark, applied). */
extern int tracing;

/* hooks.c: run code around the firmware's reads and writes of an I/O register. */
typedef void (*hook_fn)(avr_io_addr_t addr, void *param);
void hook_before_read(avr_io_addr_t addr, hook_fn fn, void *param);
void hook_after_write(avr_io_addr_t addr, hook_fn fn, void *param);
/* The port with this letter, or NULL. */
avr_ioport_t *port_of(char letter);
/* The port and bit mask of an Arduino pin number (pinmap.h). */
avr_ioport_t *pin_port(int number, uint8_t *mask);
/* Whether pin `number` is an output, and its output level. */
int pin_is_output(int number);
int pin_level(int number);

/* link.c: the UART to a pty, paced at the baud rate the firmware set. */
void link_init(const char *path);
int link_open(void);          /* a fresh pty under the path; 0 on success */
void link_close(void);        /* the cable pulled: the pty and its name vanish */
int link_fd(void);            /* the pty's master, or -1 */
void link_poll(void);         /* take what the host wrote */
void link_send(const uint8_t *data, int n);    /* bytes as if the host sent them */
void link_garbage(const uint8_t *data, int n); /* bytes to the host, as line noise */
void link_lose(int frames);   /* the next frames the board sends are lost on the line */
void link_lose_from_host(int frames); /* the next frames the host sends are lost */

/* switches.c: the sensors. Channel states: 0 empty, 1 closed (north up), 2 closed south up. */
void switches_init(void);
int switches_set(int channel, int state); /* 0, or -1 for a channel the board lacks */
int switches_get(int channel);
int switches_channels(void);

/* ws2812.c: decodes the LED pin into frames of GRB bytes. */
void leds_init(void);
void leds_poll(void); /* report a frame once the line has been low for the latch time */

#endif /* SIM_H */

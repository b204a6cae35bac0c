/*
 * protocol.h: the board's end of the serial protocol, version 1 (docs/serial-protocol.md).
 *
 * Frames from the host are decoded as their bytes arrive (COBS, CRC-16/CCITT-FALSE); bad
 * ones are dropped and counted. Replies and reports are queued as room allows: INFO, STATE
 * and changes that find the transmit buffer full wait for the next pass, never lost.
 */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#include <stdint.h>

/* Frames from the host dropped, by reason (a debugger or the emulator can read them). */
typedef struct {
    uint16_t frames, bad_cobs, short_frames, bad_crc, oversized, unknown_kind, malformed;
} proto_counts;
extern proto_counts proto_dropped;

/* Decode what the host has sent so far. */
void proto_receive(void);

/* Ask for an INFO frame (then a STATE) or a STATE, sent by proto_transmit(). */
void proto_want_info(void);
void proto_want_state(void);
/* The heartbeat is due: a STATE that gives way to changes (it waits while a switch is
 * changing, and one still far from sent is cut short for a change), unless `overdue`. */
void proto_want_beat(uint8_t overdue);

/* Queue the changes not reported yet (a heartbeat on its way gives way), as far as the
 * transmit buffer has room: quick enough to run between the LEDs of a write. */
void proto_send_changes(void);
/* Queue what waits (INFO, STATE, changes, the heartbeat) as far as the transmit buffer has
 * room; returns whether a STATE went out. */
uint8_t proto_transmit(void);

#endif /* PROTOCOL_H */

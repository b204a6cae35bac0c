/*
 * protocol.c: frames in and out (see protocol.h).
 *
 * Reception: each byte goes through the COBS decoder; the decoded payload (kind, seq, body,
 * crc) is passed on two bytes late, so the CRC's own two bytes never reach a handler; the
 * CRC runs over everything and must end at 0. A frame whose payload would exceed 1024 bytes
 * is skipped to the next delimiter. Handlers see begin, body bytes, end(ok).
 */
#include "config.h"
#include "cobs.h"
#include "crc.h"
#include "leds.h"
#include "protocol.h"
#include "sensors.h"
#include "uart.h"
#include "version.h"

#define VERSION 1
#define MAX_PAYLOAD 1024

enum { HELLO = 0x01, REQUEST_STATE = 0x02, LEDS = 0x03, INFO = 0x81, STATE = 0x82, CHANGE = 0x83 };

proto_counts proto_dropped;

/* -- reception -------------------------------------------------------------------------- */

static cobs_decoder decoder;
static struct {
    uint16_t length; /* payload bytes decoded */
    uint16_t crc;
    uint8_t late[2]; /* the last two bytes: the CRC, if the frame ends now */
    uint8_t kind, seq;
    uint8_t skipping; /* oversized: ignore the rest */
    uint8_t version;  /* HELLO's body */
} rx;

static void body_byte(uint16_t at, uint8_t byte)
{
    if (rx.kind == LEDS)
        leds_chunk_byte(byte);
    else if (rx.kind == HELLO && at == 0)
        rx.version = byte;
}

/* A payload byte known not to be the CRC. */
static void payload_byte(uint16_t at, uint8_t byte)
{
    if (at == 0) {
        rx.kind = byte;
    } else if (at == 1) {
        rx.seq = byte;
        if (rx.kind == LEDS)
            leds_chunk_begin(byte);
    } else {
        body_byte((uint16_t)(at - 2), byte);
    }
}

static void decoded(uint8_t byte)
{
    if (rx.skipping)
        return;
    if (rx.length == MAX_PAYLOAD) {
        rx.skipping = 1;
        return;
    }
    rx.crc = crc_update(rx.crc, byte);
    if (rx.length >= 2)
        payload_byte((uint16_t)(rx.length - 2), rx.late[0]);
    rx.late[0] = rx.late[1];
    rx.late[1] = byte;
    rx.length++;
}

/* Why a frame that ended cannot be used, or 0 when it can. */
static uint16_t *fault(enum cobs_result result)
{
    if (rx.skipping)
        return &proto_dropped.oversized;
    if (result == COBS_BAD)
        return &proto_dropped.bad_cobs;
    if (rx.length < 4)
        return &proto_dropped.short_frames;
    if (rx.crc != 0)
        return &proto_dropped.bad_crc;
    if (rx.kind != HELLO && rx.kind != REQUEST_STATE && rx.kind != LEDS)
        return &proto_dropped.unknown_kind; /* includes the board's own kinds */
    uint16_t body = (uint16_t)(rx.length - 4);
    if ((rx.kind == HELLO && body != 1) || (rx.kind == REQUEST_STATE && body != 0))
        return &proto_dropped.malformed;
    return 0;
}

static void frame_end(enum cobs_result result)
{
    uint16_t *reason = fault(result);
    if (reason) {
        (*reason)++;
        if (rx.kind == LEDS && rx.length >= 2)
            leds_chunk_end(0);
        else
            leds_frame_lost();
    } else {
        proto_dropped.frames++;
        if (rx.kind == HELLO)
            proto_want_info();
        else if (rx.kind == REQUEST_STATE)
            proto_want_state();
        else
            leds_chunk_end(1);
    }
}

static void frame_start(void)
{
    rx.length = 0;
    rx.crc = CRC_START;
    rx.skipping = 0;
    rx.kind = 0;
}

void proto_receive(void)
{
    int16_t in;
    while ((in = uart_get()) >= 0) {
        uint8_t out;
        enum cobs_result result = cobs_decode(&decoder, (uint8_t)in, &out);
        switch (result) {
        case COBS_BYTE:
            decoded(out);
            break;
        case COBS_END:
        case COBS_BAD:
            frame_end(result);
            frame_start();
            break;
        case COBS_EMPTY:
            frame_start();
            break;
        case COBS_NOTHING:
            break;
        }
    }
}

/* -- transmission ----------------------------------------------------------------------- */

/* The largest body the board sends: a STATE, an INFO (7 bytes), or a CHANGE of up to 32 channels. */
#define STATE_BODY (1 + MASK_BYTES * (SENSES_POLARITY ? 2 : 1))
#define CHANGES_MAX (CHANNELS < 32 ? CHANNELS : 32)
#define INFO_BODY 7
#define REPORT_MAX (STATE_BODY > 2 * CHANGES_MAX ? STATE_BODY : 2 * CHANGES_MAX)
#define BODY_MAX (REPORT_MAX > INFO_BODY ? REPORT_MAX : INFO_BODY)
#define WIRE_MAX (COBS_MAX_ENCODED(BODY_MAX + 4) + 2)

_Static_assert(TX_BUFFER > WIRE_MAX + COBS_MAX_ENCODED(INFO_BODY + 4) + 2,
               "TX_BUFFER must hold an INFO and a STATE frame");

static uint8_t payload[BODY_MAX + 4], wire[WIRE_MAX];
static uint8_t tx_seq;
static uint8_t want_info, want_state, want_beat;
static uint8_t beat_on_line; /* the last frame queued is a heartbeat that may give way */

void proto_want_info(void)
{
    want_info = want_state = 1;
}

void proto_want_state(void)
{
    want_state = 1;
}

void proto_want_beat(uint8_t overdue)
{
    want_beat = overdue ? 2 : want_beat | 1;
}

/* Queue the frame whose body (body bytes) is in payload[2..]; 0 when it does not fit. */
static uint8_t send(uint8_t kind, uint16_t body)
{
    uint16_t length = (uint16_t)(body + 4);
    if (uart_room() < COBS_MAX_ENCODED(length) + 2)
        return 0;
    beat_on_line = 0;
    payload[0] = kind;
    payload[1] = ++tx_seq;
    uint16_t crc = crc_bytes(CRC_START, payload, (uint16_t)(length - 2));
    payload[length - 2] = (uint8_t)(crc >> 8);
    payload[length - 1] = (uint8_t)crc;
    wire[0] = 0;
    uint16_t encoded = cobs_encode(payload, length, &wire[1]);
    wire[encoded + 1] = 0;
    uart_write(wire, (uint16_t)(encoded + 2));
    return 1;
}

static uint8_t send_info(void)
{
    uint8_t *body = &payload[2];
    body[0] = VERSION;
    body[1] = (uint8_t)(CHANNELS >> 8);
    body[2] = (uint8_t)CHANNELS;
    body[3] = (uint8_t)(LED_COUNT >> 8);
    body[4] = (uint8_t)LED_COUNT;
    body[5] = SENSES_POLARITY;
    body[6] = FIRMWARE_RELEASE;
    return send(INFO, INFO_BODY);
}

static uint8_t send_state(void)
{
    uint8_t *body = &payload[2];
    body[0] = leds_frame_id();
    for (uint16_t i = 0; i < MASK_BYTES; i++) {
        body[1 + i] = sensors_closed[i];
        if (SENSES_POLARITY)
            body[1 + MASK_BYTES + i] = sensors_north[i] & sensors_closed[i];
    }
    if (!send(STATE, STATE_BODY))
        return 0;
    sensors_all_reported(); /* the full state says it all */
    return 1;
}

/* A change waits: a heartbeat still far from sent is cut short (the host drops the cut frame
 * as damaged) however little of it waits but its delimiter, its sequence number goes to the change and it
 * follows the change again. */
static void give_way(void)
{
    if (!beat_on_line || uart_unsent() <= 1) /* its last byte is the delimiter the change has too */
        return;
    uart_drop_unsent();
    beat_on_line = 0;
    tx_seq--;
    want_beat |= 1;
}

void proto_send_changes(void)
{
    if (sensors_unreported())
        give_way();
    while (sensors_unreported() && uart_room() >= WIRE_MAX) {
        uint16_t count = sensors_take_changes(&payload[2], CHANGES_MAX);
        send(CHANGE, (uint16_t)(2 * count));
    }
}

uint8_t proto_transmit(void)
{
    if (want_info) {
        if (!send_info())
            return 0;
        want_info = 0;
    }
    if (want_state) {
        if (!send_state())
            return 0;
        want_state = want_beat = 0;
        return 1;
    }
    proto_send_changes();
    /* A heartbeat waits for a switch that is changing, unless it is overdue. */
    if (!want_beat || (want_beat == 1 && sensors_settling()) || !send_state())
        return 0;
    beat_on_line = want_beat == 1;
    want_beat = 0;
    return 1;
}

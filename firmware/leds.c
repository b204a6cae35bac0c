/*
 * leds.c: LED frames (see leds.h) and their patterns, like the host's hardware/patterns.py:
 * 0 steady, 1 slow blink (1 Hz), 2 fast blink (4 Hz), 3 pulse (a 0.5 Hz swell from 8% to
 * full). The current limit is the host's (hardware/leds.py): when the frame as rendered
 * would draw more than LED_MAX_CURRENT_MA at LED_MA_PER_CHANNEL per fully lit colour
 * channel, the whole frame is scaled down to fit.
 */
#include <math.h>
#include <string.h>

#include "config.h"
#include "leds.h"
#include "ws2812.h"

#define FIRST 0x01
#define LAST 0x02
#define ENTRY 5 /* bytes per LED in a chunk: pattern << 14 | channel (big-endian), r, g, b */

enum { STEADY, SLOW, FAST, PULSE, PATTERNS };

_Static_assert(LED_COUNT >= 1 && LED_COUNT <= 16384, "LED_COUNT must be 1..16384");

static uint8_t colours[3 * LED_COUNT];      /* r, g, b per LED */
static uint8_t rendered[3 * LED_PER_CHAIN * LED_CHAINS]; /* as written to the chains (ws2812.h) */
static uint8_t patterns[(LED_COUNT + 3) / 4]; /* two bits per LED */
static uint32_t brightness[PATTERNS]; /* sum of r + g + b of the LEDs of each pattern */
static uint8_t shown_id;

/* Assembly of a frame from chunks. */
static uint8_t assembling; /* FIRST seen, LAST not yet */
static uint8_t spoilt;     /* the frame in `colours` is not one the host sent: do not draw */
static uint8_t last_seq;   /* the host's sequence number of the previous chunk */
static struct {
    uint8_t active;  /* this chunk belongs to the frame being assembled */
    uint8_t touched; /* this chunk has changed the frame (before its CRC was checked) */
    uint8_t seq, id, flags;
    uint16_t position; /* body bytes so far */
    uint8_t entry[ENTRY], filled; /* the LED entry being read, and its bytes so far */
} chunk;

/* Drawing: a picture is rendered into `rendered`, then written to the chains at once. A new
 * frame is rendered whole (it answers the host); an animation step RENDER_STEP LEDs at a time,
 * the main loop scanning in between. */
#define RENDER_STEP 64 /* about 0.35 ms */
static uint8_t fresh;        /* a new frame waits to be drawn */
static uint32_t drawn_at;    /* ms of the last write (writes are at least 1 ms apart) */
static uint8_t drawn_phase;  /* the blink phases of the last write */
static struct {
    uint16_t next;            /* the next LED to render; LED_COUNT: all rendered */
    uint32_t at;              /* the moment the picture shows */
    uint16_t level[PATTERNS]; /* each pattern's factor at that moment, out of 256 */
} picture;

void leds_init(void)
{
    ws2812_init();
    fresh = 1; /* all off at reset */
    drawn_at = UINT32_MAX;
}

uint8_t leds_frame_id(void)
{
    return shown_id;
}

static void clear(void)
{
    memset(colours, 0, sizeof colours);
    memset(patterns, 0, sizeof patterns);
    memset(brightness, 0, sizeof brightness);
}

static void spoil(void)
{
    assembling = 0;
    spoilt = 1;
    shown_id = 0;
}

void leds_chunk_begin(uint8_t seq)
{
    memset(&chunk, 0, sizeof chunk);
    chunk.seq = seq;
}

static void apply_entry(void)
{
    uint16_t word = (uint16_t)(chunk.entry[0] << 8 | chunk.entry[1]);
    uint16_t led = word & 0x3FFF;
    if (led >= LED_COUNT) { /* the host checks this: a frame for another chain */
        spoil();
        chunk.active = 0;
        return;
    }
    uint8_t shift = (uint8_t)((led & 3) * 2), *c = &colours[3 * led];
    uint8_t old = (uint8_t)(patterns[led >> 2] >> shift) & 3, pattern = (uint8_t)(word >> 14);
    brightness[old] -= (uint16_t)(c[0] + c[1] + c[2]); /* 0 unless the frame names it twice */
    patterns[led >> 2] = (uint8_t)((patterns[led >> 2] & ~(3 << shift)) | pattern << shift);
    memcpy(c, &chunk.entry[2], 3);
    brightness[pattern] += (uint16_t)(c[0] + c[1] + c[2]);
    chunk.touched = 1;
}

void leds_chunk_byte(uint8_t byte)
{
    uint16_t at = chunk.position++;
    if (at == 0) {
        chunk.id = byte;
    } else if (at == 1) {
        chunk.flags = byte;
        if (byte & FIRST) {
            clear();
            assembling = 1;
            spoilt = 0;
            shown_id = 0; /* the old picture stays on the chain, but its data is gone */
            chunk.active = chunk.touched = 1;
        } else if (assembling && chunk.seq == (uint8_t)(last_seq + 1)) {
            chunk.active = 1;
        } else if (assembling) { /* a chunk of this frame went missing */
            spoil();
        }
    } else if (chunk.active) {
        chunk.entry[chunk.filled++] = byte;
        if (chunk.filled == ENTRY) {
            apply_entry();
            chunk.filled = 0;
        }
    }
}

void leds_chunk_end(uint8_t ok)
{
    if (!ok || (chunk.active && chunk.filled)) { /* bad, or a partial LED entry */
        if (chunk.touched || assembling)
            spoil();
        return;
    }
    if (!chunk.active)
        return;
    last_seq = chunk.seq;
    if (chunk.flags & LAST) {
        assembling = 0;
        shown_id = chunk.id;
        fresh = 1;
        picture.next = 0; /* a picture being rendered has the old colours */
    }
}

void leds_frame_lost(void)
{
    if (assembling)
        spoil();
}

/* -- drawing ---------------------------------------------------------------------------- */

/* Bit 0: the slow blink is on; bit 1: the fast blink is on. */
static uint8_t blink_phase(uint32_t now)
{
    return (uint8_t)((now % 1000 < 500) | (now % 250 < 125) << 1);
}

uint8_t leds_due(uint32_t now)
{
    if (assembling || spoilt || now == drawn_at)
        return 0;
    if (fresh)
        return 1;
    if (brightness[PULSE] && now - drawn_at >= LED_PULSE_FRAME_MS)
        return 1;
    uint8_t blinking = (brightness[SLOW] ? 1 : 0) | (brightness[FAST] ? 2 : 0);
    return ((blink_phase(now) ^ drawn_phase) & blinking) != 0;
}

/* The brightness factor of each pattern at `now`, out of 256. */
static void levels(uint32_t now, uint16_t *level)
{
    uint8_t phase = blink_phase(now);
    level[STEADY] = 256;
    level[SLOW] = phase & 1 ? 256 : 0;
    level[FAST] = phase & 2 ? 256 : 0;
    /* hardware/patterns.py: 0.08 + 0.92 * (0.5 - 0.5 cos(2 pi t / 2 s)) */
    float swell = 0.5f - 0.5f * cosf((float)(now % 2000) * (float)(M_PI / 1000.0));
    level[PULSE] = (uint16_t)(256.0f * (0.08f + 0.92f * swell) + 0.5f);
}

/* Scale the levels down so that the frame's estimated current fits the limit. */
static void limit_current(uint16_t *level)
{
    /* mA = sum of the channel values as shown / 255 * LED_MA_PER_CHANNEL, where a value
     * shown is value * level / 256: compare the sums of value * level. */
    uint32_t sum = 0;
    for (uint8_t p = 0; p < PATTERNS; p++)
        sum += brightness[p] * level[p];
    const float allowed = (float)LED_MAX_CURRENT_MA * 255.0f * 256.0f / LED_MA_PER_CHANNEL;
    if ((float)sum <= allowed)
        return;
    float scale = allowed / (float)sum;
    for (uint8_t p = 0; p < PATTERNS; p++)
        level[p] = (uint16_t)((float)level[p] * scale);
}

/* Render LEDs [from, to) of the picture (to a multiple of 4 but at the end). Each pattern is a
 * factor out of 256 (256: as is); the pattern bytes are walked four LEDs at a time (no shift
 * by a variable amount). LED n goes to LED n % LED_PER_CHAIN of chain n / LED_PER_CHAIN, its
 * green, red and blue LED_CHAINS bytes apart (ws2812.h). */
static void render(uint16_t from, uint16_t to)
{
    const uint16_t *level = picture.level;
    const uint8_t *c = &colours[3 * from], *bits = &patterns[from / 4];
    uint16_t along = from % LED_PER_CHAIN;
    uint8_t *chain = &rendered[from / LED_PER_CHAIN], *out = chain + 3 * LED_CHAINS * along, four = 0;
    for (uint16_t led = from; led < to; led++, c += 3, four >>= 2) {
        if (!(led & 3))
            four = *bits++;
        uint16_t k = level[four & 3]; /* c * k / 256, rounded: c itself when k is 256 */
        out[0] = (uint8_t)((c[1] * k + 128) >> 8);
        out[LED_CHAINS] = (uint8_t)((c[0] * k + 128) >> 8);
        out[2 * LED_CHAINS] = (uint8_t)((c[2] * k + 128) >> 8);
        out += 3 * LED_CHAINS;
        if (++along == LED_PER_CHAIN) { /* the next chain */
            along = 0;
            out = ++chain;
        }
    }
}

uint8_t leds_render(uint32_t now)
{
    if (picture.next == 0) { /* a new picture: the patterns as they are now */
        picture.at = now;
        levels(now, picture.level);
        limit_current(picture.level);
    }
    if (picture.next < LED_COUNT) {
        uint16_t to = !fresh && picture.next + RENDER_STEP < LED_COUNT ? picture.next + RENDER_STEP : LED_COUNT;
        render(picture.next, to);
        picture.next = to;
    }
    return picture.next == LED_COUNT;
}

void leds_write(void)
{
    ws2812_write(rendered, LED_PER_CHAIN);
    fresh = 0;
    drawn_at = picture.at;
    drawn_phase = blink_phase(picture.at);
    picture.next = 0;
}

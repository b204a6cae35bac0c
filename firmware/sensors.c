/*
 * sensors.c: scanning, pairing polarity sensors, debouncing, and the changes to report.
 *
 * Debouncing uses vertical counters: for each byte of eight channels, two bytes hold a
 * two-bit count per channel of the scans in a row that read differently from the sure
 * state, so the whole board debounces a byte at a time in a few instructions.
 */
#include <string.h>

#include "config.h"
#include "bits.h"
#include "scan.h"
#include "sensors.h"

_Static_assert(DEBOUNCE_SCANS >= 1 && DEBOUNCE_SCANS <= 3, "DEBOUNCE_SCANS must be 1, 2 or 3");
_Static_assert(CHANNELS <= 16384, "at most 16384 channels (the protocol's 14 bits)");

uint8_t sensors_closed[MASK_BYTES];
uint8_t sensors_north[SENSES_POLARITY ? MASK_BYTES : 1];

typedef struct {
    uint8_t low[MASK_BYTES], high[MASK_BYTES]; /* the two bits of each channel's count */
    uint16_t from, to; /* the bytes [from, to) hold every count (from >= to: none) */
} counters;

static uint8_t raw[INPUT_BYTES];
static counters closed_count;
static uint8_t unreported[MASK_BYTES];
static uint16_t unreported_from = MASK_BYTES; /* no unreported change before this byte */
#if SENSES_POLARITY
static uint8_t raw_closed[MASK_BYTES], raw_north[MASK_BYTES];
static counters north_count;
#endif

void sensors_init(void)
{
    scan_init();
}

/* Debounce bytes [from, to) of one mask, `now` being this scan's reading: flips of `sure` go
 * to `unreported`; the bytes that go on counting join the counts' range. */
static void debounce_bytes(const uint8_t *now, uint8_t *sure, counters *count, uint16_t from, uint16_t to)
{
    for (uint16_t i = from; i < to; i++) {
        uint8_t differs = now[i] ^ sure[i];
        if (!(differs | count->low[i] | count->high[i]))
            continue; /* eight quiet channels */
        uint8_t low = count->low[i] & differs, high = count->high[i] & differs;
        high ^= low & differs; /* count += 1 where the reading differs, else count = 0 */
        low ^= differs;
#if DEBOUNCE_SCANS == 1
        uint8_t flip = differs;
#elif DEBOUNCE_SCANS == 2
        uint8_t flip = high & (uint8_t)~low;
#else
        uint8_t flip = high & low;
#endif
        sure[i] ^= flip;
        count->low[i] = low & (uint8_t)~flip;
        count->high[i] = high & (uint8_t)~flip;
        unreported[i] |= flip;
        if (flip && i < unreported_from)
            unreported_from = i;
        if (count->low[i] | count->high[i]) {
            if (i < count->from)
                count->from = i;
            if (i >= count->to)
                count->to = i + 1;
        }
    }
}

/* Debounce one mask: only the bytes that read otherwise or are counting are worked on (a
 * large board changes a few bytes at a time). Returns whether some channel is still counting. */
static uint8_t debounce(const uint8_t *now, uint8_t *sure, counters *count)
{
    uint16_t from = 0, to = MASK_BYTES;
    while (from < to && now[from] == sure[from])
        from++;
    while (to > from && now[to - 1] == sure[to - 1])
        to--;
    if (from == to) /* nothing reads otherwise: only the counts */
        from = count->from, to = count->to;
    else if (count->from < count->to) /* and the counts too */
        from = from < count->from ? from : count->from, to = to > count->to ? to : count->to;
    count->from = MASK_BYTES;
    count->to = 0;
    debounce_bytes(now, sure, count, from, to);
    return count->from < count->to;
}

#if SENSES_POLARITY
/* Inputs 2c (north up) and 2c + 1 (south up) to channel c's closed and north bits. */
static void pair_inputs(void)
{
    memset(raw_closed, 0, sizeof raw_closed);
    memset(raw_north, 0, sizeof raw_north);
    for (uint16_t c = 0; c < CHANNELS; c++) {
        uint8_t pair = (uint8_t)(raw[c >> 2] >> ((c & 3) * 2)) & 3, bit = (uint8_t)(1 << (c & 7));
        if (pair)
            raw_closed[c >> 3] |= bit;
        if (pair & 1)
            raw_north[c >> 3] |= bit;
    }
}
#endif

static uint8_t counting; /* some channel reads otherwise than its sure state */

/* Debounce the reading in raw[]. */
static void debounce_raw(void)
{
#if SENSES_POLARITY
    pair_inputs();
    counting = debounce(raw_closed, sensors_closed, &closed_count);
    counting |= debounce(raw_north, sensors_north, &north_count);
#else
    counting = debounce(raw, sensors_closed, &closed_count);
#endif
}

void sensors_scan(void)
{
    /* A reading like the last, with no switch counting towards a change: nothing to do. */
    if (scan_read(raw, sensors_closed) || counting)
        debounce_raw();
}

void sensors_after_write(void)
{
    /* the input bytes the write's readings changed (none on a board with polarity pairs,
     * which is read between writes only: its inputs are not its channels) */
    uint16_t from, to;
    uint8_t passes = SCAN_DURING_WRITES ? scan_gap_passes(&from, &to) : 0;
    for (uint8_t back = passes < DEBOUNCE_SCANS ? passes : DEBOUNCE_SCANS; back >= 1; back--) {
        scan_gap_reading(raw, sensors_closed, back);
        debounce_bytes(raw, sensors_closed, &closed_count, from, to); /* the others as they were */
        counting = closed_count.from < closed_count.to;
    }
}

#if !SENSES_POLARITY
/* Channels [at, at + n) read `value` the last DEBOUNCE_SCANS times: that is their state now,
 * their counts start again. */
static void settled(uint16_t at, uint32_t value, uint8_t n)
{
    uint32_t flip = bits_get(sensors_closed, at, n) ^ value;
    bits_put(closed_count.low, at, 0, n);
    bits_put(closed_count.high, at, 0, n);
    if (!flip)
        return;
    bits_put(sensors_closed, at, value, n);
    bits_put(unreported, at, bits_get(unreported, at, n) | flip, n);
    if (at / 8 < unreported_from)
        unreported_from = at / 8;
}
#endif

void sensors_gap_begin(void)
{
    scan_gap_begin();
}

uint8_t sensors_gap(void)
{
    uint16_t at;
    uint32_t value;
    uint8_t n = scan_gap(&at, &value);
#if SENSES_POLARITY
    (void)at, (void)value, (void)n;
    return 0;
#else
    if (n)
        settled(at, value, n);
    return n != 0;
#endif
}

uint8_t sensors_settling(void)
{
    return counting || sensors_unreported();
}

uint8_t sensors_unreported(void)
{
    while (unreported_from < MASK_BYTES && !unreported[unreported_from])
        unreported_from++;
    return unreported_from < MASK_BYTES;
}

uint16_t sensors_take_changes(uint8_t *body, uint16_t max)
{
    uint16_t taken = 0;
    for (uint16_t i = unreported_from; i < MASK_BYTES && taken < max; i++) {
        while (unreported[i] && taken < max) {
            uint8_t bit = (uint8_t)(unreported[i] & -unreported[i]); /* the lowest set bit */
            uint8_t index = 0;
            while (!(bit >> index & 1))
                index++;
            uint16_t word = (uint16_t)(i * 8 + index);
            if (sensors_closed[i] & bit)
                word |= 0x8000;
            if (SENSES_POLARITY && (sensors_north[i] & sensors_closed[i] & bit))
                word |= 0x4000;
            body[2 * taken] = (uint8_t)(word >> 8);
            body[2 * taken + 1] = (uint8_t)word;
            taken++;
            unreported[i] &= (uint8_t)~bit;
        }
    }
    return taken;
}

void sensors_all_reported(void)
{
    memset(unreported, 0, sizeof unreported);
    unreported_from = MASK_BYTES;
}

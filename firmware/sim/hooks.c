/*
 * hooks.c: code that runs before the firmware reads, or after it writes, an I/O register,
 * chained around simavr's own handlers (so the ports keep working as simavr models them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config.h"
#include "../pinmap.h"
#include "sim.h"

#define HOOKS 4

typedef struct {
    avr_io_read_t read;
    avr_io_write_t write;
    void *read_param, *write_param;
    hook_fn before[HOOKS], after[HOOKS];
    void *before_param[HOOKS], *after_param[HOOKS];
    int befores, afters;
} hooked;

static hooked *table[MAX_IOs];

static hooked *entry(avr_io_addr_t addr)
{
    int io = AVR_DATA_TO_IO(addr);
    if (!table[io]) {
        table[io] = calloc(1, sizeof(hooked));
        table[io]->read = avr->io[io].r.c;
        table[io]->read_param = avr->io[io].r.param;
        table[io]->write = avr->io[io].w.c;
        table[io]->write_param = avr->io[io].w.param;
    }
    return table[io];
}

static uint8_t chained_read(avr_t *a, avr_io_addr_t addr, void *param)
{
    hooked *h = param;
    for (int i = 0; i < h->befores; i++)
        h->before[i](addr, h->before_param[i]);
    return h->read ? h->read(a, addr, h->read_param) : a->data[addr];
}

static void chained_write(avr_t *a, avr_io_addr_t addr, uint8_t value, void *param)
{
    hooked *h = param;
    if (h->write)
        h->write(a, addr, value, h->write_param);
    else
        a->data[addr] = value;
    for (int i = 0; i < h->afters; i++)
        h->after[i](addr, h->after_param[i]);
}

/* Add `fn` to a list of hooks (HOOKS at most). */
static void add(hook_fn *list, void **params, int *count, hook_fn fn, void *param)
{
    if (*count == HOOKS)
        abort();
    list[*count] = fn;
    params[(*count)++] = param;
}

void hook_before_read(avr_io_addr_t addr, hook_fn fn, void *param)
{
    hooked *h = entry(addr);
    add(h->before, h->before_param, &h->befores, fn, param);
    avr->io[AVR_DATA_TO_IO(addr)].r.c = chained_read;
    avr->io[AVR_DATA_TO_IO(addr)].r.param = h;
}

void hook_after_write(avr_io_addr_t addr, hook_fn fn, void *param)
{
    hooked *h = entry(addr);
    add(h->after, h->after_param, &h->afters, fn, param);
    avr->io[AVR_DATA_TO_IO(addr)].w.c = chained_write;
    avr->io[AVR_DATA_TO_IO(addr)].w.param = h;
}

avr_ioport_t *port_of(char letter)
{
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "port") && ((avr_ioport_t *)io)->name == letter)
            return (avr_ioport_t *)io;
    return NULL;
}

static const unsigned char pinmap[PINMAP_SIZE] = PINMAP;

avr_ioport_t *pin_port(int number, uint8_t *mask)
{
    static avr_ioport_t *ports[PINMAP_SIZE];
    *mask = (uint8_t)(1 << PINMAP_BIT(pinmap[number]));
    avr_ioport_t *port = ports[number];
    if (!port)
        port = ports[number] = port_of(PINMAP_PORT(pinmap[number]));
    if (!port) {
        fprintf(stderr, "simboard: pin %d: no port %c on this chip\n", number,
                PINMAP_PORT(pinmap[number]));
        exit(2);
    }
    return port;
}

int pin_is_output(int number)
{
    uint8_t mask;
    avr_ioport_t *port = pin_port(number, &mask);
    return (avr->data[port->r_ddr] & mask) != 0;
}

int pin_level(int number)
{
    uint8_t mask;
    avr_ioport_t *port = pin_port(number, &mask);
    return (avr->data[port->r_port] & mask) != 0;
}

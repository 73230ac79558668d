/* Protobuf's base-128 varints, as the wire's C writers put them. */
#ifndef HANDEVAL_WIRE_VARINT_H
#define HANDEVAL_WIRE_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* The bytes ``value`` takes as a varint. */
static inline size_t varint_size(uint64_t value)
{
    size_t size = 1;
    while (value > 0x7F) {
        value >>= 7;
        size++;
    }
    return size;
}

/* ``value`` written as a varint at ``out``; the byte after it. */
static inline uint8_t *put_varint(uint8_t *out, uint64_t value)
{
    while (value > 0x7F) {
        *out++ = (uint8_t)(value & 0x7F) | 0x80;
        value >>= 7;
    }
    *out++ = (uint8_t)value;
    return out;
}

#endif

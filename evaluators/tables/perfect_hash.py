"""A minimal-effort perfect hash (hash-and-displace) for a fixed set of uint64 keys.

Why: the non-flush lookup is keyed by packed rank counts (39 bits), far too sparse for a
dense table, while the 73,775 keys that occur (5, 6 or 7 cards) fit a 2^17-slot table.
Each key picks a bucket and a base slot by two multiply-shift hashes; every bucket has a
displacement chosen at build time so that ``base ^ displacement`` never collides:

    slot = displacements[(key * A mod 2^64) >> (64 - bucket_bits)]
           ^ ((key * C mod 2^64) >> (64 - slot_bits))

The same arithmetic runs in pure Python (single hands) and in numpy (batches: wrapping
uint64 multiplies, two gathers). Contract: distinct keys of the build set get distinct
slots; any other key gets some slot, meaningless unless the caller knows it is in the set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.tables.distinct import all_distinct

_U64 = (1 << 64) - 1
BUCKET_MULTIPLIER = 0x9E3779B97F4A7C15


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _U64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return state, z ^ (z >> 31)


@dataclass(frozen=True)
class PerfectHash:
    bucket_bits: int
    slot_bits: int
    slot_multiplier: int
    displacements: npt.NDArray[np.int64]
    """One per bucket: XORed into the base slot (int64 so gathers need no casts)."""

    @property
    def slot_count(self) -> int:
        return 1 << self.slot_bits


def slots_of(perfect_hash: PerfectHash, keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """Slots of many keys at once (numpy; the multiplies wrap modulo 2^64 by design).

    Works in place on two temporaries: at a million keys, fresh arrays per step cost
    more than the arithmetic.
    """
    bucket = keys * np.uint64(BUCKET_MULTIPLIER)
    bucket >>= np.uint64(64 - perfect_hash.bucket_bits)
    base = keys * np.uint64(perfect_hash.slot_multiplier)
    base >>= np.uint64(64 - perfect_hash.slot_bits)
    slots = bucket.view(np.int64)
    np.take(perfect_hash.displacements, slots, out=slots, mode="clip")
    slots ^= base.view(np.int64)
    return slots


def _buckets_and_bases(
    keys: npt.NDArray[np.uint64], bucket_bits: int, slot_bits: int, slot_multiplier: int
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    bucket = (keys * np.uint64(BUCKET_MULTIPLIER)) >> np.uint64(64 - bucket_bits)
    base = (keys * np.uint64(slot_multiplier)) >> np.uint64(64 - slot_bits)
    return bucket, base


def build_perfect_hash(
    keys: Sequence[int] | npt.NDArray[np.uint64], bucket_bits: int, slot_bits: int
) -> PerfectHash:
    """Displacements placing every (distinct) key in its own slot.

    Deterministic: the slot multiplier is the first of a fixed splitmix64 sequence under
    which no two keys of one bucket share a base slot; buckets are then placed largest first,
    each at the smallest displacement whose slots are all free.
    """
    key_array = np.asarray(keys, dtype=np.uint64)
    if not all_distinct(key_array):
        raise ValueError("perfect hash keys must be distinct")
    if len(key_array) > (1 << slot_bits):
        raise ValueError("more keys than slots")
    state = 0
    while True:
        state, candidate = _splitmix64(state)
        slot_multiplier = candidate | 1
        bucket, base = _buckets_and_bases(key_array, bucket_bits, slot_bits, slot_multiplier)
        pairs = (bucket << np.uint64(slot_bits)) | base
        if all_distinct(pairs):
            break
    order = np.argsort(bucket, kind="stable")
    sorted_buckets = bucket[order]
    sorted_bases = base[order].tolist()
    starts = np.flatnonzero(np.diff(sorted_buckets, prepend=np.uint64(1 << 63)) != 0)
    bucket_ids = sorted_buckets[starts].tolist()
    ends = [*starts[1:].tolist(), len(sorted_bases)]
    groups = [
        (bucket_id, sorted_bases[start:end])
        for bucket_id, start, end in zip(bucket_ids, starts.tolist(), ends, strict=True)
    ]
    groups.sort(key=lambda group: (-len(group[1]), group[0]))
    occupied = bytearray(1 << slot_bits)
    displacements = np.zeros(1 << bucket_bits, dtype=np.int64)
    for bucket_index, bases in groups:
        displacement = _first_fit(occupied, bases)
        for b in bases:
            occupied[b ^ displacement] = 1
        displacements[bucket_index] = displacement
    return PerfectHash(bucket_bits, slot_bits, slot_multiplier, displacements)


def _first_fit(occupied: bytearray, bases: list[int]) -> int:
    """The smallest displacement putting every base on a free slot. A lone base (most
    buckets) is a plain scan: the generic test over a generator was most of the build."""
    if len(bases) == 1:
        base = bases[0]
        displacement = 0
        while occupied[base ^ displacement]:
            displacement += 1
            if displacement == len(occupied):
                break
        else:
            return displacement
    else:
        for displacement in range(len(occupied)):
            if not any(occupied[b ^ displacement] for b in bases):
                return displacement
    raise ValueError("no displacement fits: use more slots or buckets")

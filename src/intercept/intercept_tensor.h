/* intercept_tensor.h: what a tensor copy (cp.async.bulk.tensor, TMA) touches, from
 * the arguments the program gave cuTensorMapEncodeTiled: the runtime's record of a
 * tensor map (devrt_state.h, ScDevTensorMap) and the host's table of them. */
#ifndef SC_INTERCEPT_TENSOR_H
#define SC_INTERCEPT_TENSOR_H

#include "common/sc_defs.h"
#include "devrt/devrt_state.h"

/* The record of a map encoded with these arguments (cuTensorMapEncodeTiled's, the
 * data type and interleave as their enum values), its 128 bytes copied from `map`.
 * False when the arguments make no tensor (rank outside 1..5). The record says the
 * copies are not followed (`checked` 0) for sub-byte element types, interleaved
 * layouts and element strides other than 1. */
bool sc_tensor_map_describe(ScDevTensorMap *out, const void *map, int data_type, uint32_t rank,
                            uint64_t global, const uint64_t *dim, const uint64_t *strides,
                            const uint32_t *box, const uint32_t *element_strides, int interleave);

/* The maps the program encoded, at most SC_DEV_TENSOR_MAPS, the oldest giving way to
 * a new one; a map encoded again with the same bytes moves to the end. Not thread-safe:
 * the caller holds the context lock. */
typedef struct ScTensorMaps {
    ScDevTensorMap v[SC_DEV_TENSOR_MAPS];
    uint32_t n;
    uint32_t version; /* counts the changes: a context whose copy is older gets them anew */
} ScTensorMaps;

void sc_tensor_maps_add(ScTensorMaps *t, const ScDevTensorMap *m);

/* The newest record of the map whose bytes are `map`, or NULL. */
ScDevTensorMap *sc_tensor_maps_find(ScTensorMaps *t, const void *map);

#endif

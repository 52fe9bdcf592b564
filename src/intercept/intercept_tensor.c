/* intercept_tensor.c: tensor maps as the program encodes them, for the runtime's
 * check of tensor copies (docs/devrt.md, "Tensor copies"). */
#include <string.h>

#include "intercept/intercept_tensor.h"

/* Bytes per element of CUtensorMapDataType's values, in their order; 0 for the
 * packed sub-byte types (16U4_ALIGN8B and later), which scord does not follow. */
static uint32_t element_bytes(int data_type)
{
    static const uint8_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return data_type >= 0 && (size_t)data_type < sizeof bytes ? bytes[data_type] : 0;
}

bool sc_tensor_map_describe(ScDevTensorMap *out, const void *map, int data_type, uint32_t rank,
                            uint64_t global, const uint64_t *dim, const uint64_t *strides,
                            const uint32_t *box, const uint32_t *element_strides, int interleave)
{
    if (rank < 1 || rank > 5 || !map || !dim || !box || (rank > 1 && !strides))
        return false;
    memset(out, 0, sizeof *out);
    memcpy(out->map, map, sizeof out->map);
    out->base = global;
    out->rank = rank;
    out->elem = element_bytes(data_type);
    bool unit_strides = true;
    for (uint32_t d = 0; d < 5; d++) {
        out->dim[d] = d < rank ? dim[d] : 1;
        out->box[d] = d < rank ? box[d] : 1;
        out->stride[d] = d == 0 ? out->elem : d < rank ? strides[d - 1] : 0;
        if (d < rank && element_strides && element_strides[d] != 1)
            unit_strides = false;
        if (out->box[d] == 0)
            return false;
    }
    out->checked = out->elem != 0 && interleave == 0 && unit_strides;
    return true;
}

void sc_tensor_maps_add(ScTensorMaps *t, const ScDevTensorMap *m)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (memcmp(t->v[i].map, m->map, sizeof m->map) != 0)
            t->v[keep++] = t->v[i];
    t->n = keep;
    if (t->n == SC_DEV_TENSOR_MAPS) {
        memmove(&t->v[0], &t->v[1], (SC_DEV_TENSOR_MAPS - 1) * sizeof t->v[0]);
        t->n--;
    }
    t->v[t->n++] = *m;
    t->version++;
}

ScDevTensorMap *sc_tensor_maps_find(ScTensorMaps *t, const void *map)
{
    for (uint32_t i = t->n; i-- > 0;)
        if (memcmp(t->v[i].map, map, sizeof t->v[i].map) == 0)
            return &t->v[i];
    return NULL;
}

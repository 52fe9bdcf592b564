/* layout_probe.cuh: devrt_state.h as nvcc lays it out for the device, written into
 * the PTX as the initializer of sc_devrt_layout for test_devrt to compare with the host
 * compiler's layout. Compiled with -x cu (a .cu name would put it in the PTX corpus,
 * which is built without -Isrc). Never launched. */
#include <stddef.h>

#include "devrt/devrt_state.h"
#include "devrt/layout_fields.h"

#define PROBE_SIZE(type) (unsigned)sizeof(type),
#define PROBE_FIELD(type, field) (unsigned)offsetof(type, field),

extern "C" __device__ const unsigned sc_devrt_layout[] = {
    SC_DEVRT_LAYOUT(PROBE_SIZE, PROBE_FIELD) 0u};

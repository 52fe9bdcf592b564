/* devrt_copy.cuh: bulk and tensor copies (cp.async.bulk, TMA): their reads and writes
 * as accesses. Part of the device runtime: devrt.cu includes the parts in order, as
 * one unit. */

/* ---- bulk copies ---------------------------------------------------------------- */

/* n bytes from addr as accesses of one kind by this thread, 16 at a time. */
static __device__ void access_range(uint64_t addr, uint64_t n, uint32_t kind, uint32_t site)
{
    for (uint64_t off = 0; off < n; off += 16) {
        uint32_t k = n - off < 16u ? (uint32_t)(n - off) : 16u;
        __scord_access(addr + off, SC_ABI_INFO(k, kind, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_GENERIC),
                       site, 0);
    }
}

/* A cp.async.bulk (instr_plan.c, plan_bulk_copy): its source read and destination
 * write, as the issuing thread's accesses now, 16 bytes at a time (the sizes the ABI
 * carries); a destination in another block's shared memory is checked in the owner's
 * shadow, as any access there. */
extern "C" __device__ void __scord_bulk_copy(uint64_t dst, uint32_t dst_site, uint64_t src, uint32_t src_site,
                                             uint32_t size)
{
    access_range(src, size, SC_ABI_KIND_READ, src_site);
    access_range(dst, size, SC_ABI_KIND_WRITE, dst_site);
}

/* ---- tensor copies (docs/devrt.md, "Tensor copies") ------------------------------ */

/* The record of the tensor map at generic address `map` (a kernel parameter, constant
 * or global memory): the newest one holding its bytes, or 0 when the program did not
 * encode it through the driver (a map written on the device). */
static __device__ const ScDevTensorMap *find_tensor_map(const ScDevLaunch *l, uint64_t map)
{
    const uint64_t *p = (const uint64_t *)map;
    uint64_t first = p[0];
    const ScDevTensorMap *maps = (const ScDevTensorMap *)l->tensor_maps;
    for (uint32_t i = l->n_tensor_maps; i-- > 0;) {
        const ScDevTensorMap *m = &maps[i];
        if (m->map[0] != first)
            continue;
        uint32_t w = 1;
        while (w < 16 && m->map[w] == p[w])
            w++;
        if (w == 16)
            return m;
    }
    return 0;
}

/* Before a tensor copy in tile mode (cp.async.bulk.tensor, TMA): the box of the map at
 * the coordinates c, its rows in global memory (the part of each inside the tensor)
 * and the whole box in shared memory, as the issuing thread's accesses as of the
 * instruction, like a bulk copy's (read global, write shared; the other way round for
 * a copy to global). A map the host never saw, or of a form not followed, leaves the
 * copy unchecked. */
extern "C" __device__ void __scord_tensor_copy(uint64_t smem, uint32_t smem_site, uint64_t map, uint32_t global_site,
                                               uint32_t to_global, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                               int32_t c4)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    const ScDevTensorMap *m = find_tensor_map(l, map);
    if (!m || !m->checked) {
        count_unchecked(l);
        return;
    }
    const int32_t c[5] = {c0, c1, c2, c3, c4};
    uint32_t global_kind = to_global ? SC_ABI_KIND_WRITE : SC_ABI_KIND_READ;
    uint32_t shared_kind = to_global ? SC_ABI_KIND_READ : SC_ABI_KIND_WRITE;
    access_range(smem, sc_dev_tensor_box_bytes(m), shared_kind, smem_site);
    for (uint32_t row = 0, rows = sc_dev_tensor_rows(m); row < rows; row++) {
        uint64_t addr;
        uint32_t bytes;
        if (sc_dev_tensor_row(m, c, row, &addr, &bytes))
            access_range(addr, bytes, global_kind, global_site);
    }
}

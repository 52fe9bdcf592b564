/* intercept_streams.c: the program's stream-ordered work as the driver sees it issued,
 * kept in one process-wide order (hostrt_order.h): the launch path asks it whether the
 * launch before is ordered before this one.
 *
 * The per-thread default stream (CU_STREAM_PER_THREAD, or the null stream through a
 * _ptsz/_ptds entry point) is taken for the legacy stream: that orders more work than
 * the program does, so it can hide a race but never invent one. So do the synchronous
 * copies and memsets, taken for a context synchronize. Work on a stream being captured
 * into a graph does not run now and is left out. Asynchronous copies and memsets are
 * accesses too: the runtime compares them with the checked launches around them
 * (sc_rt_copy_issued). */
#include "intercept/intercept.h"
#include "intercept/intercept_streams.h"

static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;
static ScOrder *order;
static bool order_lost_said;
/* While a graph node is issued (sc_streams_as_node), this thread's work counts as the
 * node's: a stream of its own, which meets no legacy-stream rule. */
static _Thread_local uint64_t node_key;

/* A stream as the order names it: its key (0 for the legacy stream) and kind. */
typedef struct StreamRef {
    uint64_t key;
    ScStreamKind kind;
} StreamRef;

/* Asked once per call, before the order's lock is taken: a driver query at most. */
static CUresult (*get_flags)(CUstream, unsigned int *);

static void resolve_get_flags(void)
{
    *(void **)&get_flags = sc_driver_sym("cuStreamGetFlags");
}

static StreamRef ref_of(CUstream stream)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (node_key)
        return (StreamRef){node_key, SC_STREAM_NONBLOCKING};
    if (!stream || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD)
        return (StreamRef){0, SC_STREAM_LEGACY};
    pthread_once(&once, resolve_get_flags);
    unsigned int flags = 0;
    bool nonblocking =
        get_flags && get_flags(stream, &flags) == CUDA_SUCCESS && (flags & CU_STREAM_NON_BLOCKING);
    return (StreamRef){(uint64_t)(uintptr_t)stream, nonblocking ? SC_STREAM_NONBLOCKING : SC_STREAM_BLOCKING};
}

/* Takes the lock and returns the order, made at first use; NULL (lock not held) when
 * detection is off or memory ran out. */
static ScOrder *order_take(void)
{
    if (!sc_ctx.detect)
        return NULL;
    pthread_mutex_lock(&order_lock);
    if (!order)
        order = sc_order_new();
    if (!order) {
        pthread_mutex_unlock(&order_lock);
        return NULL;
    }
    return order;
}

/* Releases the lock; ok false: the order was lost (said once). */
static void order_give(bool ok)
{
    bool say = !ok && !order_lost_said;
    order_lost_said = order_lost_said || !ok;
    pthread_mutex_unlock(&order_lock);
    if (say)
        sc_log("scord: out of memory, or more than 4096 streams: the order of work on different "
               "streams is no longer followed, and kernels on different streams are no longer "
               "compared\n");
}

/* Whether an operation the program issued on the stream counts: it succeeded,
 * detection is on and the stream is not being captured (asked last: a driver call). */
static bool issued(CUresult r, CUstream stream)
{
    return r == CUDA_SUCCESS && sc_ctx.detect && !sc_rt_stream_capturing(stream);
}

bool sc_streams_work(CUstream stream, ScWork *out)
{
    *out = (ScWork){0};
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (!o)
        return false;
    bool ok = sc_order_work(o, s.key, s.kind, out);
    order_give(ok);
    return ok;
}

bool sc_streams_before(ScWork earlier, ScWork later)
{
    ScOrder *o = order_take();
    if (!o)
        return true;
    bool before = sc_order_before(o, earlier, later);
    order_give(true);
    return before;
}

void sc_streams_graph_launch(CUstream stream)
{
    ScWork w;
    if (!issued(CUDA_SUCCESS, stream) || !sc_streams_work(stream, &w))
        return;
    ScOrder *o = order_take();
    if (o) {
        /* Its event-record nodes may have recorded any event. */
        sc_order_events_unknown(o);
        order_give(true);
    }
}

void sc_streams_host_waits_all(CUresult r)
{
    ScOrder *o = r == CUDA_SUCCESS ? order_take() : NULL;
    if (o)
        order_give(sc_order_host_waits_all(o));
}

void sc_streams_as_node(uint64_t key)
{
    node_key = key;
}

void sc_streams_record_real(uint64_t event, CUstream stream)
{
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_record(o, event, s.key, s.kind));
}

void sc_streams_real_waits(CUstream stream, uint64_t event)
{
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_stream_waits_event(o, s.key, s.kind, event));
}

void sc_streams_node_waits(uint64_t node, uint64_t event)
{
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_stream_waits_event(o, node, SC_STREAM_NONBLOCKING, event));
}

void sc_streams_node_done(uint64_t node)
{
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_record(o, node, node, SC_STREAM_NONBLOCKING));
}

void sc_streams_forget_node(uint64_t node)
{
    ScOrder *o = order_take();
    if (o) {
        sc_order_forget_stream(o, node);
        sc_order_forget_event(o, node);
        order_give(true);
    }
}

/* An asynchronous copy or memset: work of its stream, and accesses to the device
 * memory it reads and writes (n ranges), compared with the kernels around it. */
void sc_streams_copy(CUresult r, CUstream stream, const ScHostCopy *ranges, size_t n)
{
    ScWork w;
    if (issued(r, stream) && sc_streams_work(stream, &w) && n)
        sc_rt_copy_issued(ranges, n, w);
}

/* A copy from src to dst, either of which may be device memory. */
static void copy_both(CUresult r, CUstream stream, CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    ScHostCopy ranges[2] = {{.base = src, .size = bytes}, {.base = dst, .size = bytes, .writes = true}};
    sc_streams_copy(r, stream, ranges, 2);
}

static void copy_reads(CUresult r, CUstream stream, CUdeviceptr src, size_t bytes)
{
    ScHostCopy range = {.base = src, .size = bytes};
    sc_streams_copy(r, stream, &range, 1);
}

static void copy_writes(CUresult r, CUstream stream, CUdeviceptr dst, size_t bytes)
{
    ScHostCopy range = {.base = dst, .size = bytes, .writes = true};
    sc_streams_copy(r, stream, &range, 1);
}

/* A 2D memset: `height` rows of `bytes` bytes, `pitch` apart. */
static void memset_2d(CUresult r, CUstream stream, CUdeviceptr dst, size_t pitch, size_t bytes, size_t height)
{
    ScHostCopy range = {.base = dst, .size = bytes, .writes = true, .pitch = height > 1 ? pitch : 0, .rows = height};
    sc_streams_copy(r, stream, &range, height ? 1 : 0);
}

static void record(CUresult r, CUevent event, CUstream stream)
{
    if (!issued(r, stream))
        return;
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_record(o, (uint64_t)(uintptr_t)event, s.key, s.kind));
}

CUresult on_cuEventRecord(ScReal_cuEventRecord real, CUevent event, CUstream stream)
{
    CUresult r = real(event, stream);
    record(r, event, stream);
    return r;
}

CUresult on_cuEventRecordWithFlags(ScReal_cuEventRecordWithFlags real, CUevent event,
                                   CUstream stream, unsigned int flags)
{
    CUresult r = real(event, stream, flags);
    record(r, event, stream);
    return r;
}

CUresult on_cuStreamWaitEvent(ScReal_cuStreamWaitEvent real, CUstream stream, CUevent event,
                              unsigned int flags)
{
    CUresult r = real(stream, event, flags);
    if (!issued(r, stream))
        return r;
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_stream_waits_event(o, s.key, s.kind, (uint64_t)(uintptr_t)event));
    return r;
}

static void host_waits_stream(CUresult r, CUstream stream)
{
    if (r != CUDA_SUCCESS || !sc_ctx.detect)
        return;
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_host_waits_stream(o, s.key, s.kind));
}

CUresult on_cuStreamSynchronize(ScReal_cuStreamSynchronize real, CUstream stream)
{
    CUresult r = real(stream);
    host_waits_stream(r, stream);
    return r;
}

/* CUDA_SUCCESS: the stream's work is complete, which a program may poll for. */
CUresult on_cuStreamQuery(ScReal_cuStreamQuery real, CUstream stream)
{
    CUresult r = real(stream);
    host_waits_stream(r, stream);
    return r;
}

static void host_waits_event(CUresult r, CUevent event)
{
    ScOrder *o = r == CUDA_SUCCESS ? order_take() : NULL;
    if (o)
        order_give(sc_order_host_waits_event(o, (uint64_t)(uintptr_t)event));
}

CUresult on_cuEventSynchronize(ScReal_cuEventSynchronize real, CUevent event)
{
    CUresult r = real(event);
    host_waits_event(r, event);
    return r;
}

CUresult on_cuEventQuery(ScReal_cuEventQuery real, CUevent event)
{
    CUresult r = real(event);
    host_waits_event(r, event);
    return r;
}

CUresult on_cuCtxSynchronize(ScReal_cuCtxSynchronize real)
{
    CUresult r = real();
    sc_streams_host_waits_all(r);
    return r;
}

CUresult on_cuCtxSynchronize_v2(ScReal_cuCtxSynchronize_v2 real, CUcontext ctx)
{
    CUresult r = real(ctx);
    sc_streams_host_waits_all(r);
    return r;
}

CUresult on_cuStreamDestroy(ScReal_cuStreamDestroy real, CUstream stream)
{
    CUresult r = real(stream);
    /* The legacy and per-thread streams are never destroyed. */
    ScOrder *o = r == CUDA_SUCCESS && stream && stream != CU_STREAM_LEGACY && stream != CU_STREAM_PER_THREAD
                     ? order_take()
                     : NULL;
    if (o) {
        sc_order_forget_stream(o, (uint64_t)(uintptr_t)stream);
        order_give(true);
    }
    return r;
}

CUresult on_cuEventDestroy(ScReal_cuEventDestroy real, CUevent event)
{
    CUresult r = real(event);
    ScOrder *o = r == CUDA_SUCCESS ? order_take() : NULL;
    if (o) {
        sc_order_forget_event(o, (uint64_t)(uintptr_t)event);
        order_give(true);
    }
    return r;
}

void sc_streams_stream_waits_all(CUresult r, CUstream stream)
{
    if (r != CUDA_SUCCESS || !sc_ctx.detect)
        return;
    StreamRef s = ref_of(stream);
    ScOrder *o = order_take();
    if (o)
        order_give(sc_order_stream_waits_all(o, s.key, s.kind));
}

CUresult on_cuStreamWaitValue32(ScReal_cuStreamWaitValue32 real, CUstream stream, CUdeviceptr addr,
                                cuuint32_t value, unsigned int flags)
{
    CUresult r = real(stream, addr, value, flags);
    if (issued(r, stream))
        sc_streams_stream_waits_all(r, stream);
    return r;
}

CUresult on_cuStreamWaitValue64(ScReal_cuStreamWaitValue64 real, CUstream stream, CUdeviceptr addr,
                                cuuint64_t value, unsigned int flags)
{
    CUresult r = real(stream, addr, value, flags);
    if (issued(r, stream))
        sc_streams_stream_waits_all(r, stream);
    return r;
}

CUresult on_cuStreamBatchMemOp(ScReal_cuStreamBatchMemOp real, CUstream stream, unsigned int count,
                               CUstreamBatchMemOpParams *ops, unsigned int flags)
{
    CUresult r = real(stream, count, ops, flags);
    if (issued(r, stream))
        sc_streams_stream_waits_all(r, stream);
    return r;
}

/* Synchronous copies and memsets: work of the legacy stream (CUstream NULL), which
 * waits for the blocking streams' earlier work but not for the non-blocking ones' (CUDA
 * programming guide, "Implicit synchronization"), their bytes compared with the kernels
 * around them as an asynchronous copy's are; then the host waits for that stream. By
 * the CUDA documentation ("API synchronization behavior") a copy between device
 * memories, and a memset, may return before their work completes: counting them as
 * waited for can hide a race, never make one up. */

CUresult on_cuMemcpy(ScReal_cuMemcpy real, CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult r = real(dst, src, bytes);
    copy_both(r, NULL, dst, src, bytes);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpyHtoD(ScReal_cuMemcpyHtoD real, CUdeviceptr dst, const void *src, size_t bytes)
{
    CUresult r = real(dst, src, bytes);
    copy_writes(r, NULL, dst, bytes);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpyDtoH(ScReal_cuMemcpyDtoH real, void *dst, CUdeviceptr src, size_t bytes)
{
    CUresult r = real(dst, src, bytes);
    copy_reads(r, NULL, src, bytes);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpyDtoD(ScReal_cuMemcpyDtoD real, CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult r = real(dst, src, bytes);
    copy_both(r, NULL, dst, src, bytes);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpy2D(ScReal_cuMemcpy2D real, const CUDA_MEMCPY2D *copy)
{
    CUresult r = real(copy);
    ScHostCopy ranges[2];
    sc_streams_copy(r, NULL, ranges, copy ? sc_hostrt_memcpy2d_ranges(copy, ranges) : 0);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpy3D(ScReal_cuMemcpy3D real, const CUDA_MEMCPY3D *copy)
{
    CUresult r = real(copy);
    ScHostCopy ranges[2];
    sc_streams_copy(r, NULL, ranges, copy ? sc_hostrt_memcpy3d_ranges(copy, ranges) : 0);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpyPeer(ScReal_cuMemcpyPeer real, CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                         CUcontext src_ctx, size_t bytes)
{
    CUresult r = real(dst, dst_ctx, src, src_ctx, bytes);
    sc_streams_host_waits_all(r);
    return r;
}

CUresult on_cuMemsetD8(ScReal_cuMemsetD8 real, CUdeviceptr dst, unsigned char value, size_t n)
{
    CUresult r = real(dst, value, n);
    copy_writes(r, NULL, dst, n);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemsetD16(ScReal_cuMemsetD16 real, CUdeviceptr dst, unsigned short value, size_t n)
{
    CUresult r = real(dst, value, n);
    copy_writes(r, NULL, dst, 2 * n);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemsetD32(ScReal_cuMemsetD32 real, CUdeviceptr dst, unsigned int value, size_t n)
{
    CUresult r = real(dst, value, n);
    copy_writes(r, NULL, dst, 4 * n);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemcpyAsync(ScReal_cuMemcpyAsync real, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                          CUstream stream)
{
    CUresult r = real(dst, src, bytes, stream);
    copy_both(r, stream, dst, src, bytes);
    return r;
}

CUresult on_cuMemcpyHtoDAsync(ScReal_cuMemcpyHtoDAsync real, CUdeviceptr dst, const void *src,
                              size_t bytes, CUstream stream)
{
    CUresult r = real(dst, src, bytes, stream);
    copy_writes(r, stream, dst, bytes);
    return r;
}

CUresult on_cuMemcpyDtoHAsync(ScReal_cuMemcpyDtoHAsync real, void *dst, CUdeviceptr src, size_t bytes,
                              CUstream stream)
{
    CUresult r = real(dst, src, bytes, stream);
    copy_reads(r, stream, src, bytes);
    return r;
}

CUresult on_cuMemcpyDtoDAsync(ScReal_cuMemcpyDtoDAsync real, CUdeviceptr dst, CUdeviceptr src,
                              size_t bytes, CUstream stream)
{
    CUresult r = real(dst, src, bytes, stream);
    copy_both(r, stream, dst, src, bytes);
    return r;
}

CUresult on_cuMemcpy2DAsync(ScReal_cuMemcpy2DAsync real, const CUDA_MEMCPY2D *copy, CUstream stream)
{
    CUresult r = real(copy, stream);
    ScHostCopy ranges[2];
    sc_streams_copy(r, stream, ranges, copy ? sc_hostrt_memcpy2d_ranges(copy, ranges) : 0);
    return r;
}

CUresult on_cuMemcpy3DAsync(ScReal_cuMemcpy3DAsync real, const CUDA_MEMCPY3D *copy, CUstream stream)
{
    CUresult r = real(copy, stream);
    ScHostCopy ranges[2];
    sc_streams_copy(r, stream, ranges, copy ? sc_hostrt_memcpy3d_ranges(copy, ranges) : 0);
    return r;
}

CUresult on_cuMemsetD2D8(ScReal_cuMemsetD2D8 real, CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                        size_t height)
{
    CUresult r = real(dst, pitch, value, width, height);
    memset_2d(r, NULL, dst, pitch, width, height);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemsetD2D16(ScReal_cuMemsetD2D16 real, CUdeviceptr dst, size_t pitch, unsigned short value, size_t width,
                        size_t height)
{
    CUresult r = real(dst, pitch, value, width, height);
    memset_2d(r, NULL, dst, pitch, width * 2, height);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemsetD2D32(ScReal_cuMemsetD2D32 real, CUdeviceptr dst, size_t pitch, unsigned int value, size_t width,
                        size_t height)
{
    CUresult r = real(dst, pitch, value, width, height);
    memset_2d(r, NULL, dst, pitch, width * 4, height);
    host_waits_stream(r, NULL);
    return r;
}

CUresult on_cuMemsetD2D8Async(ScReal_cuMemsetD2D8Async real, CUdeviceptr dst, size_t pitch, unsigned char value,
                             size_t width, size_t height, CUstream stream)
{
    CUresult r = real(dst, pitch, value, width, height, stream);
    memset_2d(r, stream, dst, pitch, width, height);
    return r;
}

CUresult on_cuMemsetD2D16Async(ScReal_cuMemsetD2D16Async real, CUdeviceptr dst, size_t pitch, unsigned short value,
                             size_t width, size_t height, CUstream stream)
{
    CUresult r = real(dst, pitch, value, width, height, stream);
    memset_2d(r, stream, dst, pitch, width * 2, height);
    return r;
}

CUresult on_cuMemsetD2D32Async(ScReal_cuMemsetD2D32Async real, CUdeviceptr dst, size_t pitch, unsigned int value,
                             size_t width, size_t height, CUstream stream)
{
    CUresult r = real(dst, pitch, value, width, height, stream);
    memset_2d(r, stream, dst, pitch, width * 4, height);
    return r;
}

CUresult on_cuMemsetD8Async(ScReal_cuMemsetD8Async real, CUdeviceptr dst, unsigned char value,
                            size_t n, CUstream stream)
{
    CUresult r = real(dst, value, n, stream);
    copy_writes(r, stream, dst, n);
    return r;
}

CUresult on_cuMemsetD16Async(ScReal_cuMemsetD16Async real, CUdeviceptr dst, unsigned short value,
                             size_t n, CUstream stream)
{
    CUresult r = real(dst, value, n, stream);
    copy_writes(r, stream, dst, 2 * n);
    return r;
}

CUresult on_cuMemsetD32Async(ScReal_cuMemsetD32Async real, CUdeviceptr dst, unsigned int value,
                             size_t n, CUstream stream)
{
    CUresult r = real(dst, value, n, stream);
    copy_writes(r, stream, dst, 4 * n);
    return r;
}

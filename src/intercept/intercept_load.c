/* intercept_load.c: every way a program hands code to the driver, routed through
 * scord's own loader: the PTX scord controls goes to the driver in place of the
 * program's image, and the original image runs (with one diagnostic) whenever
 * scord cannot read it or the driver rejects scord's PTX. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devrt/devrt.h"
#include "instr/instr.h"
#include "intercept/intercept.h"
#include "intercept/intercept_compile.h"
#include "intercept/intercept_triton.h"
#include "ptx/ptx.h"
#include "report/report.h"

/* What SCORD_FAULT=reject_ptx hands the driver in place of scord's code, so that
 * tests can check the fallback to the original image on a real driver. */
#define FAULT_IMAGE "scord fault injection: this is not PTX"

/* Largest code file scord reads itself; bigger ones go to the driver untouched. */
#define MAX_CODE_FILE ((size_t)1 << 30)

int sc_current_device_attribute(CUdevice_attribute attr)
{
    ScDriver *d = &sc_ctx.drv;
    CUdevice dev;
    if (!sc_planned_device(&dev))
        return -1;
    int value;
    if (!d->device_get_attribute || d->device_get_attribute(&value, attr, dev) != CUDA_SUCCESS)
        return -1;
    return value;
}

int sc_current_device_sm(void)
{
    int major = sc_current_device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    int minor = sc_current_device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    return major < 0 || minor < 0 ? 0 : major * 10 + minor;
}

int sc_current_device_sm_count(void)
{
    int n = sc_current_device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    return n < 0 ? 0 : n;
}

/* The device runtime for the current device (its 128-bit atomics from sm_90 on). */
static const char *runtime_ptx(void)
{
    return sc_devrt_ptx_for(sc_current_device_sm());
}

/* The same, as one more input of a link. */
static ScLinkInput runtime_input(void)
{
    const char *rt = runtime_ptx();
    return (ScLinkInput){true, (uint8_t *)rt, strlen(rt)};
}

/* The runtime scord links a module it compiles itself with: the cubin the build made
 * for the device, whose link takes milliseconds where compiling the runtime's PTX took
 * seconds per module, or the PTX where there is none. Not for the program's own link
 * sessions, whose options (a target, a register limit) scord does not choose. */
static ScLinkInput runtime_link_input(void)
{
    const ScDevrtCubin *c = sc_devrt_cubin_for(sc_current_device_sm());
    if (!c)
        return runtime_input();
    return (ScLinkInput){false, (uint8_t *)c->data, (size_t)(c->end - c->data)};
}

/* The runtime for m's compile. The prebuilt cubin's functions use up to 64 registers,
 * and the JIT, which compiles each function apart, refuses a kernel whose own limit is
 * lower (`.maxnreg`, or `__launch_bounds__` with a minimum of blocks per SM: "entry
 * function ... with max regcount of 32 calls function ... with regcount of 54"); for
 * such a module, the runtime's PTX compiled within the kernel's limit
 * (m->max_registers, sc_instr_register_limit). */
static ScLinkInput runtime_for(const ScModuleRec *m)
{
    if (m->max_registers && m->max_registers < SC_DEVRT_CUBIN_REGS) {
        sc_vlog("scord: %s: a kernel may use at most %u registers, fewer than scord's prebuilt device "
                "runtime: compiling the runtime's PTX within that limit\n",
                m->origin, m->max_registers);
        return runtime_input();
    }
    return runtime_link_input();
}

/* The PTX Triton generated for the cubin with SHA-256 `hash`, from its cache
 * (intercept_triton.c); NULL when the cubin is not one of its cache's. */
static char *triton_twin_for(const uint8_t hash[SC_SHA256_LEN])
{
    static ScTritonIndex *index;
    static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
    ScBuf cache = {0};
    char *ptx = NULL;
    if (sc_triton_cache_dir(getenv("TRITON_CACHE_DIR"), getenv("HOME"), &cache)) {
        pthread_mutex_lock(&index_lock);
        ptx = sc_triton_ptx_for(&index, cache.data, hash);
        pthread_mutex_unlock(&index_lock);
    }
    sc_buf_free(&cache);
    return ptx;
}

/* A cubin with no PTX that scord knows the PTX of: the twin of an NVRTC program, or the
 * PTX Triton made it from. Used only when it defines every kernel of the cubin: loaded
 * instead, it must leave none of the program's undefined. */
static void plan_twin(ScLoadPlan *plan, const void *image, size_t avail)
{
    uint8_t hash[SC_SHA256_LEN];
    if (!sc_plan_cubin_hash(image, avail, hash))
        return;
    const char *from = NULL;
    char *twin = sc_twin_for(hash, &from);
    if (!twin && sc_ctx.triton_ptx) {
        from = "the PTX Triton made it from (Triton's cache)";
        twin = triton_twin_for(hash);
    }
    const char *missing = NULL;
    if (twin && !sc_plan_ptx_defines(twin, &plan->kernels, &missing)) {
        snprintf(plan->reason, sizeof plan->reason, "%s lacks its kernel %s", from, missing);
        free(twin);
        return;
    }
    if (twin) {
        plan->verdict = SC_PLAN_PTX;
        plan->ptx = twin;
        plan->ptx_len = strlen(twin);
        snprintf(plan->chosen, sizeof plan->chosen, "%s", from);
    }
}

static ScModuleRec *new_module(const char *origin, const void *image, size_t avail)
{
    ScModuleRec *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->origin = origin;
    int sm = sc_current_device_sm();
    sc_plan_image(image, avail, sm > 0 ? (unsigned)sm : 75, &m->plan);
    if (m->plan.verdict == SC_PLAN_UNCHECKED)
        plan_twin(&m->plan, image, avail);
    return m;
}

static ScLinkRec *find_link(CUlinkState state)
{
    for (size_t i = 0; i < sc_ctx.n_links; i++)
        if (sc_ctx.links[i].state == state)
            return &sc_ctx.links[i];
    return NULL;
}

/* A cubin that one of the program's cuLink sessions made from scord's PTX. */
static bool cubin_is_ours(const void *image)
{
    bool ours = false;
    pthread_mutex_lock(&sc_ctx.lock);
    for (size_t i = 0; i < sc_ctx.n_links; i++)
        if (sc_ctx.links[i].cubin == image && image)
            ours = sc_ctx.links[i].inputs_unchecked == 0 && sc_ctx.links[i].inputs_ours > 0;
    pthread_mutex_unlock(&sc_ctx.lock);
    return ours;
}

static bool plan_has_ptx(const ScLoadPlan *p)
{
    return p->verdict == SC_PLAN_PTX || p->verdict == SC_PLAN_LINK;
}

static void free_instr_link(ScModuleRec *m)
{
    for (size_t i = 0; m->instr_link && i < m->plan.n_link; i++)
        if (m->plan.link[i].is_ptx)
            free(m->instr_link[i].data);
    free(m->instr_link);
    m->instr_link = NULL;
    m->n_instr_link = 0;
}

static void free_module(ScModuleRec *m)
{
    free_instr_link(m);
    sc_plan_free(&m->plan);
    free(m->linked);
    free(m->instr_ptx);
    for (size_t i = 0; i < m->n_globals; i++)
        free(m->globals[i]);
    free(m->globals);
    free(m);
}

/* Records the module and prints what happened to it. Takes ownership of m. */
static void record_module(ScModuleRec *m, bool loaded_ours, CUresult ours_result)
{
    m->loaded_ours = loaded_ours;
    if (plan_has_ptx(&m->plan) && !loaded_ours)
        snprintf(m->fallback, sizeof m->fallback, "the driver rejected scord's PTX (%s)",
                 sc_cu_error(ours_result));
    pthread_mutex_lock(&sc_ctx.lock);
    if (sc_ctx.n_modules == sc_ctx.cap_modules) {
        size_t cap = sc_ctx.cap_modules ? 2 * sc_ctx.cap_modules : 16;
        ScModuleRec **v = realloc(sc_ctx.modules, cap * sizeof *v);
        if (v) {
            sc_ctx.modules = v;
            sc_ctx.cap_modules = cap;
        }
    }
    m->id = (unsigned)sc_ctx.n_modules + 1;
    bool kept = sc_ctx.n_modules < sc_ctx.cap_modules;
    if (kept)
        sc_ctx.modules[sc_ctx.n_modules++] = m;
    pthread_mutex_unlock(&sc_ctx.lock);

    const ScLoadPlan *p = &m->plan;
    if (loaded_ours) {
        sc_vlog("scord: module %u (%s, %s) loaded from PTX: %s\n", m->id, m->origin, p->what,
                p->chosen);
    } else if (plan_has_ptx(p)) {
        sc_log("scord: module %u (%s, %s) runs unchecked: %s\n", m->id, m->origin, p->what,
               m->fallback);
    } else if (p->verdict == SC_PLAN_UNREADABLE) {
        sc_log("scord: module %u (%s) runs unchecked: %s\n", m->id, m->origin, p->reason);
    } else {
        char hint[256];
        sc_plan_rebuild_hint(p, hint, sizeof hint);
        sc_vlog("scord: module %u (%s, %s) unchecked: %s; %s\n", m->id, m->origin, p->what,
                p->reason, hint);
    }
    if (!kept)
        free_module(m);
}

/* A module whose image scord did not plan because it is the output of a cuLink
 * of scord's own PTX. */
static void record_linked(const char *origin)
{
    ScModuleRec *m = calloc(1, sizeof *m);
    if (!m)
        return;
    m->origin = origin;
    m->plan.verdict = SC_PLAN_PTX;
    m->plan.kind = SC_IMAGE_ELF;
    snprintf(m->plan.what, sizeof m->plan.what, "cubin that cuLink made from scord's PTX");
    snprintf(m->plan.chosen, sizeof m->plan.chosen, "linked from scord's PTX");
    record_module(m, true, CUDA_SUCCESS);
}

/* Notes, under the lock, whether each kernel of an instrumented unit may let its
 * programmatic dependents begin before it ends. */
static bool note_kernels(const ScInstrResult *res, ScErr *err)
{
    for (uint32_t k = 0; k < res->n_kernels; k++) {
        const ScInstrKernel *ik = &res->kernels[k];
        size_t i = 0;
        while (i < sc_ctx.n_kernel_traits && strcmp(sc_ctx.kernel_traits[i].name, ik->name) != 0)
            i++;
        if (i < sc_ctx.n_kernel_traits) {
            ScKernelTrait *t = &sc_ctx.kernel_traits[i];
            t->triggers_dependents |= ik->triggers_dependents;
            if (t->roots.n != ik->roots.n || t->roots.written != ik->roots.written ||
                memcmp(t->roots.at, ik->roots.at, ik->roots.n * sizeof *ik->roots.at) != 0)
                t->roots.n = 0;
            continue;
        }
        if (sc_ctx.n_kernel_traits == sc_ctx.cap_kernel_traits) {
            size_t cap = sc_ctx.cap_kernel_traits ? 2 * sc_ctx.cap_kernel_traits : 64;
            ScKernelTrait *t = realloc(sc_ctx.kernel_traits, cap * sizeof *t);
            if (!t)
                return sc_err_set(err, "out of memory");
            sc_ctx.kernel_traits = t;
            sc_ctx.cap_kernel_traits = cap;
        }
        char *name = strdup(ik->name);
        if (!name)
            return sc_err_set(err, "out of memory");
        ScKernelTrait *t = &sc_ctx.kernel_traits[sc_ctx.n_kernel_traits++];
        *t = (ScKernelTrait){name, ik->triggers_dependents, ik->roots};
    }
    return true;
}

const ScKernelTrait *sc_kernel_trait(const char *name)
{
    for (size_t i = 0; i < sc_ctx.n_kernel_traits; i++)
        if (strcmp(sc_ctx.kernel_traits[i].name, name) == 0)
            return &sc_ctx.kernel_traits[i];
    return NULL;
}

bool sc_kernel_never_triggers(const char *name)
{
    const ScKernelTrait *t = sc_kernel_trait(name);
    return t && !t->triggers_dependents;
}

/* Registers the sites of an instrumented module with the report; the caller
 * holds the context lock. */
static bool add_sites(const ScInstrResult *res, ScErr *err)
{
    size_t need = (size_t)sc_ctx.next_site + res->n_sites;
    if (need > sc_ctx.cap_site_infos) {
        size_t cap = need > 2 * sc_ctx.cap_site_infos ? need : 2 * sc_ctx.cap_site_infos;
        uint32_t *infos = realloc(sc_ctx.site_infos, cap * sizeof *infos);
        if (!infos)
            return sc_err_set(err, "out of memory");
        memset(infos + sc_ctx.cap_site_infos, 0, (cap - sc_ctx.cap_site_infos) * sizeof *infos);
        sc_ctx.site_infos = infos;
        sc_ctx.cap_site_infos = cap;
    }
    for (uint32_t i = 0; i < res->n_sites; i++) {
        const ScInstrSite *s = &res->sites[i];
        bool access = s->kind == SC_INSTR_SITE_ACCESS || s->kind == SC_INSTR_SITE_ASYNC_COPY;
        if (access && s->id < sc_ctx.cap_site_infos)
            sc_ctx.site_infos[s->id] = s->info;
        ScReportFrame frames[16];
        uint32_t n = s->n_frames < 16 ? s->n_frames : 16;
        for (uint32_t f = 0; f < n; f++)
            frames[f] = (ScReportFrame){s->frames[f].function, s->frames[f].path,
                                        s->frames[f].line, s->frames[f].col};
        ScReportControlDep deps[SC_INSTR_MAX_CONTROL_DEPS];
        for (uint32_t d = 0; d < s->n_deps; d++)
            deps[d] = (ScReportControlDep){s->deps[d].branch, s->deps[d].arm};
        ScReportSite site = {.ptx_function = s->function, .ptx_line = s->ptx_line,
                             .frames = frames, .n_frames = n, .function_id = s->function_id,
                             .deps = deps, .n_deps = s->n_deps,
                             .async_copy = s->kind == SC_INSTR_SITE_ASYNC_COPY};
        if (!sc_report_add_site(sc_ctx.report, s->id, &site, err))
            return false;
    }
    return true;
}

/* One PTX text instrumented, with its sites registered; `define` links the runtime
 * into it, otherwise it only declares the runtime (one input of several). The caller
 * holds sc_ctx.lock. */
/* Keeps the names of the .global variables pm defines: its __device__ and __managed__
 * variables, whose addresses the driver gives once the module is loaded. */
static bool keep_globals(ScModuleRec *m, const ScPtxModule *pm, ScErr *err)
{
    for (const ScPtxItem *it = pm->first; it; it = it->next) {
        const ScPtxVar *v = &it->u.var;
        if (it->kind != SC_PTX_ITEM_VAR || strcmp(v->space, "global") != 0 || v->linkage == SC_PTX_LINK_EXTERN)
            continue;
        for (uint32_t i = 0; i < v->n_decls; i++) {
            char **grown = realloc(m->globals, (m->n_globals + 1) * sizeof *grown);
            char *name = strdup(v->decls[i].name);
            if (grown)
                m->globals = grown;
            if (!grown || !name) {
                free(name);
                return sc_err_set(err, "out of memory");
            }
            m->globals[m->n_globals++] = name;
        }
    }
    return true;
}

/* The instrumented text of one module or translation unit, declaring the runtime,
 * which the link adds as an input of its own (runtime_for); lowers m->max_registers to
 * the limit of the text's kernels. */
static char *instrument_text(ScModuleRec *m, const char *ptx, size_t len, bool whole, ScInstrResult *res,
                             ScErr *err)
{
    ScBuf out = {0};
    /* Not in a unit of a link (-rdc, cuLink): a function of another unit it calls may
     * issue copies that land after the caller's next barrier, which the unit's own
     * walk cannot see (instr_prune.c). */
    ScInstrOpts opts = {.site_base = sc_ctx.next_site, .prune = sc_ctx.prune && whole, .quick = sc_ctx.quick};
    ScPtxModule *pm = sc_ptx_parse(ptx, len, "module", err);
    unsigned limit = pm ? sc_instr_register_limit(pm, SC_DEVRT_CUBIN_REGS) : SC_DEVRT_CUBIN_REGS;
    bool ok = pm && keep_globals(m, pm, err) && sc_instr_module(pm, &opts, res, err) &&
              sc_instr_declare_runtime(pm, runtime_ptx(), err) &&
              sc_ptx_print(pm, &out) && !out.oom && add_sites(res, err) && note_kernels(res, err);
    if (ok && whole)
        m->site_base = opts.site_base;
    if (ok && (!m->max_registers || limit < m->max_registers))
        m->max_registers = limit;
    if (ok)
        sc_ctx.next_site += res->n_sites;
    if (pm)
        sc_ptx_module_free(pm);
    if (!ok) {
        sc_buf_free(&out);
        return NULL;
    }
    return sc_buf_take(&out);
}

/* The inputs scord links for a linked plan (-rdc): every translation unit's PTX
 * instrumented, declaring the runtime, and the runtime's PTX as one more input that
 * defines it once for all of them. On failure the plan's own inputs, uninstrumented,
 * with the reason kept for the run summary. */
static const ScLinkInput *instrument_link(ScModuleRec *m, size_t *n)
{
    *n = m->plan.n_link;
    if (!sc_ctx.detect || !sc_ctx.report)
        return m->plan.link;
    ScErr err = {0};
    ScInstrResult res = {0};
    unsigned access = 0, kernels = 0;
    bool ok = (m->instr_link = calloc(m->plan.n_link + 1, sizeof *m->instr_link)) != NULL;
    if (!ok)
        sc_err_set(&err, "out of memory while instrumenting");
    pthread_mutex_lock(&sc_ctx.lock);
    for (size_t i = 0; ok && i < m->plan.n_link; i++) {
        const ScLinkInput *in = &m->plan.link[i];
        m->instr_link[i] = *in;
        if (!in->is_ptx)
            continue;
        char *text = instrument_text(m, (const char *)in->data, strlen((const char *)in->data), false,
                                     &res, &err);
        m->instr_link[i].data = (uint8_t *)text;
        ok = text != NULL;
        if (ok) {
            m->instr_link[i].len = strlen(text);
            access += res.n_access;
            kernels += res.n_kernels;
        }
        sc_instr_result_free(&res);
        res = (ScInstrResult){0};
    }
    pthread_mutex_unlock(&sc_ctx.lock);
    if (!ok) {
        snprintf(m->instr_error, sizeof m->instr_error, "%s",
                 err.set ? err.msg : "out of memory while instrumenting");
        free_instr_link(m); /* a PTX input holds its own text, or NULL where it failed */
        return m->plan.link;
    }
    m->instr_link[m->plan.n_link] = runtime_for(m);
    m->n_instr_link = m->plan.n_link + 1;
    m->instrumented = true;
    sc_vlog("scord: linked module instrumented: %u access sites in %u kernels\n", access, kernels);
    *n = m->n_instr_link;
    return m->instr_link;
}

/* The PTX scord loads for a module: instrumented, declaring the runtime (`whole`: a
 * module of its own, not a unit of a link session), or when it cannot be, the plain
 * PTX with the reason kept for the run summary. */
static const char *instrument(ScModuleRec *m, bool whole)
{
    if (!sc_ctx.detect || !sc_ctx.report)
        return m->plan.ptx;
    ScErr err = {0};
    ScInstrResult res = {0};
    pthread_mutex_lock(&sc_ctx.lock);
    m->instr_ptx = instrument_text(m, m->plan.ptx, m->plan.ptx_len, whole, &res, &err);
    bool ok = m->instr_ptx != NULL;
    if (ok)
        m->instrumented = true;
    else
        snprintf(m->instr_error, sizeof m->instr_error, "%s",
                 err.set ? err.msg : "out of memory while instrumenting");
    pthread_mutex_unlock(&sc_ctx.lock);
    if (ok)
        sc_vlog("scord: module instrumented: %u access, %u barrier, %u __syncwarp, %u fence, "
                "%u mbarrier, %u async-copy sites, %u kernels; %u reads proven race-free left out, "
                "%u global reads left out by launches that write none of their allocations\n",
                res.n_access, res.n_barrier, res.n_syncwarp, res.n_fence, res.n_mbarrier, res.n_async,
                res.n_kernels, res.n_pruned, res.n_rooted);
    sc_instr_result_free(&res);
    return ok ? m->instr_ptx : m->plan.ptx;
}

/* The JIT refused the module's instrumented code: it is loaded plain, unchecked. */
static void drop_instrumentation(ScModuleRec *m, CUresult r)
{
    snprintf(m->instr_error, sizeof m->instr_error, "the driver rejected the instrumented PTX (%s)",
             sc_cu_error(r));
    m->instrumented = false;
}

/* Errors with which the JIT refuses code (as opposed to, say, no current context). */
static bool is_rejection(CUresult r)
{
    return r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_IMAGE ||
           r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
           r == CUDA_ERROR_INVALID_SOURCE || r == CUDA_ERROR_JIT_COMPILATION_DISABLED;
}

/* Compiles PTX text to a cubin now (malloc'd in *cubin), or finds it in the cache
 * (max_registers as sc_compile takes it). */
static CUresult compile_ptx(const char *origin, const char *ptx, unsigned max_registers, void **cubin)
{
    ScLinkInput in = {true, (uint8_t *)ptx, strlen(ptx)};
    return sc_compile(origin, &in, 1, max_registers, cubin);
}

/* The module instrumented again as instrument() did it (the same site numbers: the
 * instrumentation depends on nothing else), with the runtime's PTX appended, to
 * compile whole (malloc'd; NULL if it cannot be made). Only for a link the driver
 * refused, so the common load pays for no second text. */
static char *whole_text(const ScModuleRec *m)
{
    ScErr err = {0};
    ScBuf out = {0};
    ScInstrResult res = {0};
    ScInstrOpts opts = {.site_base = m->site_base, .prune = sc_ctx.prune, .quick = sc_ctx.quick};
    ScPtxModule *pm = sc_ptx_parse(m->plan.ptx, m->plan.ptx_len, "module", &err);
    bool ok = pm && sc_instr_module(pm, &opts, &res, &err) && sc_instr_link_runtime(pm, runtime_ptx(), &err) &&
              sc_ptx_print(pm, &out) && !out.oom;
    sc_instr_result_free(&res);
    if (pm)
        sc_ptx_module_free(pm);
    if (!ok) {
        sc_buf_free(&out);
        return NULL;
    }
    return sc_buf_take(&out);
}

/* Compiles a module's instrumented PTX into m->linked: linked with the runtime
 * (runtime_for), or where the link is refused, whole with the runtime's PTX appended. */
static CUresult compile_instrumented(ScModuleRec *m, const char *ptx)
{
    ScLinkInput in[2] = {{true, (uint8_t *)ptx, strlen(ptx)}, runtime_for(m)};
    CUresult r = sc_compile(m->origin, in, 2, m->max_registers, &m->linked);
    if (r == CUDA_SUCCESS || !is_rejection(r))
        return r;
    char *whole = whole_text(m);
    if (!whole)
        return r;
    sc_vlog("scord: %s: the module did not link with scord's device runtime (%s); compiling it whole with "
            "the runtime's PTX\n",
            m->origin, sc_cu_error(r));
    r = compile_ptx(m->origin, whole, m->max_registers, &m->linked);
    free(whole);
    return r;
}

/* What scord hands the driver for a module with PTX: the cubin of its instrumented
 * PTX and the runtime, compiled here (or taken from the disk cache), so that a
 * rejection is seen at load time even when the driver would load lazily and compile
 * at the first launch, where no fallback is possible. Instrumented PTX the JIT
 * refuses is replaced by the plain PTX; plain PTX it refuses, or a compile that fails
 * for another reason (no context could be made current for it), means the original
 * image (NULL, *result says why). */
static const void *compiled_image(ScModuleRec *m, CUresult *result)
{
    const char *ptx = instrument(m, true);
    CUresult r;
    if (sc_ctx.fault_reject_ptx)
        r = compile_ptx(m->origin, FAULT_IMAGE, 0, &m->linked);
    else if (m->instrumented)
        r = compile_instrumented(m, ptx);
    else
        r = compile_ptx(m->origin, ptx, 0, &m->linked);
    if (r == CUDA_SUCCESS)
        return m->linked;
    if (m->instrumented && !sc_ctx.fault_reject_ptx && is_rejection(r)) {
        /* The program still runs from scord's loader, only unchecked. */
        drop_instrumentation(m, r);
        r = compile_ptx(m->origin, m->plan.ptx, 0, &m->linked);
        if (r == CUDA_SUCCESS)
            return m->linked;
    }
    *result = r;
    return NULL;
}

/* The cubin scord links for a linked plan, instrumented if it can be: with the
 * prebuilt runtime (runtime_for), else (or where the link refuses it) with the
 * runtime's PTX; instrumented inputs the JIT refuses are linked again as planned,
 * uninstrumented. */
static const void *linked_image(ScModuleRec *m, CUresult *result)
{
    size_t n;
    const ScLinkInput *in = instrument_link(m, &n);
    CUresult r = sc_compile(m->origin, in, n, m->instrumented ? m->max_registers : 0, &m->linked);
    if (r != CUDA_SUCCESS && m->instrumented && is_rejection(r) && !m->instr_link[n - 1].is_ptx) {
        m->instr_link[n - 1] = runtime_input();
        r = sc_compile(m->origin, m->instr_link, n, m->max_registers, &m->linked);
    }
    if (r != CUDA_SUCCESS && m->instrumented && is_rejection(r)) {
        drop_instrumentation(m, r);
        free_instr_link(m);
        r = sc_compile(m->origin, m->plan.link, m->plan.n_link, 0, &m->linked);
    }
    *result = r;
    return r == CUDA_SUCCESS ? m->linked : NULL;
}

/* One load call of the program, replayed with an image of scord's choosing. */
typedef CUresult (*ScLoadFn)(void *call, const void *image);

/* Where a load call leaves what it loaded: a module or a library. */
typedef struct Loaded {
    CUmodule *module;
    CUlibrary *library;
} Loaded;

/* Asks the driver for the addresses of a module's .global variables and tracks them
 * like allocations, so that accesses to them are checked. Without a current context
 * (a library loaded before the program made one) they are asked for again before
 * the next checked launch; a variable the driver will not place is said once. */
static void track_globals(ScModuleRec *m, bool again)
{
    const ScDriver *d = &sc_ctx.drv;
    size_t untracked = 0;
    CUresult why = CUDA_SUCCESS;
    for (size_t i = 0; i < m->n_globals; i++) {
        CUdeviceptr p = 0;
        size_t bytes = 0;
        CUresult r = CUDA_ERROR_NOT_SUPPORTED;
        if (m->module && d->module_get_global)
            r = d->module_get_global(&p, &bytes, m->module, m->globals[i]);
        else if (m->library && d->library_get_global)
            r = d->library_get_global(&p, &bytes, m->library, m->globals[i]);
        if (r == CUDA_ERROR_INVALID_CONTEXT && !again) {
            m->globals_pending = true;
            return;
        }
        if (r == CUDA_SUCCESS && bytes) {
            sc_track_alloc((uint64_t)p, bytes, SC_ALLOC_MODULE_VAR);
        } else if (r != CUDA_SUCCESS) {
            untracked++;
            why = r;
        }
    }
    if (untracked)
        sc_log("scord: %zu of the %zu __device__ variables of a module (%s, %s) are not checked: the driver "
               "did not give their addresses (%s)\n",
               untracked, m->n_globals, m->origin, m->plan.what, sc_cu_error(why));
}

void sc_track_pending_globals(void)
{
    if (!__atomic_load_n(&sc_ctx.modules_pending, __ATOMIC_ACQUIRE))
        return;
    /* Records stay put; the array of them may move, so it is read under the lock
     * (which tracking takes itself). */
    ScModuleRec *pending[16];
    size_t n = 0;
    pthread_mutex_lock(&sc_ctx.lock);
    for (size_t i = 0; i < sc_ctx.n_modules && n < SC_ARRAY_LEN(pending); i++)
        if (__atomic_load_n(&sc_ctx.modules[i]->globals_pending, __ATOMIC_ACQUIRE))
            pending[n++] = sc_ctx.modules[i];
    pthread_mutex_unlock(&sc_ctx.lock);
    for (size_t i = 0; i < n; i++) {
        /* One thread asks, once: another launching meanwhile finds it claimed. */
        if (!__atomic_exchange_n(&pending[i]->globals_pending, false, __ATOMIC_ACQ_REL))
            continue;
        __atomic_fetch_sub(&sc_ctx.modules_pending, 1, __ATOMIC_ACQ_REL);
        track_globals(pending[i], true);
    }
}

static CUresult load_through_plan(const char *origin, const void *image, size_t avail,
                                  ScLoadFn load_ours, ScLoadFn load_original, void *call, Loaded at)
{
    if (cubin_is_ours(image)) {
        CUresult r = load_original(call, image);
        if (r == CUDA_SUCCESS)
            record_linked(origin);
        return r;
    }
    ScModuleRec *m = new_module(origin, image, avail);
    if (!m)
        return load_original(call, image);
    CUresult ours = CUDA_ERROR_UNKNOWN;
    const void *our_image = NULL;
    if (m->plan.verdict == SC_PLAN_PTX) {
        our_image = compiled_image(m, &ours);
    } else if (m->plan.verdict == SC_PLAN_LINK) {
        our_image = linked_image(m, &ours);
    }
    if (our_image) {
        ours = load_ours(call, our_image);
        if (ours == CUDA_SUCCESS) {
            bool pending = false;
            if (m->instrumented && sc_ctx.detect && m->n_globals) {
                m->module = at.module ? *at.module : NULL;
                m->library = at.library ? *at.library : NULL;
                track_globals(m, false);
                pending = m->globals_pending;
            }
            record_module(m, true, ours);
            if (pending)
                __atomic_fetch_add(&sc_ctx.modules_pending, 1, __ATOMIC_ACQ_REL);
            return ours;
        }
    }
    CUresult r = load_original(call, image);
    if (r == CUDA_SUCCESS || plan_has_ptx(&m->plan)) {
        record_module(m, false, ours);
    } else {
        free_module(m);
    }
    return r;
}

typedef struct {
    ScReal_cuModuleLoadData real;
    CUmodule *module;
} ModuleLoadDataCall;

static CUresult module_load_data(void *c, const void *image)
{
    ModuleLoadDataCall *call = c;
    return call->real(call->module, image);
}

CUresult on_cuModuleLoadData(ScReal_cuModuleLoadData real, CUmodule *module, const void *image)
{
    ModuleLoadDataCall call = {real, module};
    return load_through_plan("cuModuleLoadData", image, SIZE_MAX, module_load_data,
                             module_load_data, &call, (Loaded){module, NULL});
}

typedef struct {
    ScReal_cuModuleLoadDataEx real;
    CUmodule *module;
    unsigned int n_opts;
    CUjit_option *opts;
    void **vals;
} ModuleLoadDataExCall;

static CUresult module_load_data_ex(void *c, const void *image)
{
    ModuleLoadDataExCall *call = c;
    return call->real(call->module, image, call->n_opts, call->opts, call->vals);
}

CUresult on_cuModuleLoadDataEx(ScReal_cuModuleLoadDataEx real, CUmodule *module,
                               const void *image, unsigned int n_opts, CUjit_option *opts,
                               void **vals)
{
    ModuleLoadDataExCall call = {real, module, n_opts, opts, vals};
    return load_through_plan("cuModuleLoadDataEx", image, SIZE_MAX, module_load_data_ex,
                             module_load_data_ex, &call, (Loaded){module, NULL});
}

typedef struct {
    ScReal_cuModuleLoadFatBinary real;
    CUmodule *module;
} ModuleLoadFatBinaryCall;

/* cuModuleLoadFatBinary takes fat binaries only, so scord's PTX goes through
 * cuModuleLoadData, which yields the same kind of module. */
static CUresult module_load_fatbin_ours(void *c, const void *ptx)
{
    ModuleLoadFatBinaryCall *call = c;
    return sc_ctx.drv.module_load_data(call->module, ptx);
}

static CUresult module_load_fatbin_original(void *c, const void *image)
{
    ModuleLoadFatBinaryCall *call = c;
    return call->real(call->module, image);
}

CUresult on_cuModuleLoadFatBinary(ScReal_cuModuleLoadFatBinary real, CUmodule *module,
                                  const void *image)
{
    ModuleLoadFatBinaryCall call = {real, module};
    return load_through_plan("cuModuleLoadFatBinary", image, SIZE_MAX, module_load_fatbin_ours,
                             module_load_fatbin_original, &call, (Loaded){module, NULL});
}

typedef struct {
    ScReal_cuModuleLoad real;
    CUmodule *module;
    const char *path;
} ModuleLoadCall;

static CUresult module_load_ours(void *c, const void *ptx)
{
    ModuleLoadCall *call = c;
    return sc_ctx.drv.module_load_data(call->module, ptx);
}

static CUresult module_load_original(void *c, const void *image)
{
    (void)image;
    ModuleLoadCall *call = c;
    return call->real(call->module, call->path);
}

typedef struct {
    ScReal_cuLibraryLoadData real;
    CUlibrary *library;
    CUjit_option *jit_opts;
    void **jit_vals;
    unsigned int n_jit;
    CUlibraryOption *lib_opts;
    void **lib_vals;
    unsigned int n_lib;
} LibraryLoadDataCall;

static CUresult library_load_data(void *c, const void *image)
{
    LibraryLoadDataCall *call = c;
    return call->real(call->library, image, call->jit_opts, call->jit_vals, call->n_jit,
                      call->lib_opts, call->lib_vals, call->n_lib);
}

CUresult on_cuLibraryLoadData(ScReal_cuLibraryLoadData real, CUlibrary *library,
                              const void *code, CUjit_option *jit_opts, void **jit_vals,
                              unsigned int n_jit, CUlibraryOption *lib_opts, void **lib_vals,
                              unsigned int n_lib)
{
    LibraryLoadDataCall call = {real, library, jit_opts, jit_vals, n_jit, lib_opts, lib_vals, n_lib};
    return load_through_plan("cuLibraryLoadData", code, SIZE_MAX, library_load_data,
                             library_load_data, &call, (Loaded){NULL, library});
}

typedef struct {
    ScReal_cuLibraryLoadFromFile real;
    LibraryLoadDataCall data;
    const char *path;
} LibraryLoadFromFileCall;

static CUresult library_load_file_ours(void *c, const void *ptx)
{
    LibraryLoadFromFileCall *call = c;
    return library_load_data(&call->data, ptx);
}

static CUresult library_load_file_original(void *c, const void *image)
{
    (void)image;
    LibraryLoadFromFileCall *call = c;
    LibraryLoadDataCall *d = &call->data;
    return call->real(d->library, call->path, d->jit_opts, d->jit_vals, d->n_jit, d->lib_opts,
                      d->lib_vals, d->n_lib);
}

void *sc_read_code_file(const char *path, size_t *len)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    void *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && (size_t)n <= MAX_CODE_FILE && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc((size_t)n + 1);
            if (data && fread(data, 1, (size_t)n, f) == (size_t)n) {
                ((char *)data)[n] = '\0';
                *len = (size_t)n;
            } else {
                free(data);
                data = NULL;
            }
        }
    }
    fclose(f);
    return data;
}

/* The file variants read the file themselves so that the same plan applies;
 * a file scord cannot read goes to the driver by name, as the program asked. */
static CUresult load_file_through_plan(const char *origin, const char *path, ScLoadFn load_ours,
                                       ScLoadFn load_original, void *call, Loaded at)
{
    size_t len = 0;
    void *image = sc_read_code_file(path, &len);
    if (!image) {
        sc_vlog("scord: %s(\"%s\"): cannot read the file (%s); the driver loads it unchecked\n",
                origin, path ? path : "(null)", strerror(errno));
        return load_original(call, NULL);
    }
    CUresult r = load_through_plan(origin, image, len + 1, load_ours, load_original, call, at);
    free(image);
    return r;
}

CUresult on_cuModuleLoad(ScReal_cuModuleLoad real, CUmodule *module, const char *path)
{
    ModuleLoadCall call = {real, module, path};
    return load_file_through_plan("cuModuleLoad", path, module_load_ours, module_load_original,
                                  &call, (Loaded){module, NULL});
}

CUresult on_cuLibraryLoadFromFile(ScReal_cuLibraryLoadFromFile real, CUlibrary *library,
                                  const char *path, CUjit_option *jit_opts, void **jit_vals,
                                  unsigned int n_jit, CUlibraryOption *lib_opts, void **lib_vals,
                                  unsigned int n_lib)
{
    LibraryLoadFromFileCall call = {
        real, {NULL, library, jit_opts, jit_vals, n_jit, lib_opts, lib_vals, n_lib}, path};
    call.data.real = sc_driver_real("cuLibraryLoadData");
    if (!call.data.real)
        return real(library, path, jit_opts, jit_vals, n_jit, lib_opts, lib_vals, n_lib);
    return load_file_through_plan("cuLibraryLoadFromFile", path, library_load_file_ours,
                                  library_load_file_original, &call, (Loaded){NULL, library});
}

/* ---- cuLink: inputs go in as scord's PTX; the cubin it makes is scord's ---- */

/* The link session's record, made on first use; the caller holds the lock. */
static ScLinkRec *link_rec(CUlinkState state)
{
    ScLinkRec *l = find_link(state);
    if (l)
        return l;
    if (sc_ctx.n_links == sc_ctx.cap_links) {
        size_t cap = sc_ctx.cap_links ? 2 * sc_ctx.cap_links : 8;
        ScLinkRec *v = realloc(sc_ctx.links, cap * sizeof *v);
        if (!v)
            return NULL;
        sc_ctx.links = v;
        sc_ctx.cap_links = cap;
    }
    l = &sc_ctx.links[sc_ctx.n_links++];
    *l = (ScLinkRec){.state = state};
    return l;
}

static void count_link_input(CUlinkState state, bool ours)
{
    pthread_mutex_lock(&sc_ctx.lock);
    ScLinkRec *l = link_rec(state);
    if (l) {
        if (ours)
            l->inputs_ours++;
        else
            l->inputs_unchecked++;
    }
    pthread_mutex_unlock(&sc_ctx.lock);
}

/* The PTX a module adds to one of the program's link sessions: instrumented with the
 * runtime declared, once the session has the runtime's PTX as an input (added before
 * the first such unit, so that a session whose runtime input failed gets no unit that
 * needs it); otherwise the plain PTX. */
static const char *link_unit(ScReal_cuLinkAddData real, CUlinkState state, ScModuleRec *m)
{
    if (!sc_ctx.detect || !sc_ctx.report)
        return m->plan.ptx;
    pthread_mutex_lock(&sc_ctx.lock);
    ScLinkRec *l = link_rec(state);
    bool have = l && l->runtime_added;
    pthread_mutex_unlock(&sc_ctx.lock);
    if (!have) {
        ScLinkInput rt = runtime_input();
        CUresult r = sc_link_add_input(real, state, &rt, "scord device runtime", 0, NULL, NULL);
        if (r != CUDA_SUCCESS) {
            snprintf(m->instr_error, sizeof m->instr_error,
                     "the link session refused scord's device runtime (%s)", sc_cu_error(r));
            return m->plan.ptx;
        }
        pthread_mutex_lock(&sc_ctx.lock);
        if ((l = link_rec(state)))
            l->runtime_added = true;
        pthread_mutex_unlock(&sc_ctx.lock);
    }
    return instrument(m, false);
}

static CUresult link_add_image(ScReal_cuLinkAddData real, CUlinkState state, CUjitInputType type,
                               void *data, size_t size, const char *name, unsigned int n_opts,
                               CUjit_option *opts, void **vals, const char *origin)
{
    if (type != CU_JIT_INPUT_PTX && type != CU_JIT_INPUT_FATBINARY) {
        /* cubins, host objects and archives carry machine code scord cannot replace. */
        CUresult r = real(state, type, data, size, name, n_opts, opts, vals);
        if (r == CUDA_SUCCESS) {
            count_link_input(state, false);
            sc_vlog("scord: %s(\"%s\"): input of type %d is machine code; the linked module "
                    "runs unchecked\n",
                    origin, name ? name : "", (int)type);
        }
        return r;
    }
    ScModuleRec *m = new_module(origin, data, size ? size : SIZE_MAX);
    if (!m)
        return real(state, type, data, size, name, n_opts, opts, vals);
    CUresult ours = CUDA_ERROR_UNKNOWN;
    if (m->plan.verdict == SC_PLAN_PTX) {
        const char *ptx = link_unit(real, state, m);
        ours = real(state, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, name, n_opts, opts,
                    vals);
        if (ours != CUDA_SUCCESS && m->instrumented && is_rejection(ours)) {
            drop_instrumentation(m, ours);
            ours = real(state, CU_JIT_INPUT_PTX, m->plan.ptx, m->plan.ptx_len + 1, name, n_opts,
                        opts, vals);
        }
    } else if (m->plan.verdict == SC_PLAN_LINK) {
        /* A link session takes the translation units one by one. If one is refused,
         * the whole session fails, as it would have with the original input. They go
         * in uninstrumented: a unit the JIT refused instrumented could not be taken
         * out of the session again, where the original input would have linked. */
        ours = CUDA_SUCCESS;
        for (size_t i = 0; i < m->plan.n_link && ours == CUDA_SUCCESS; i++)
            ours = sc_link_add_input(real, state, &m->plan.link[i], name, n_opts, opts, vals);
        if (ours != CUDA_SUCCESS) {
            record_module(m, false, ours);
            return ours;
        }
    }
    if (plan_has_ptx(&m->plan)) {
        if (ours == CUDA_SUCCESS) {
            count_link_input(state, true);
            record_module(m, true, ours);
            return ours;
        }
    }
    CUresult r = real(state, type, data, size, name, n_opts, opts, vals);
    if (r == CUDA_SUCCESS)
        count_link_input(state, false);
    record_module(m, false, ours);
    return r;
}

CUresult on_cuLinkAddData(ScReal_cuLinkAddData real, CUlinkState state, CUjitInputType type,
                          void *data, size_t size, const char *name, unsigned int n_opts,
                          CUjit_option *opts, void **vals)
{
    return link_add_image(real, state, type, data, size, name, n_opts, opts, vals,
                          "cuLinkAddData");
}

CUresult on_cuLinkAddFile(ScReal_cuLinkAddFile real, CUlinkState state, CUjitInputType type,
                          const char *path, unsigned int n_opts, CUjit_option *opts, void **vals)
{
    size_t len = 0;
    void *data = NULL;
    if (type == CU_JIT_INPUT_PTX || type == CU_JIT_INPUT_FATBINARY)
        data = sc_read_code_file(path, &len);
    if (!data || !sc_ctx.drv.link_add_data) {
        CUresult r = real(state, type, path, n_opts, opts, vals);
        if (r == CUDA_SUCCESS)
            count_link_input(state, false);
        free(data);
        return r;
    }
    CUresult r = link_add_image(sc_ctx.drv.link_add_data, state, type, data, len + 1, path, n_opts,
                                opts, vals, "cuLinkAddFile");
    free(data);
    return r;
}

CUresult on_cuLinkComplete(ScReal_cuLinkComplete real, CUlinkState state, void **cubin,
                           size_t *size)
{
    CUresult r = real(state, cubin, size);
    if (r == CUDA_SUCCESS && cubin) {
        pthread_mutex_lock(&sc_ctx.lock);
        ScLinkRec *l = link_rec(state);
        if (l)
            l->cubin = *cubin;
        pthread_mutex_unlock(&sc_ctx.lock);
    }
    return r;
}

CUresult on_cuLinkDestroy(ScReal_cuLinkDestroy real, CUlinkState state)
{
    pthread_mutex_lock(&sc_ctx.lock);
    ScLinkRec *l = find_link(state);
    if (l)
        *l = sc_ctx.links[--sc_ctx.n_links];
    pthread_mutex_unlock(&sc_ctx.lock);
    return real(state);
}

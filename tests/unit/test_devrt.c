/* test_devrt.c: the device runtime as the library embeds it: it parses, defines every
 * call of devrt_abi.h with its parameters and nothing outside the __scord_ prefix,
 * takes the quick hook's warp-wide steps with one mask and no shuffle, assembles for
 * sm_75 and sm_90 alone and linked into a kernel, and nvcc lays out
 * devrt_state.h as the host compiler does; the metadata cache's tags and index, and
 * the shadow policy of devrt_policy.h. Nothing here runs on a GPU. */
#include "devrt/devrt.h"
#include "devrt/devrt_abi.h"
#include "devrt/devrt_policy.h"
#include "devrt/devrt_state.h"
#include "devrt/layout_fields.h"
#include "ptx/ptx.h"
#include "ptx_core/ptx_test_util.h"
#include "report/report.h"
#include "sc_test.h"

/* The calls of devrt_abi.h and their .param types, in order. */
static const struct {
    const char *name;
    const char *params[5];
    uint32_t n_params;
} abi[] = {
    {"__scord_access", {"b64", "b32", "b32", "b64"}, 4},
    {"__scord_access_quick", {"b64", "b32", "b32", "b64"}, 4},
    {"__scord_bar_arrive", {"b32", "b32", "b32"}, 3},
    {"__scord_bar_pass", {"b32", "b32", "b32"}, 3},
    {"__scord_syncwarp", {"b32", "b32"}, 2},
    {"__scord_entry", {"b32"}, 1},
    {"__scord_exit", {NULL}, 0},
    {"__scord_fence", {"b32", "b32"}, 2},
    {"__scord_sync", {"b64", "b32", "b32"}, 3},
    {"__scord_mbar", {"b64", "b32", "b32", "b32"}, 4},
    {"__scord_async_copy", {"b64", "b32", "b32"}, 3},
    {"__scord_async_group", {"b32"}, 1},
    {"__scord_bulk_copy", {"b64", "b32", "b64", "b32", "b32"}, 5},
    {"__scord_cluster_barrier", {"b32", "b32"}, 2},
};

static char dir[512];

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* The two embedded texts: the runtime for sm_75 and later, and for sm_90 and later. */
static const struct {
    const char *text;
    size_t len;
    const char *version, *target;
} runtimes[2] = {
    {sc_devrt_ptx, 0, "\n.version 6.3\n", "\n.target sm_75\n"},
    {sc_devrt_ptx_sm90, 0, "\n.version 8.3\n", "\n.target sm_90\n"},
};

static ScPtxModule *parse_runtime(size_t k)
{
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(runtimes[k].text, strlen(runtimes[k].text), "devrt.ptx", &err);
    if (!m)
        printf("parse error: %s\n", err.msg);
    return m;
}

/* Runs ptxas on text written to dir/name; prints the log when it fails. */
static int assemble(const char *name, const char *text, size_t len, const char *arch)
{
    char path[600], log[700];
    path_in(path, sizeof path, name);
    snprintf(log, sizeof log, "%s.%s.log", path, arch);
    if (ptxt_write_file(path, text, len) != 0)
        return -1;
    int rc = ptxt_run_ptxas(path, arch, log);
    if (rc != 0)
        ptxt_print_log(log);
    return rc;
}

TEST(embedded_text_is_whole)
{
    CHECK_INT(strlen(sc_devrt_ptx), sc_devrt_ptx_len);
    CHECK_INT(strlen(sc_devrt_ptx_sm90), sc_devrt_ptx_sm90_len);
    CHECK(sc_devrt_ptx_for(75) == sc_devrt_ptx);
    CHECK(sc_devrt_ptx_for(86) == sc_devrt_ptx);
    CHECK(sc_devrt_ptx_for(90) == sc_devrt_ptx_sm90);
    CHECK(sc_devrt_ptx_for(0) == sc_devrt_ptx);
    for (size_t k = 0; k < SC_ARRAY_LEN(runtimes); k++) {
        const char *t = runtimes[k].text;
        CHECK(strlen(t) > 1000);
        /* The embedder declares the lowest ISA the runtime needs and drops load hints
         * that would need a newer one. */
        CHECK(strstr(t, runtimes[k].version) != NULL);
        CHECK(strstr(t, runtimes[k].target) != NULL);
        CHECK(strstr(t, "\n.address_size 64\n") != NULL);
        CHECK(strstr(t, "used_bytes_mask") == NULL);
    }
    /* Only the sm_90 text swaps a word with its site word at once. */
    CHECK(strstr(sc_devrt_ptx_sm90, "cas.b128") != NULL);
    CHECK(strstr(sc_devrt_ptx, "cas.b128") == NULL);
}

static void define_abi(size_t k)
{
    ScPtxModule *m = parse_runtime(k);
    CHECK(m != NULL);
    if (!m)
        return;
    for (size_t i = 0; i < SC_ARRAY_LEN(abi); i++) {
        ScPtxFunc *f = sc_ptx_find_func(m, abi[i].name);
        CHECK(f != NULL);
        if (!f) {
            printf("  missing %s\n", abi[i].name);
            continue;
        }
        CHECK(f->linkage == SC_PTX_LINK_VISIBLE);
        CHECK(!f->is_entry);
        CHECK(f->has_body);
        CHECK_INT(0, f->n_rets);
        CHECK_INT(abi[i].n_params, f->n_params);
        for (uint32_t p = 0; p < f->n_params && p < abi[i].n_params; p++) {
            CHECK_STR("param", f->params[p].space);
            CHECK_STR(abi[i].params[p], f->params[p].type);
            CHECK_INT(0, f->params[p].vec);
        }
    }
    sc_ptx_module_free(m);
}

TEST(defines_every_abi_call_with_its_parameters)
{
    for (size_t k = 0; k < SC_ARRAY_LEN(runtimes); k++)
        define_abi(k);
}

/* The text joins user modules: every name it declares must be one of ours, it must
 * need nothing from outside, and its state must be the variables the host looks up. */
static void declare_only_scord_names(size_t k)
{
    ScPtxModule *m = parse_runtime(k);
    CHECK(m != NULL);
    if (!m)
        return;
    int funcs = 0, vars = 0;
    bool state = false, slot = false, slot_launch = false;
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind == SC_PTX_ITEM_FUNC) {
            const ScPtxFunc *f = it->u.func;
            funcs++;
            CHECK(strncmp(f->name, "__scord_", 8) == 0);
            CHECK(f->linkage != SC_PTX_LINK_EXTERN);
            CHECK(!f->is_entry);
            if (strncmp(f->name, "__scord_", 8) != 0)
                printf("  function %s\n", f->name);
        } else if (it->kind == SC_PTX_ITEM_VAR) {
            const ScPtxVar *v = &it->u.var;
            for (uint32_t d = 0; d < v->n_decls; d++) {
                vars++;
                CHECK(strncmp(v->decls[d].name, "__scord_", 8) == 0);
                CHECK(v->linkage != SC_PTX_LINK_EXTERN);
                if (strcmp(v->decls[d].name, "__scord_state") == 0) {
                    state = true;
                    CHECK_STR("global", v->space);
                    CHECK_STR("u64", v->type);
                    CHECK(v->linkage == SC_PTX_LINK_VISIBLE);
                    CHECK(v->decls[d].init == NULL);
                }
                if (strcmp(v->decls[d].name, "__scord_slot") == 0 ||
                    strcmp(v->decls[d].name, "__scord_slot_launch") == 0) {
                    *(strcmp(v->decls[d].name, "__scord_slot") == 0 ? &slot : &slot_launch) = true;
                    CHECK_STR("shared", v->space);
                    CHECK_STR("u32", v->type);
                }
            }
        }
    }
    CHECK(funcs >= (int)SC_ARRAY_LEN(abi));
    CHECK_INT(3, vars);
    CHECK(state);
    CHECK(slot);
    CHECK(slot_launch);
    sc_ptx_module_free(m);
}

TEST(declares_only_scord_names)
{
    for (size_t k = 0; k < SC_ARRAY_LEN(runtimes); k++)
        declare_only_scord_names(k);
}

/* The quick hook's warp-wide steps (DESIGN.md, "Calls in divergent code"): every lane
 * of the call takes each with the one mask its activemask gave, so each of the hook's
 * .sync instructions names that register as its member mask, and none is a shuffle:
 * the form that shared a read group's decision among the group's lanes with shuffles
 * hung CUB's segmented sort on the H200. */
static void quick_hook_masks(size_t k)
{
    ScPtxModule *m = parse_runtime(k);
    CHECK(m != NULL);
    ScPtxFunc *f = m ? sc_ptx_find_func(m, "__scord_access_quick") : NULL;
    CHECK(f != NULL);
    if (!f) {
        sc_ptx_module_free(m);
        return;
    }
    const char *mask = NULL;
    int steps = 0;
    for (const ScPtxStmt *s = f->first; s; s = s->next) {
        if (s->kind != SC_PTX_STMT_INSTR)
            continue;
        const ScPtxInstr *in = &s->u.instr;
        if (strcmp(in->opcode, "activemask") == 0) {
            CHECK(mask == NULL);
            mask = in->ops[0].text;
            continue;
        }
        CHECK(strcmp(in->opcode, "shfl") != 0);
        bool warp_wide = false;
        for (uint32_t i = 0; i < in->n_mods; i++)
            warp_wide = warp_wide || strcmp(in->mods[i], "sync") == 0;
        if (!warp_wide)
            continue;
        steps++;
        const ScPtxOperand *member = &in->ops[in->n_ops - 1];
        CHECK(mask != NULL && member->kind == SC_PTX_OPND_REG && strcmp(member->text, mask) == 0);
        if (!mask || strcmp(member->text, mask) != 0)
            printf("  %s at line %u: member mask %s, not the activemask's %s\n", in->opcode, s->pos.line,
                   member->text, mask ? mask : "(none yet)");
    }
    CHECK(steps >= 3); /* the two matches and __all_sync */
    sc_ptx_module_free(m);
}

TEST(quick_hook_takes_warp_steps_with_one_mask)
{
    for (size_t k = 0; k < SC_ARRAY_LEN(runtimes); k++)
        quick_hook_masks(k);
}

TEST(assembles_alone)
{
    CHECK_INT(0, assemble("runtime.ptx", sc_devrt_ptx, sc_devrt_ptx_len, "sm_75"));
    CHECK_INT(0, assemble("runtime.ptx", sc_devrt_ptx, sc_devrt_ptx_len, "sm_90"));
    CHECK_INT(0, assemble("runtime_sm90.ptx", sc_devrt_ptx_sm90, sc_devrt_ptx_sm90_len, "sm_90"));
}

/* Each prebuilt runtime is a relocatable CUDA ELF for its architecture (ELF64,
 * ET_REL, EM_CUDA; the SM in bits 8-15 of e_flags as ptxas of CUDA 13 writes them, in
 * bits 0-7 before),
 * and links, as the
 * driver links it, with a kernel that calls every function of devrt_abi.h
 * (caller.ptx, nvcc's -rdc PTX with those functions .extern): so every cubin defines
 * each call with the parameters the instrumenter passes. */
TEST(prebuilt_runtimes_link_with_a_kernel)
{
    char caller[600];
    path_in(caller, sizeof caller, "caller.ptx");
    CHECK(sc_devrt_cubin_for(90) != NULL); /* the GPUs scord is made for */
    CHECK(sc_devrt_cubin_for(91) == NULL);
    int n = 0;
    for (const ScDevrtCubin *c = sc_devrt_cubins; c->sm; c++, n++) {
        const unsigned char *e = c->data;
        size_t len = (size_t)(c->end - c->data);
        CHECK(len > 64 && memcmp(e, "\177ELF", 4) == 0 && e[4] == 2 /* ELFCLASS64 */);
        CHECK_INT(1, e[16] | e[17] << 8);   /* e_type ET_REL */
        CHECK_INT(190, e[18] | e[19] << 8); /* e_machine EM_CUDA */
        CHECK(e[49] == c->sm || e[48] == c->sm); /* e_flags: the SM (byte 0 before CUDA 13) */
        char rt[600], obj[600], out[600], log[600], arch[16];
        snprintf(arch, sizeof arch, "-arch=sm_%d", c->sm);
        snprintf(rt, sizeof rt, "%s/runtime_sm%d.cubin", dir, c->sm);
        snprintf(obj, sizeof obj, "%s/caller_sm%d.o", dir, c->sm);
        snprintf(out, sizeof out, "%s/linked_sm%d.cubin", dir, c->sm);
        snprintf(log, sizeof log, "%s/linked_sm%d.log", dir, c->sm);
        char *ptxas[] = {(char *)ptxt_ptxas(), "-c", arch, caller, "-o", obj, NULL};
        char *nvlink[] = {(char *)ptxt_nvlink(), arch, obj, rt, "-o", out, NULL};
        int rc = ptxt_write_file(rt, (const char *)c->data, len) == 0 ? ptxt_run(ptxas, log) : -1;
        rc = rc == 0 ? ptxt_run(nvlink, log) : rc;
        if (rc != 0) {
            printf("sm_%d: the caller did not link with the prebuilt runtime (%d)\n", c->sm, rc);
            ptxt_print_log(log);
        }
        CHECK_INT(0, rc);
    }
    CHECK(n >= 1);
}

/* "{56, 0, 0, 0, 0, ...}": the initializer of a .b8 array of `size` bytes, read back
 * as little-endian words (nvcc leaves trailing zero bytes out). Returns the bytes
 * written, or 0 when there are more than `size`. */
static size_t read_layout(const char *init, size_t size, uint32_t *out)
{
    size_t bytes = 0;
    memset(out, 0, size);
    for (const char *p = init; *p;) {
        if (*p < '0' || *p > '9') {
            p++;
            continue;
        }
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        p = end;
        if (bytes == size)
            return 0;
        out[bytes / 4] |= (uint32_t)(v & 0xff) << (8 * (bytes % 4));
        bytes++;
    }
    return bytes;
}

TEST(nvcc_lays_out_the_state_as_the_host_does)
{
#define HOST_SIZE(type) (uint32_t) sizeof(type),
#define HOST_FIELD(type, field) (uint32_t) offsetof(type, field),
    static const uint32_t host[] = {SC_DEVRT_LAYOUT(HOST_SIZE, HOST_FIELD) 0u};
#define NAME_SIZE(type) "sizeof(" #type ")",
#define NAME_FIELD(type, field) #type "." #field,
    static const char *const names[] = {SC_DEVRT_LAYOUT(NAME_SIZE, NAME_FIELD) "end"};
    char path[600];
    path_in(path, sizeof path, "layout.ptx");
    size_t len = 0;
    char *text = ptxt_read_file(path, &len);
    CHECK(text != NULL);
    if (!text)
        return;
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, len, path, &err);
    CHECK(m != NULL);
    const ScPtxDeclarator *d = NULL;
    for (const ScPtxItem *it = m ? m->first : NULL; it; it = it->next)
        if (it->kind == SC_PTX_ITEM_VAR && strcmp(it->u.var.decls[0].name, "sc_devrt_layout") == 0)
            d = &it->u.var.decls[0];
    CHECK(d && d->init && d->n_dims == 1);
    if (d && d->init && d->n_dims == 1) {
        uint32_t dev[SC_ARRAY_LEN(host)];
        CHECK_INT(sizeof dev, d->dims[0]);
        CHECK(read_layout(d->init, sizeof dev, dev) > 0);
        for (size_t i = 0; i < SC_ARRAY_LEN(host); i++)
            if (dev[i] != host[i]) {
                printf("  %s: device %u, host %u\n", names[i], dev[i], host[i]);
                CHECK_INT(host[i], dev[i]);
            }
    }
    if (m)
        sc_ptx_module_free(m);
    free(text);
}

/* Keys hold the cause and both sites exactly and never read as free or busy. */
TEST(record_keys)
{
    uint64_t lo = SC_DEV_KEY(0, 0, 0), hi = SC_DEV_KEY(SC_CAUSE_COUNT_ - 1, SC_DEV_SITE_LIMIT,
                                                        SC_DEV_SITE_LIMIT);
    CHECK(lo != 0 && lo != SC_DEV_KEY_BUSY);
    CHECK(hi != 0 && hi != SC_DEV_KEY_BUSY);
    CHECK(SC_DEV_KEY(1, 2, 3) != SC_DEV_KEY(1, 3, 2));
    CHECK(SC_DEV_KEY(1, 2, 3) != SC_DEV_KEY(2, 2, 3));
    CHECK_INT(5, (SC_DEV_KEY(4, 7, 9) >> (2 * SC_DEV_SITE_BITS)));
    CHECK_INT(7, (SC_DEV_KEY(4, 7, 9) >> SC_DEV_SITE_BITS) & SC_DEV_SITE_LIMIT);
    CHECK_INT(9, SC_DEV_KEY(4, 7, 9) & SC_DEV_SITE_LIMIT);
    /* The cause field has room for every cause of the report. */
    CHECK(SC_CAUSE_COUNT_ + 1 < (1 << (64 - 2 * SC_DEV_SITE_BITS)) - 1);
    /* The host's "no site" and the device's are the same value. */
    CHECK_INT(SC_REPORT_SITE_NONE, SC_DEV_SITE_NONE);
    /* The runtime's 21-bit info fits the rules' site word. */
    CHECK_INT(0x1fffff, SC_ABI_INFO(255, 7, 15, 7, 7));
}

#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

/* A tag holds the word's address and the epoch exactly, never the lock bit, and is
 * never the 0 of an entry no launch has used. */
TEST(cache_tags)
{
    CHECK_INT(24, sizeof(ScDevCacheEntry));
    static const uint64_t addrs[] = {0, 4, 0x7f0000001234, ((uint64_t)1 << 48) - 4};
    static const uint32_t epochs[] = {1, 2, 0x1234, SC_SHADOW_CACHE_EPOCHS};
    for (size_t i = 0; i < SC_ARRAY_LEN(addrs); i++)
        for (size_t k = 0; k < SC_ARRAY_LEN(epochs); k++) {
            uint64_t tag = sc_shadow_cache_tag(addrs[i], epochs[k]);
            CHECK(tag != 0);
            CHECK_INT(0, tag & SC_SHADOW_CACHE_LOCK);
            CHECK_INT(addrs[i], sc_shadow_cache_tag_addr(tag));
            CHECK_INT(epochs[k], sc_shadow_cache_tag_epoch(tag));
        }
    /* One tag per word: the bytes of a word share it, neighbours and epochs do not. */
    CHECK_INT(sc_shadow_cache_tag(0x1000, 7), sc_shadow_cache_tag(0x1003, 7));
    CHECK(sc_shadow_cache_tag(0x1000, 7) != sc_shadow_cache_tag(0x1004, 7));
    CHECK(sc_shadow_cache_tag(0x1000, 7) != sc_shadow_cache_tag(0x1000, 8));
    /* The top address bit a chunk table covers survives the packing. */
    CHECK(sc_shadow_cache_tag((uint64_t)1 << 47, 1) != sc_shadow_cache_tag(0, 1));
}

/* cp.async groups: wait_group N completes every committed group but the newest N and
 * never one not committed yet; wait_all and the arrive complete everything; group
 * numbers wrap at 256 without changing the answers. */
TEST(async_groups)
{
    for (uint32_t base = 0; base < 512; base += 253) {
        uint32_t committed = (base + 3) & 0xffu; /* groups base .. base + 2 committed */
        for (uint32_t g = 0; g < 4; g++) {
            uint32_t group = (base + g) & 0xffu; /* g = 3: the open group */
            bool open = g == 3;
            CHECK(sc_dev_async_completes(committed, group, 0) == !open);
            CHECK(sc_dev_async_completes(committed, group, 1) == (g < 2));
            CHECK(sc_dev_async_completes(committed, group, 2) == (g < 1));
            CHECK(!sc_dev_async_completes(committed, group, 3));
            CHECK(!sc_dev_async_completes(committed, group, SC_ABI_ASYNC_WAIT_MAX));
            CHECK(sc_dev_async_completes(committed, group, SC_ABI_ASYNC_WAIT_ALL));
            CHECK(sc_dev_async_completes(committed, group, SC_ABI_ASYNC_ARRIVE));
            CHECK(!sc_dev_async_completes(committed, group, SC_ABI_ASYNC_COMMIT));
        }
    }
    /* An entry packs what the runtime needs back. */
    uint64_t e = SC_DEV_ASYNC_ENTRY(0xfffffu, 16u, 0x1ffu, 12345u);
    CHECK_INT(0xfffffu, SC_DEV_ASYNC_OFF(e));
    CHECK_INT(16, SC_DEV_ASYNC_SIZE(e));
    CHECK_INT(0xff, SC_DEV_ASYNC_GROUP(e));
    CHECK_INT(12345, SC_DEV_ASYNC_SITE(e));
    CHECK_INT(SC_DEV_SITE_NONE, SC_DEV_ASYNC_SITE(SC_DEV_ASYNC_ENTRY(0u, 4u, 0u, (1u << 28) - 1u)));
    uint64_t c = SC_DEV_ASYNC_CLOCKS(1022u, 126u, 125u);
    CHECK_INT(1022, SC_DEV_ASYNC_BAR_OWN(c));
    CHECK_INT(126, SC_DEV_ASYNC_SYNC_NOW(c));
    CHECK_INT(125, SC_DEV_ASYNC_SYNC_FLOOR(c));
}

/* An mbarrier followed as a block barrier: arrivals in the runtime's order complete a
 * phase exactly at the one that brings its count to the object's, whatever the counts
 * of the arrivals (an elected lane may arrive for its warp); an arrival that would
 * pass the count, or that comes while the completing arrival has not yet opened the
 * next phase, overruns it. */
TEST(mbarrier_phases)
{
    enum { THREADS = 96 };
    static const uint32_t counts[] = {1, 32, 1, 2, 1, 1, 58};
    uint32_t arrivals = 0, completed = 0;
    for (uint32_t phase = 0; phase < 3; phase++) {
        uint32_t sum = 0;
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            int what = sc_dev_mbar_arrival(arrivals, counts[i], THREADS);
            sum += counts[i];
            CHECK_INT(sum == THREADS ? SC_DEV_MBAR_COMPLETES : SC_DEV_MBAR_COUNTS, what);
            arrivals += counts[i];
            if (what == SC_DEV_MBAR_COMPLETES) {
                completed++;
                arrivals -= THREADS;
            }
        }
    }
    CHECK_INT(3, completed);
    CHECK_INT(0, arrivals);
    CHECK_INT(SC_DEV_MBAR_OVERRUNS, sc_dev_mbar_arrival(95, 2, THREADS));
    CHECK_INT(SC_DEV_MBAR_OVERRUNS, sc_dev_mbar_arrival(THREADS, 1, THREADS)); /* not yet opened */
    CHECK_INT(SC_DEV_MBAR_OVERRUNS, sc_dev_mbar_arrival(1, 0xffffffffu, THREADS));
    CHECK_INT(SC_DEV_MBAR_COMPLETES, sc_dev_mbar_arrival(0, 1024, 1024));
}

/* The protocol of devrt_mbar.cuh against the hardware's, in every order a scheduler
 * may pick: each thread runs its arrive hook, then (the arrival that completes the
 * phase) the barrier and the next phase's opening, then its arrive instruction, then
 * waits for the phase. The hardware completes a phase at the instruction that brings
 * its pending count to 0; by then the runtime must have completed that phase, so that
 * every waiter reads the new clock, or have given the block up (an overrun). Threads
 * that arrive once per phase never overrun; a thread that arrives twice without
 * waiting may, and then the block is given up, never ordered by a guess. */
static uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

TEST(mbarrier_phases_complete_before_the_hardware)
{
    enum { RUNS = 20000, MAX_THREADS = 8, PHASES = 3 };
    uint64_t seed = 0x5eedu;
    unsigned checked = 0, given_up = 0;
    for (int run = 0; run < RUNS; run++) {
        uint32_t threads = 2 + (uint32_t)(test_rand(&seed) % (MAX_THREADS - 1));
        bool twice = run % 2; /* one thread arrives twice in its first phase, no wait */
        uint32_t step[MAX_THREADS] = {0}, phase_of[MAX_THREADS] = {0}, extra[MAX_THREADS] = {0};
        bool completer[MAX_THREADS] = {false};
        uint32_t arrivals = 0, rt_done = 0, hw_phase = 0, hw_pending = threads, finished = 0;
        bool lost = false;
        if (twice)
            extra[0] = 1;
        /* A program whose thread arrives once too often never completes its last phase
         * (the program's own hang): the run stops after a bounded number of steps. */
        for (int steps = 0; finished < threads && steps < 4000; steps++) {
            uint32_t t = (uint32_t)(test_rand(&seed) % threads);
            if (step[t] == 4 * PHASES)
                continue;
            switch (step[t] % 4) {
            case 0: { /* the hook */
                int what = sc_dev_mbar_arrival(arrivals, 1, threads);
                arrivals++;
                lost |= what == SC_DEV_MBAR_OVERRUNS;
                completer[t] = what == SC_DEV_MBAR_COMPLETES;
                phase_of[t] = hw_phase;
                step[t]++;
                break;
            }
            case 1: /* the completing arrival's barrier and the next phase's opening */
                if (completer[t]) {
                    rt_done++;
                    arrivals -= threads;
                }
                step[t]++;
                break;
            case 2: /* the instruction */
                if (--hw_pending == 0) {
                    CHECK(lost || rt_done > hw_phase);
                    checked++;
                    hw_phase++;
                    hw_pending = threads;
                }
                if (extra[t]) {
                    extra[t]--;
                    step[t] -= 2; /* arrives again before waiting */
                } else
                    step[t]++;
                break;
            case 3: /* the wait */
                if (hw_phase > phase_of[t] && ++step[t] == 4 * PHASES)
                    finished++;
                break;
            }
            if (!twice)
                CHECK(!lost);
            if (lost && twice) {
                given_up++;
                break;
            }
        }
    }
    CHECK(checked > RUNS);
    CHECK(given_up > 0);
}

/* The words of an aligned window as large as the cache take distinct entries, and
 * the same offset in different windows lands on different entries. */
TEST(cache_index)
{
    enum { BITS = 16 };
    static uint8_t taken[1u << BITS];
    uint64_t window = (uint64_t)0x7f12 << (BITS + 2);
    bool distinct = true;
    for (uint64_t w = 0; w < (1u << BITS); w++) {
        uint64_t i = sc_shadow_cache_index(window + 4 * w + (w & 3), BITS);
        distinct = distinct && i < (1u << BITS) && !taken[i];
        taken[i] = 1;
    }
    CHECK(distinct);
    uint64_t seen[16];
    for (uint64_t k = 0; k < SC_ARRAY_LEN(seen); k++) {
        seen[k] = sc_shadow_cache_index((k << (BITS + 2)) + 0x40, BITS);
        for (uint64_t j = 0; j < k; j++)
            CHECK(seen[j] != seen[k]);
    }
    /* Every size the host may choose stays in range. */
    for (uint32_t bits = SC_SHADOW_CACHE_MIN_BITS; bits <= SC_SHADOW_CACHE_MAX_BITS; bits++)
        CHECK(sc_shadow_cache_index(((uint64_t)1 << 48) - 4, bits) < ((uint64_t)1 << bits));
}

/* Full shadow only while the device keeps max(1/8 of it, 1 GiB) free after it. */
TEST(shadow_policy_full)
{
    CHECK_INT(10 * GIB, sc_shadow_headroom(80 * GIB));
    CHECK_INT(GIB, sc_shadow_headroom(4 * GIB));
    CHECK(sc_shadow_full(SC_SHADOW_MODE_FULL, 30 * GIB, 80 * GIB, 20 * GIB));
    CHECK(!sc_shadow_full(SC_SHADOW_MODE_FULL, 30 * GIB, 80 * GIB, 20 * GIB + 1));
    CHECK(sc_shadow_full(SC_SHADOW_MODE_FULL, 3 * GIB, 4 * GIB, 2 * GIB));
    CHECK(!sc_shadow_full(SC_SHADOW_MODE_FULL, 3 * GIB, 4 * GIB, 2 * GIB + 1));
    /* More than is free: no wrap-around into a huge remainder. */
    CHECK(!sc_shadow_full(SC_SHADOW_MODE_FULL, GIB, 80 * GIB, 2 * GIB));
    CHECK(!sc_shadow_full(SC_SHADOW_MODE_CACHE, 70 * GIB, 80 * GIB, MIB));
    /* Unknown memory figures: the allocation decides. */
    CHECK(sc_shadow_full(SC_SHADOW_MODE_FULL, UINT64_MAX, 0, 64 * GIB));
}

/* The cache is 1/8 of what it serves (or cache_mb), a power of two of 24-byte
 * entries, within its bounds. */
TEST(shadow_policy_cache_size)
{
    CHECK_INT(SC_SHADOW_CACHE_MIN_BITS, sc_shadow_cache_want(0, 0));
    CHECK_INT(SC_SHADOW_CACHE_MIN_BITS, sc_shadow_cache_want(64 * 1024, 0));
    CHECK_INT(22, sc_shadow_cache_want(GIB, 0)); /* 128 MiB -> 2^22 entries, 96 MiB */
    CHECK_INT(22, sc_shadow_cache_want(0, 96));
    CHECK_INT(21, sc_shadow_cache_want(0, 95));
    CHECK_INT(SC_SHADOW_CACHE_MIN_BITS, sc_shadow_cache_want(0, 1));
    CHECK_INT(SC_SHADOW_CACHE_MAX_BITS, sc_shadow_cache_want(UINT64_MAX, 0));
    CHECK_INT(SC_SHADOW_CACHE_MAX_BITS, sc_shadow_cache_want(0, 0x7fffffff));
    CHECK_INT(1536 * 1024, sc_shadow_cache_bytes(SC_SHADOW_CACHE_MIN_BITS));
    /* Above the minimum, never more than 1/8 and never less than 1/16. */
    for (uint64_t cached = 16 * MIB; cached <= 512 * GIB; cached = cached * 3 / 2) {
        uint64_t bytes = sc_shadow_cache_bytes(sc_shadow_cache_want(cached, 0));
        CHECK(bytes <= cached / 8);
        CHECK(bytes > cached / 16);
    }
}

/* The cache grows as far as the headroom allows; the first one is had at least at
 * its minimum; a cache large enough stays. */
TEST(shadow_policy_cache_growth)
{
    uint64_t total = 80 * GIB, room = sc_shadow_headroom(total);
    CHECK_INT(22, sc_shadow_cache_grow(0, 22, 40 * GIB, total));
    CHECK_INT(21, sc_shadow_cache_grow(0, 22, room + sc_shadow_cache_bytes(22) - 1, total));
    CHECK_INT(SC_SHADOW_CACHE_MIN_BITS, sc_shadow_cache_grow(0, 22, room, total));
    CHECK_INT(SC_SHADOW_CACHE_MIN_BITS, sc_shadow_cache_grow(0, 22, 0, total));
    CHECK_INT(21, sc_shadow_cache_grow(20, 22, room + sc_shadow_cache_bytes(21), total));
    CHECK_INT(0, sc_shadow_cache_grow(20, 22, room, total));
    CHECK_INT(0, sc_shadow_cache_grow(22, 22, 40 * GIB, total));
    CHECK_INT(0, sc_shadow_cache_grow(22, 20, 40 * GIB, total));
}

/* The split pool: a kernel without sub-word accesses keeps what there is; one with
 * them gets a group per word of full shadow on top of the minimum (histogram_locked's
 * 16 MiB input: 256 chunks, 4,194,304 words), or half of what is above the headroom;
 * the pool never shrinks. */
TEST(split_pool_size)
{
    uint64_t total = 80 * GIB, room = sc_shadow_headroom(total);
    const uint64_t min = SC_SPLIT_MIN_GROUPS, per_chunk = SC_SHADOW_WORDS_PER_CHUNK;
    CHECK_INT(min, sc_split_groups(min, false, 258, 40 * GIB, total));
    CHECK_INT(min + 256 * per_chunk, sc_split_groups(min, true, 256, 40 * GIB, total));
    CHECK_INT(min + 256 * per_chunk, sc_split_groups(min, true, 256, UINT64_MAX, 0));
    CHECK_INT(4 * min, sc_split_groups(4 * min, true, 0, 40 * GIB, total));
    CHECK_INT(8 * min, sc_split_groups(8 * min, true, 256, room, total));
    CHECK_INT(SC_SPLIT_MAX_GROUPS, sc_split_groups(min, true, (uint64_t)1 << 40, UINT64_MAX, 0));
    /* Short of the headroom: half of what is above it, when more than there is. */
    uint64_t half = 2 * min + 5;
    CHECK_INT(half, sc_split_groups(min, true, 256, room + 2 * half * SC_SPLIT_GROUP_BYTES + 127, total));
    CHECK_INT(min, sc_split_groups(min, true, 256, room + (2 * min - 1) * SC_SPLIT_GROUP_BYTES, total));
    CHECK_INT(min, sc_split_groups(min, true, 256, room - 1, total));
}

/* Split groups for shared memory (for kernels with sub-word shared accesses): a group
 * per word of the block's own shared memory in every slot, fewer (half of what is
 * above the headroom) when the device is short, none without slots. */
TEST(slot_split_size)
{
    uint64_t total = 80 * GIB, room = sc_shadow_headroom(total);
    CHECK_INT(4352, sc_slot_split_groups(4352, 528, 40 * GIB, total));
    CHECK_INT(4352, sc_slot_split_groups(4352, 528, UINT64_MAX, 0));
    CHECK_INT(0, sc_slot_split_groups(4352, 0, 40 * GIB, total));
    CHECK_INT(1000, sc_slot_split_groups(4352, 528, room + 2 * 528 * 1000 * SC_SPLIT_GROUP_BYTES, total));
    CHECK_INT(0, sc_slot_split_groups(4352, 528, room, total));
}

/* Runs the embedder on `ptx`; returns its exit status, its stderr in log. */
static int embed(const char *name, const char *ptx, const char *abi_names, char *log, size_t cap)
{
    char in[600], logpath[700];
    path_in(in, sizeof in, name);
    snprintf(logpath, sizeof logpath, "%s.log", in);
    if (ptxt_write_file(in, ptx, strlen(ptx)) != 0)
        return -1;
    char abiarg[256];
    snprintf(abiarg, sizeof abiarg, "abi=%s", abi_names);
    char *argv[] = {"awk", "-v", abiarg, "-v", "version=6.3", "-v", "symbol=sc_devrt_ptx",
                    "-f", "src/devrt/devrt_embed.awk", in, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawnp(&pid, "awk", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    size_t n = 0;
    char *text = ptxt_read_file(logpath, &n);
    snprintf(log, cap, "%s", text ? text : "");
    free(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

TEST(embedder_refuses_foreign_names)
{
    static const char header[] = ".version 9.0\n.target sm_75\n.address_size 64\n";
    char ptx[1024], log[2048];
    snprintf(ptx, sizeof ptx, "%s.visible .func __scord_x()\n{\n\tret;\n}\n", header);
    CHECK_INT(0, embed("good.ptx", ptx, "__scord_x", log, sizeof log));
    snprintf(ptx, sizeof ptx, "%s.func _ZL6helperj(\n\t.param .b32 p\n)\n{\n\tret;\n}\n", header);
    CHECK_INT(1, embed("helper.ptx", ptx, "", log, sizeof log));
    CHECK_CONTAINS(log, "helper.ptx:4: error: module-scope name '_ZL6helperj' does not start with __scord_");
    snprintf(ptx, sizeof ptx, "%s.global .align 4 .b8 table[16];\n", header);
    CHECK_INT(1, embed("var.ptx", ptx, "", log, sizeof log));
    CHECK_CONTAINS(log, "module-scope name 'table' does not start");
    snprintf(ptx, sizeof ptx, "%s.extern .func (.param .b32 r) vprintf(\n", header);
    CHECK_INT(1, embed("extern.ptx", ptx, "", log, sizeof log));
    CHECK_CONTAINS(log, "must not need anything from outside (vprintf)");
    snprintf(ptx, sizeof ptx, "%s.func __scord_x()\n{\n\tret;\n}\n", header);
    CHECK_INT(1, embed("hidden.ptx", ptx, "__scord_x", log, sizeof log));
    CHECK_CONTAINS(log, "hidden.ptx: error: ABI function __scord_x is not defined as a .visible .func");
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/testdata/devrt", sc_test_build_dir());
    ptxt_mkdirs(dir);
    RUN(embedded_text_is_whole);
    RUN(defines_every_abi_call_with_its_parameters);
    RUN(declares_only_scord_names);
    RUN(quick_hook_takes_warp_steps_with_one_mask);
    RUN(assembles_alone);
    RUN(prebuilt_runtimes_link_with_a_kernel);
    RUN(nvcc_lays_out_the_state_as_the_host_does);
    RUN(record_keys);
    RUN(cache_tags);
    RUN(cache_index);
    RUN(async_groups);
    RUN(mbarrier_phases);
    RUN(mbarrier_phases_complete_before_the_hardware);
    RUN(shadow_policy_full);
    RUN(shadow_policy_cache_size);
    RUN(shadow_policy_cache_growth);
    RUN(split_pool_size);
    RUN(slot_split_size);
    RUN(embedder_refuses_foreign_names);
    return TEST_REPORT();
}

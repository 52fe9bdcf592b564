/* intercept_plan.c: choosing the PTX scord loads in place of a program's code image. */
#include "intercept/intercept_plan.h"

#include "common/sc_sha256.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void appendf(char *buf, size_t n, const char *fmt, ...) SC_PRINTF(3, 4);
static void appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strnlen(buf, n);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

static void describe_entry(const ScFatbinEntry *e, char *buf, size_t n)
{
    if (e->kind == SC_ENTRY_PTX)
        appendf(buf, n, "compute_%u%s PTX %u.%u", e->arch, e->arch_specific ? "a" : "",
                e->version_major, e->version_minor);
    else
        appendf(buf, n, "sm_%u%s ELF", e->arch, e->arch_specific ? "a" : "");
    if (e->compression != SC_COMPRESS_NONE)
        appendf(buf, n, " %s", sc_fatbin_compression_name(e->compression));
}

/* The kernels of machine code scord cannot check, for the run summary. A cubin
 * scord cannot list is still run; the summary then names no kernels. */
static void elf_kernels(const void *elf, size_t avail, ScLoadPlan *plan)
{
    ScErr err = {0};
    size_t size = avail;
    if (avail == SIZE_MAX && !sc_fatbin_elf_size(elf, avail, &size, &err))
        return;
    if (!sc_fatbin_elf_kernels(elf, size, &plan->kernels, &err))
        plan->kernels = (ScKernelNames){0};
}

/* Decompressed PTX of one entry, or false with the plan marked unreadable. */
static bool entry_ptx(const ScFatbinEntry *e, ScLoadPlan *plan, char **ptx, size_t *len)
{
    uint8_t *data;
    ScErr err = {0};
    if (!sc_fatbin_entry_data(e, &data, len, &err)) {
        plan->verdict = SC_PLAN_UNREADABLE;
        snprintf(plan->reason, sizeof plan->reason, "cannot extract its PTX: %s", err.msg);
        return false;
    }
    *ptx = (char *)data;
    return true;
}

/* An -rdc image (wrapper version 2): container 0 is the device-linked machine code,
 * containers 1.. the relocatable code of each translation unit, which the driver
 * links at load time when the machine code does not fit the device. scord links
 * the PTX of every translation unit instead. A unit with no PTX for the device but
 * relocatable machine code that fits it (libcudadevrt, which nvcc appends to
 * PTX-only builds) goes into the link as machine code; its kernels are library
 * code and stay unchecked. */
static void plan_link(const ScFatbin *fb, unsigned device_sm, ScLoadPlan *plan)
{
    size_t n = fb->n_containers > 0 ? fb->n_containers - 1 : 0;
    plan->link = calloc(n ? n : 1, sizeof *plan->link);
    if (!plan->link) {
        plan->verdict = SC_PLAN_UNREADABLE;
        snprintf(plan->reason, sizeof plan->reason, "out of memory");
        return;
    }
    size_t n_ptx = 0, n_elf = 0;
    for (size_t c = 1; c < fb->n_containers; c++) {
        const ScFatbinEntry *pick = sc_fatbin_pick_ptx_in(fb, c, device_sm);
        if (!pick) {
            for (size_t i = 0; i < fb->n_entries; i++) {
                const ScFatbinEntry *e = &fb->entries[i];
                if (e->container_index == c && e->kind == SC_ENTRY_ELF &&
                    sc_fatbin_entry_fits(e, device_sm) && (!pick || e->arch > pick->arch))
                    pick = e;
            }
        }
        if (!pick) {
            plan->verdict = SC_PLAN_UNCHECKED;
            snprintf(plan->reason, sizeof plan->reason,
                     "translation unit %zu of this -rdc image has no code a compute_%u "
                     "device can use",
                     c, device_sm);
            return;
        }
        ScLinkInput *in = &plan->link[plan->n_link];
        in->is_ptx = pick->kind == SC_ENTRY_PTX;
        ScErr err = {0};
        if (!sc_fatbin_entry_data(pick, &in->data, &in->len, &err)) {
            plan->verdict = SC_PLAN_UNREADABLE;
            snprintf(plan->reason, sizeof plan->reason,
                     "cannot extract translation unit %zu: %s", c, err.msg);
            return;
        }
        plan->n_link++;
        if (in->is_ptx && n_ptx++ == 0)
            describe_entry(pick, plan->chosen, sizeof plan->chosen);
        n_elf += !in->is_ptx;
    }
    if (n_ptx == 0) {
        plan->verdict = SC_PLAN_UNCHECKED;
        snprintf(plan->reason, sizeof plan->reason, "no translation unit of this -rdc image "
                 "has PTX that a compute_%u device can JIT", device_sm);
        return;
    }
    appendf(plan->chosen, sizeof plan->chosen, " (%zu translation units linked", n_ptx);
    if (n_elf)
        appendf(plan->chosen, sizeof plan->chosen, ", with %zu of machine code", n_elf);
    appendf(plan->chosen, sizeof plan->chosen, ")");
    plan->verdict = SC_PLAN_LINK;
}

static void plan_fatbin(const void *image, size_t avail, unsigned device_sm, ScLoadPlan *plan)
{
    ScFatbin fb = {0};
    ScErr err = {0};
    if (!sc_fatbin_parse_ex(image, avail, sc_fatbin_loaded_extent, NULL, &fb, &err)) {
        plan->verdict = SC_PLAN_UNREADABLE;
        snprintf(plan->reason, sizeof plan->reason, "unreadable fat binary: %s", err.msg);
        return;
    }
    snprintf(plan->what, sizeof plan->what, "%s%s:", sc_fatbin_kind_name(plan->kind),
             fb.wrapper_version == 2 ? " (-rdc)" : "");
    for (size_t i = 0; i < fb.n_entries; i++) {
        appendf(plan->what, sizeof plan->what, "%s", i ? ", " : " ");
        describe_entry(&fb.entries[i], plan->what, sizeof plan->what);
    }
    if (fb.wrapper_version == 2 && fb.n_containers > 1) {
        plan_link(&fb, device_sm, plan);
        sc_fatbin_free(&fb);
        return;
    }
    const ScFatbinEntry *pick = sc_fatbin_pick_ptx(&fb, device_sm);
    if (!pick) {
        plan->verdict = SC_PLAN_UNCHECKED;
        snprintf(plan->reason, sizeof plan->reason,
                 "it holds no PTX that a compute_%u device can JIT", device_sm);
        const ScFatbinEntry *elf = NULL;
        for (size_t i = 0; i < fb.n_entries; i++)
            if (fb.entries[i].kind == SC_ENTRY_ELF && sc_fatbin_entry_fits(&fb.entries[i], device_sm) &&
                (!elf || fb.entries[i].arch > elf->arch))
                elf = &fb.entries[i];
        if (elf) {
            plan->elf_arch = elf->arch;
            uint8_t *data;
            size_t len;
            if (sc_fatbin_entry_data(elf, &data, &len, &err)) {
                elf_kernels(data, len, plan);
                free(data);
            }
        }
        sc_fatbin_free(&fb);
        return;
    }
    if (entry_ptx(pick, plan, &plan->ptx, &plan->ptx_len)) {
        plan->verdict = SC_PLAN_PTX;
        describe_entry(pick, plan->chosen, sizeof plan->chosen);
        appendf(plan->chosen, sizeof plan->chosen, ", %zu bytes", plan->ptx_len);
    }
    sc_fatbin_free(&fb);
}

void sc_plan_image(const void *image, size_t avail, unsigned device_sm, ScLoadPlan *plan)
{
    *plan = (ScLoadPlan){0};
    if (!image) {
        plan->verdict = SC_PLAN_UNREADABLE;
        snprintf(plan->reason, sizeof plan->reason, "no image (NULL pointer)");
        return;
    }
    plan->kind = sc_fatbin_sniff(image, avail);
    switch (plan->kind) {
    case SC_IMAGE_WRAPPER:
    case SC_IMAGE_FATBIN:
        plan_fatbin(image, avail, device_sm, plan);
        return;
    case SC_IMAGE_PTX: {
        size_t len = strnlen(image, avail);
        char *copy = malloc(len + 1);
        if (!copy) {
            plan->verdict = SC_PLAN_UNREADABLE;
            snprintf(plan->reason, sizeof plan->reason, "out of memory copying %zu bytes of PTX",
                     len);
            return;
        }
        memcpy(copy, image, len);
        copy[len] = '\0';
        plan->verdict = SC_PLAN_PTX;
        plan->ptx = copy;
        plan->ptx_len = len;
        snprintf(plan->what, sizeof plan->what, "PTX text (%zu bytes)", len);
        snprintf(plan->chosen, sizeof plan->chosen, "the PTX as given, %zu bytes", len);
        return;
    }
    case SC_IMAGE_ELF:
        plan->verdict = SC_PLAN_UNCHECKED;
        snprintf(plan->what, sizeof plan->what, "cubin (ELF)");
        snprintf(plan->reason, sizeof plan->reason, "it is machine code (cubin) with no PTX");
        plan->elf_arch = device_sm;
        elf_kernels(image, avail, plan);
        return;
    case SC_IMAGE_ARCHIVE:
        plan->verdict = SC_PLAN_UNCHECKED;
        snprintf(plan->what, sizeof plan->what, "library archive");
        snprintf(plan->reason, sizeof plan->reason,
                 "scord does not look inside library archives yet");
        return;
    case SC_IMAGE_UNKNOWN:
        plan->verdict = SC_PLAN_UNREADABLE;
        snprintf(plan->what, sizeof plan->what, "unknown image");
        snprintf(plan->reason, sizeof plan->reason,
                 "unrecognized image format (not a fat binary, cubin or PTX text)");
        return;
    }
}

void sc_plan_free(ScLoadPlan *plan)
{
    free(plan->ptx);
    plan->ptx = NULL;
    for (size_t i = 0; i < plan->n_link; i++)
        free(plan->link[i].data);
    free(plan->link);
    plan->link = NULL;
    plan->n_link = 0;
    sc_fatbin_kernels_free(&plan->kernels);
}

void sc_plan_rebuild_hint(const ScLoadPlan *plan, char *buf, size_t n)
{
    unsigned sm = plan->elf_arch ? plan->elf_arch : 75;
    snprintf(buf, n,
             "rebuild with -gencode arch=compute_%u,code=compute_%u added (or -arch=sm_%u, "
             "which keeps PTX) to have its kernels checked",
             sm, sm, sm);
}

const char *sc_plan_verdict_name(ScPlanVerdict v)
{
    switch (v) {
    case SC_PLAN_PTX:
        return "loaded from PTX";
    case SC_PLAN_LINK:
        return "linked from PTX";
    case SC_PLAN_UNCHECKED:
        return "unchecked";
    case SC_PLAN_UNREADABLE:
        return "unreadable";
    }
    return "?";
}

/* The architecture an NVRTC option names ("-arch=sm_90", "--gpu-architecture sm_90" in
 * two entries), or NULL; *value_at: the entry that holds it. */
static const char *nvrtc_arch(const char *const *opts, int n, int i, int *value_at)
{
    static const char *const names[] = {"-arch", "--gpu-architecture"};
    for (size_t k = 0; k < SC_ARRAY_LEN(names); k++) {
        size_t len = strlen(names[k]);
        if (strncmp(opts[i], names[k], len) != 0)
            continue;
        if (opts[i][len] == '=') {
            *value_at = i;
            return opts[i] + len + 1;
        }
        if (opts[i][len] == '\0' && i + 1 < n) {
            *value_at = i + 1;
            return opts[i + 1];
        }
    }
    return NULL;
}

bool sc_plan_nvrtc_twin_options(const char *const *opts, int n, const char **out, char *buf, size_t cap)
{
    int at = -1;
    const char *arch = NULL;
    for (int i = 0; i < n; i++) {
        if (!opts[i])
            return false;
        if (strcmp(opts[i], "-dlto") == 0 || strcmp(opts[i], "--dlink-time-opt") == 0)
            return false;
        int value_at;
        const char *a = nvrtc_arch(opts, n, i, &value_at);
        if (a) {
            arch = a;
            at = value_at;
        }
        out[i] = opts[i];
    }
    if (!arch || strncmp(arch, "sm_", 3) != 0)
        return false;
    /* The entry keeps its form: only the architecture's name changes. */
    size_t prefix = (size_t)(arch - opts[at]);
    int len = snprintf(buf, cap, "%.*scompute_%s", (int)prefix, opts[at], arch + 3);
    if (len < 0 || (size_t)len >= cap)
        return false;
    out[at] = buf;
    return true;
}

bool sc_plan_ptx_defines(const char *ptx, const ScKernelNames *k, const char **missing)
{
    for (size_t i = 0; i < k->n; i++) {
        size_t len = strlen(k->names[i]);
        bool found = false;
        for (const char *at = strstr(ptx, ".entry "); at && !found; at = strstr(at + 1, ".entry ")) {
            const char *name = at + strlen(".entry ");
            while (*name == ' ' || *name == '\t')
                name++;
            found = strncmp(name, k->names[i], len) == 0 &&
                    (name[len] == '(' || name[len] == ' ' || name[len] == '\t' || name[len] == '\n');
        }
        if (!found) {
            *missing = k->names[i];
            return false;
        }
    }
    return true;
}

bool sc_plan_cubin_hash(const void *image, size_t avail, uint8_t hash[32])
{
    size_t size = 0;
    if (!image || sc_fatbin_sniff(image, avail) != SC_IMAGE_ELF || !sc_fatbin_elf_size(image, avail, &size, NULL))
        return false;
    sc_sha256(image, size, hash);
    return true;
}

/* instr_module.c: sc_instr_module: checks that a module can be instrumented, plans every function, then edits. */
#include "devrt/devrt_abi.h"
#include "instr/instr_int.h"

#include <string.h>

#define SC_INSTR_PREFIX "__scord_"

/* A module-scope variable the instrumenter itself adds (the runtime never defines
 * them): the markers of modules with cp.async and with sub-word accesses. */
static bool is_marker(const char *name)
{
    return strcmp(name, SC_ABI_ASYNC_MARKER) == 0 || strcmp(name, SC_ABI_SUBWORD_GLOBAL_MARKER) == 0 ||
           strcmp(name, SC_ABI_SUBWORD_SHARED_MARKER) == 0;
}

/* A name at module scope that the runtime's names could collide with. */
static const char *prefixed_name(const ScPtxModule *m)
{
    size_t n = strlen(SC_INSTR_PREFIX);
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind == SC_PTX_ITEM_FUNC && strncmp(it->u.func->name, SC_INSTR_PREFIX, n) == 0)
            return it->u.func->name;
        if (it->kind == SC_PTX_ITEM_VAR)
            for (uint32_t i = 0; i < it->u.var.n_decls; i++)
                if (strncmp(it->u.var.decls[i].name, SC_INSTR_PREFIX, n) == 0 &&
                    !is_marker(it->u.var.decls[i].name))
                    return it->u.var.decls[i].name;
    }
    return NULL;
}

bool sc_instr_check_prefix(const ScPtxModule *m, ScErr *err)
{
    const char *name = prefixed_name(m);
    if (name)
        return sc_err_set(err,
                          "%s: declares '%s': names starting with " SC_INSTR_PREFIX
                          " are scord's (is the module instrumented already?)",
                          m->filename ? m->filename : "PTX", name);
    return true;
}

enum { SPLITS_GLOBAL = 1, SPLITS_SHARED = 2 };

/* The memories in which an edit may check part of a word, whose words may then be
 * split (docs/devrt.md, "Accesses", item 6): those an access of a size that is not a
 * multiple of 4 may reach; global memory for a tensor copy (its box rows start at any
 * element; its shared-memory box is aligned to 128 bytes). */
static unsigned may_split(const ScInstrEdit *e)
{
    if (e->kind == SC_INSTR_EDIT_TENSOR_COPY)
        return SPLITS_GLOBAL;
    if (e->kind != SC_INSTR_EDIT_ACCESS || SC_ABI_INFO_SIZE(e->info) % 4 == 0)
        return 0;
    switch (SC_ABI_INFO_SPACE(e->info)) {
    case SC_ABI_SPACE_GLOBAL:
        return SPLITS_GLOBAL;
    case SC_ABI_SPACE_SHARED:
    case SC_ABI_SPACE_SHARED_CLUSTER:
        return SPLITS_SHARED;
    default:
        return SPLITS_GLOBAL | SPLITS_SHARED;
    }
}

bool sc_instr_module(ScPtxModule *m, const ScInstrOpts *opts, ScInstrResult *res, ScErr *err)
{
    memset(res, 0, sizeof *res);
    const char *file = m->filename ? m->filename : "PTX";
    if (m->address_size != 64)
        return sc_err_set(err, "%s: .address_size is %u: scord instruments 64-bit modules only", file,
                          m->address_size ? m->address_size : 32);
    if (!sc_ptx_check_known(m, err) || !sc_instr_check_prefix(m, err))
        return false;
    ScInstrSites sites = {.res = res, .m = m, .site_base = opts ? opts->site_base : 0};
    ScInstrPlan plan;
    bool ok = sc_instr_plan(m, &sites, opts && opts->prune, &plan, err);
    sc_instr_sites_done(&sites);
    for (uint32_t i = 0; ok && i < plan.n_funcs; i++)
        if (!(ok = sc_instr_emit_func(m, &plan.funcs[i], opts && opts->quick, err)))
            sc_err_wrap(err, "%s: while instrumenting %s (discard the module): ", file, plan.funcs[i].func->name);
    if (ok) {
        unsigned splits = 0;
        for (uint32_t i = 0; i < plan.n_funcs; i++) {
            const ScInstrFuncPlan *fp = &plan.funcs[i];
            res->n_entry += fp->kernel >= 0;
            for (uint32_t j = 0; j < fp->n_edits; j++) {
                splits |= may_split(&fp->edits[j]);
                switch (fp->edits[j].kind) {
                case SC_INSTR_EDIT_ACCESS:
                case SC_INSTR_EDIT_BULK_COPY:
                case SC_INSTR_EDIT_TENSOR_COPY:
                    res->n_access++;
                    break;
                case SC_INSTR_EDIT_BARRIER:
                case SC_INSTR_EDIT_CLUSTER_BARRIER:
                    res->n_barrier++;
                    break;
                case SC_INSTR_EDIT_SYNCWARP:
                    res->n_syncwarp++;
                    break;
                case SC_INSTR_EDIT_FENCE:
                    /* not the acquires of accesses and mbarrier waits, counted with them */
                    res->n_fence += SC_ABI_INFO_KIND(fp->edits[j].info) == SC_ABI_KIND_FENCE;
                    break;
                case SC_INSTR_EDIT_SYNC:
                case SC_INSTR_EDIT_MBAR:
                    res->n_mbarrier++;
                    break;
                case SC_INSTR_EDIT_EXIT:
                    res->n_exit++;
                    break;
                case SC_INSTR_EDIT_ASYNC_COPY:
                case SC_INSTR_EDIT_ASYNC_GROUP:
                    res->n_async++;
                    break;
                }
            }
        }
        for (uint32_t i = 0; i < res->n_sites; i++)
            res->n_unchecked += res->sites[i].kind == SC_INSTR_SITE_UNCHECKED;
        /* Weak: several -rdc units of one program may each define it. */
        if (res->n_async)
            ok = sc_ptx_add_decls(m, ".weak .global .align 4 .u32 " SC_ABI_ASYNC_MARKER " = 1;\n", err);
        if (ok && (splits & SPLITS_GLOBAL))
            ok = sc_ptx_add_decls(m, ".weak .global .align 4 .u32 " SC_ABI_SUBWORD_GLOBAL_MARKER " = 1;\n", err);
        if (ok && (splits & SPLITS_SHARED))
            ok = sc_ptx_add_decls(m, ".weak .global .align 4 .u32 " SC_ABI_SUBWORD_SHARED_MARKER " = 1;\n", err);
    }
    sc_instr_plan_free(&plan);
    if (!ok)
        sc_instr_result_free(res);
    return ok;
}

/* instr_link.c: sc_instr_declare_runtime: declares the device runtime's variables and functions in a module or
 * translation unit that the link joins with the runtime (its prebuilt cubin or its PTX); sc_instr_link_runtime:
 * appends the runtime's PTX (variables, prototypes, functions) to a module that compiles whole instead. */
#include "instr/instr_int.h"

#include <stdlib.h>
#include <string.h>

#define RUNTIME_NAME "scord device runtime"
#define PREFIX "__scord_"

static bool has_prefix(const char *name)
{
    return strncmp(name, PREFIX, strlen(PREFIX)) == 0;
}

/* Byte offsets of the start of every line (index 0 is line 1). */
static size_t *line_starts(const char *text, size_t len, size_t *n_lines)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    size_t *starts = malloc(n * sizeof *starts);
    if (!starts)
        return NULL;
    size_t k = 0;
    starts[k++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            starts[k++] = i + 1;
    *n_lines = n;
    return starts;
}

static size_t offset_of(ScPtxPos pos, const size_t *starts, size_t n_lines, size_t len)
{
    if (pos.line == 0 || pos.line > n_lines)
        return len;
    size_t off = starts[pos.line - 1] + (pos.col ? pos.col - 1 : 0);
    return off > len ? len : off;
}

static bool refuse_item(const ScPtxItem *it, ScErr *err, const char *why, const char *name)
{
    return sc_err_set(err, RUNTIME_NAME ":%u:%u: error: %s%s%s%s", it->pos.line, it->pos.col, why,
                      name ? " ('" : "", name ? name : "", name ? "')" : "");
}

/* Sorts the runtime's items into text to add: declarations (variables, then
 * prototypes of functions defined elsewhere) and function definitions. The
 * variables go first because sc_ptx_add_func places a body after the last
 * function item, and a prototype among the variables would put the bodies
 * before variables they use. */
typedef struct Slices {
    const char *text;
    size_t len;
    size_t *starts; /* line_starts() */
    size_t n_lines;
} Slices;

/* The text of one item: from its first token to the next item's. */
static void item_text(const Slices *sl, const ScPtxItem *it, size_t *from, size_t *to)
{
    *from = offset_of(it->pos, sl->starts, sl->n_lines, sl->len);
    *to = it->next ? offset_of(it->next->pos, sl->starts, sl->n_lines, sl->len) : sl->len;
}

/* The runtime item's text with its leading `.visible` made `.extern`, up to `end` (the
 * body of a function), ending in `;`: a declaration of what another input defines. */
static bool extern_text(const ScPtxItem *it, const char *text, size_t from, size_t end, ScBuf *out,
                        ScErr *err, const char *name)
{
    const char *vis = ".visible";
    size_t n = strlen(vis);
    if (end - from < n || strncmp(text + from, vis, n) != 0)
        return refuse_item(it, err, "a runtime item to declare in another input is not .visible", name);
    const char *init = memchr(text + from, '=', end - from);
    if (init)
        return refuse_item(it, err, "a runtime variable to declare in another input has an initializer",
                           name);
    sc_buf_puts(out, ".extern");
    while (end > from + n && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t' ||
                              text[end - 1] == ';'))
        end--;
    sc_buf_append(out, text + from + n, end - from - n);
    sc_buf_puts(out, ";\n");
    return true;
}

static bool split_runtime(const ScPtxModule *m, const ScPtxModule *rt, const Slices *sl, bool define,
                          ScBuf *decls, ScBuf *protos, const ScPtxItem ***funcs, size_t *n_funcs,
                          ScErr *err)
{
    size_t n = 0;
    for (const ScPtxItem *it = rt->first; it; it = it->next)
        n++;
    if (!(*funcs = calloc(n ? n : 1, sizeof **funcs)))
        return sc_err_set(err, "out of memory");
    const char *text = sl->text;
    bool ok = true;
    for (const ScPtxItem *it = rt->first; it && ok; it = it->next) {
        size_t from, to;
        item_text(sl, it, &from, &to);
        switch (it->kind) {
        case SC_PTX_ITEM_FUNC: {
            const ScPtxFunc *f = it->u.func;
            if (f->is_entry) {
                ok = refuse_item(it, err, "the runtime defines a kernel", f->name);
            } else if (f->has_body) {
                const char *body = memchr(text + from, '{', to - from);
                if (!has_prefix(f->name))
                    ok = refuse_item(it, err, "a runtime function's name does not start with " PREFIX, f->name);
                else if (define)
                    (*funcs)[(*n_funcs)++] = it;
                else if (!body)
                    ok = refuse_item(it, err, "a runtime function has no body to declare", f->name);
                else
                    ok = extern_text(it, text, from, (size_t)(body - text), protos, err, f->name);
            } else {
                /* A forward declaration of its own function is re-made by
                 * sc_ptx_add_func; one of another module's (vprintf) is
                 * needed once. */
                const ScPtxFunc *def = sc_ptx_find_func(rt, f->name);
                if (!(def && def->has_body) && !sc_ptx_find_func(m, f->name))
                    sc_buf_append(protos, text + from, to - from);
            }
            break;
        }
        case SC_PTX_ITEM_VAR:
            for (uint32_t i = 0; i < it->u.var.n_decls && ok; i++)
                if (!has_prefix(it->u.var.decls[i].name))
                    ok = refuse_item(it, err, "a runtime variable's name does not start with " PREFIX
                                              " (string literals of printf make $str variables)",
                                     it->u.var.decls[i].name);
            if (ok && define)
                sc_buf_append(decls, text + from, to - from);
            else if (ok)
                ok = extern_text(it, text, from, to, decls, err, it->u.var.decls[0].name);
            break;
        case SC_PTX_ITEM_FILE:
        case SC_PTX_ITEM_SECTION:
            ok = refuse_item(it, err,
                             "the runtime carries line information (.file/.section), whose file numbers would "
                             "clash with the module's: build it without -lineinfo and -G",
                             NULL);
            break;
        case SC_PTX_ITEM_PRAGMA:
        case SC_PTX_ITEM_UNKNOWN:
            ok = refuse_item(it, err, "the runtime has a module-scope directive scord does not merge", it->u.text);
            break;
        }
    }
    sc_buf_append(decls, protos->data ? protos->data : "", protos->len);
    if (ok && (decls->oom || protos->oom))
        ok = sc_err_set(err, "out of memory");
    return ok;
}

static bool add_runtime(ScPtxModule *m, const char *runtime_ptx, bool define, ScErr *err)
{
    if (!runtime_ptx)
        return sc_err_set(err, "no device runtime PTX to link");
    if (!sc_instr_check_prefix(m, err))
        return false;
    Slices sl = {.text = runtime_ptx, .len = strlen(runtime_ptx)};
    ScPtxModule *rt = sc_ptx_parse(runtime_ptx, sl.len, RUNTIME_NAME, err);
    if (!rt)
        return false;
    const char *file = m->filename ? m->filename : "PTX";
    bool ok = true;
    unsigned rt_sm = sc_ptx_target_sm(rt), m_sm = sc_ptx_target_sm(m);
    if (rt->address_size != 64 || m->address_size != 64)
        ok = sc_err_set(err, "%s: the module and the runtime must both be 64-bit (.address_size %u and %u)", file,
                        m->address_size, rt->address_size);
    else if (rt_sm > m_sm && m_sm == 0)
        ok = sc_err_set(err, "%s: the module's .target names no sm_XX to raise to the runtime's sm_%u", file, rt_sm);
    if (ok && !(sl.starts = line_starts(runtime_ptx, sl.len, &sl.n_lines)))
        ok = sc_err_set(err, "out of memory");
    ScBuf decls = {0}, protos = {0}, one = {0};
    const ScPtxItem **funcs = NULL;
    size_t n_funcs = 0;
    ok = ok && split_runtime(m, rt, &sl, define, &decls, &protos, &funcs, &n_funcs, err);
    /* Everything is checked: from here on only running out of memory fails. */
    if (ok && decls.len)
        ok = sc_ptx_add_decls(m, decls.data, err);
    for (size_t i = 0; ok && i < n_funcs; i++) {
        size_t from, to;
        item_text(&sl, funcs[i], &from, &to);
        one.len = 0;
        sc_buf_append(&one, runtime_ptx + from, to - from);
        if (one.oom)
            ok = sc_err_set(err, "out of memory");
        else if (!sc_ptx_add_func(m, one.data, err))
            ok = false;
    }
    if (ok && rt_sm > m_sm)
        ok = sc_ptx_require_target(m, rt_sm, err);
    if (ok)
        sc_ptx_require_version(m, rt->version_major, rt->version_minor);
    if (!ok)
        sc_err_wrap(err, "%s the device runtime %s %s: ", define ? "linking" : "declaring",
                    define ? "into" : "in", file);
    free(sl.starts);
    sc_buf_free(&one);
    sc_buf_free(&decls);
    sc_buf_free(&protos);
    free(funcs);
    sc_ptx_module_free(rt);
    return ok;
}

bool sc_instr_link_runtime(ScPtxModule *m, const char *runtime_ptx, ScErr *err)
{
    return add_runtime(m, runtime_ptx, true, err);
}

bool sc_instr_declare_runtime(ScPtxModule *m, const char *runtime_ptx, ScErr *err)
{
    return add_runtime(m, runtime_ptx, false, err);
}

/* The numbers of a directive's arguments ("128, 1, 1"), multiplied; 0 if it has none. */
static unsigned long args_product(const char *args)
{
    unsigned long product = 0;
    for (const char *p = args; p && *p;) {
        char *end;
        unsigned long v = strtoul(p, &end, 0);
        if (end == p) {
            p++;
            continue;
        }
        product = product ? product * v : v;
        p = end;
    }
    return product;
}

unsigned sc_instr_register_limit(const ScPtxModule *m, unsigned regs)
{
    unsigned limit = regs;
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        const ScPtxFunc *f = it->kind == SC_PTX_ITEM_FUNC ? it->u.func : NULL;
        if (!f || !f->is_entry || !f->has_body)
            continue;
        unsigned long threads = 0, blocks = 0, kernel = regs;
        for (uint32_t i = 0; i < f->n_dirs; i++) {
            const ScPtxDirective *d = &f->dirs[i];
            if (strcmp(d->name, "maxnreg") == 0 && args_product(d->args) < kernel)
                kernel = args_product(d->args);
            if (strcmp(d->name, "maxntid") == 0 || strcmp(d->name, "reqntid") == 0)
                threads = args_product(d->args);
            if (strcmp(d->name, "minnctapersm") == 0)
                blocks = args_product(d->args);
        }
        /* A minimum of resident blocks shares the SM's 65,536 registers among their
         * warps (a block's threads rounded up to whole warps), in the 8 registers per
         * thread the hardware allocates by: ptxas gives `.maxntid 200` with
         * `.minnctapersm 5` 56, not 58. */
        unsigned long warp_threads = ((threads ? threads : 1024) + 31) / 32 * 32;
        if (blocks && 65536ul / (blocks * warp_threads) / 8 * 8 < kernel)
            kernel = 65536ul / (blocks * warp_threads) / 8 * 8;
        if (kernel < limit)
            limit = (unsigned)kernel;
    }
    return limit < SC_INSTR_MIN_REGISTERS ? SC_INSTR_MIN_REGISTERS : limit;
}

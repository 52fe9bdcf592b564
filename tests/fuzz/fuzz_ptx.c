/* fuzz_ptx.c: libFuzzer target for the PTX front end. Any input must either
 * fail with a located error message or parse; what parses must print, re-parse
 * to an equal module, print identically again, and survive the edit API. */
#include "ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, const char *detail, const ScBuf *printed)
{
    fprintf(stderr, "fuzz_ptx: %s: %s\n", what, detail);
    if (printed && printed->data)
        fprintf(stderr, "--- printed ---\n%s\n---\n", printed->data);
    abort();
}

static void exercise_edits(ScPtxModule *m)
{
    ScErr err = {0};
    for (ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        ScPtxFunc *f = it->u.func;
        const char *r = sc_ptx_fresh_reg(m, f, "b32", &err);
        char text[128];
        snprintf(text, sizeof text, "mov.u32 %s, 1;", r ? r : "%r0");
        sc_ptx_insert_at_entry(m, f, text, &err);
        err = (ScErr){0};
        sc_ptx_insert_before_exits(m, f, "add.u32 %__scx, %__scx, 1;", &err);
        err = (ScErr){0};
        if (f->last)
            sc_ptx_insert_before(m, f->last, "{ .reg .pred %__scp; }", &err);
        err = (ScErr){0};
        break;
    }
    sc_ptx_add_decls(m, ".global .u64 __scord_fuzz_state;", &err);
    err = (ScErr){0};
    sc_ptx_add_func(m, ".func __scord_fuzz_f() { ret; }", &err);
    sc_ptx_require_version(m, 8, 0);
    err = (ScErr){0};
    sc_ptx_require_target(m, 90, &err);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse((const char *)data, size, "in.ptx", &err);
    if (!m) {
        if (!err.set || strncmp(err.msg, "in.ptx:", 7) != 0 || !strstr(err.msg, ": error: "))
            fail("error without a location", err.msg, NULL);
        return 0;
    }
    for (int round = 0; round < 2; round++) {
        ScBuf printed = {0}, again_text = {0}, why = {0};
        if (!sc_ptx_print(m, &printed))
            fail("print", "out of memory", NULL);
        ScPtxModule *again = sc_ptx_parse(printed.data, printed.len, "printed.ptx", &err);
        if (!again)
            fail("printed module does not parse", err.msg, &printed);
        if (!sc_ptx_module_equal(m, again, &why))
            fail("printed module differs", why.data, &printed);
        sc_ptx_print(again, &again_text);
        if (again_text.len != printed.len || memcmp(again_text.data, printed.data, printed.len) != 0)
            fail("printing is not idempotent", "", &printed);
        sc_ptx_module_free(again);
        sc_buf_free(&printed);
        sc_buf_free(&again_text);
        sc_buf_free(&why);
        if (round == 0)
            exercise_edits(m); /* the edited module must round-trip too */
    }
    sc_ptx_module_free(m);
    return 0;
}

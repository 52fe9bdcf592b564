/* intercept_compile.h: turning scord's code into the cubin the driver loads, through
 * the disk cache of compiled modules. */
#ifndef SC_INTERCEPT_COMPILE_H
#define SC_INTERCEPT_COMPILE_H

#include "intercept/intercept.h"

/* Takes the no_cache and cache_dir options (called once, from the options' one
 * reading in intercept_ctx.c, before any module is compiled). */
void sc_compile_configure(const ScOptions *o);

/* The device scord plans and compiles for: the current context's, else device 0.
 * False when the driver can name neither (not initialized). */
bool sc_planned_device(CUdevice *dev);

/* Adds one input to a link session (PTX is passed with its NUL). */
CUresult sc_link_add_input(ScReal_cuLinkAddData add, CUlinkState state, const ScLinkInput *in,
                           const char *name, unsigned int n_opts, CUjit_option *opts,
                           void **vals);

/* Links in[0, n) into a cubin for the planned device (malloc'd in *cubin, for the
 * caller to keep as long as the driver may read it), each function within
 * max_registers per thread (0: as the JIT decides, for the program's own code). A cubin in the disk cache
 * under the same key is used without compiling; one compiled here is stored
 * there. A thread with no current context compiles in the planned device's
 * primary context, which scord retains for the rest of the process. origin names
 * the load call in --verbose notes. */
CUresult sc_compile(const char *origin, const ScLinkInput *in, size_t n, unsigned max_registers,
                    void **cubin);

#endif

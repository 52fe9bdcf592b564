/* fake_preload.c: a test stand-in for libscord.so that test_cli preloads through
 * SCORD_LIBRARY. It proves it was preloaded and read SCORD_OPTIONS (by setting
 * SCORD_FAKE_LOADED in the process it runs in) and reports SCORD_FAKE_RACES races
 * at exit over the status channel, as the real library does. */
#include "common/sc_options.h"

#include <stdlib.h>

__attribute__((constructor)) static void fake_loaded(void)
{
    ScOptions o;
    sc_options_init(&o);
    ScErr err = {0};
    const char *env = getenv(SC_ENV_OPTIONS);
    if (!env)
        setenv("SCORD_FAKE_LOADED", "no SCORD_OPTIONS", 1);
    else if (!sc_options_parse_env(env, &o, &err))
        setenv("SCORD_FAKE_LOADED", err.msg, 1);
    else
        setenv("SCORD_FAKE_LOADED", "ok", 1);
}

__attribute__((destructor)) static void fake_unloaded(void)
{
    const char *races = getenv("SCORD_FAKE_RACES");
    if (races)
        sc_status_write(sc_options_status_fd(), true, strtoul(races, NULL, 10));
}

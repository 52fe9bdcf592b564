#!/usr/bin/env bash
# Builds the libFuzzer target for the PTX front end (clang, ASan + UBSan) and
# runs it for a given time, seeded with the PTX the tests build.
# Usage: tests/fuzz/run.sh [SECONDS] [JOBS]   (default 600 seconds, 1 job)
# Environment: BUILD (default build/fuzz), SEEDS (extra seed folders), CLANG.
# Crashes land in $BUILD/fuzz/crashes/; the corpus grows in $BUILD/fuzz/corpus/.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-600}
jobs=${2:-1}
build=${BUILD:-build/fuzz}
clang=${CLANG:-clang}
out=$build/fuzz
mkdir -p "$out/corpus" "$out/crashes" "$out/seeds"

src=$(ls src/ptx/ptx_*.c | grep -v ptx_sema)
"$clang" -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -D_GNU_SOURCE -Isrc -o "$out/fuzz_ptx" tests/fuzz/fuzz_ptx.c $src \
    src/common/sc_err.c src/common/sc_buf.c src/common/sc_arena.c

# Seeds: the PTX that `make` builds for the tests (built here if missing) and the corpus.
if ! ls build/ptx-core-seeds/testdata/ptx/*.ptx >/dev/null 2>&1; then
    make --no-print-directory BUILD=build/ptx-core-seeds \
        $(make -s BUILD=build/ptx-core-seeds -p -n 2>/dev/null | sed -n 's/^PTXCORE_DATA := //p') >/dev/null
fi
for d in build/ptx-core-seeds/testdata/ptx ${SEEDS:-}; do
    [ -d "$d" ] && find "$d" -name '*.ptx' -size -256k -exec cp -n {} "$out/seeds/" \;
done

# Parallel jobs write fuzz-N.log into the current folder: run from $out.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
before=$(ls "$out/crashes" | wc -l)
(cd "$out" && ./fuzz_ptx -max_total_time="$secs" "${parallel[@]}" -timeout=10 -rss_limit_mb=2048 \
    -max_len=262144 -artifact_prefix=crashes/ -print_final_stats=1 corpus seeds) 2>&1 |
    tee "$out/last_run.log" | grep -E '^#|cov:|ERROR|SUMMARY|stat::|Done' | tail -40
echo "new crashes: $(( $(ls "$out/crashes" | wc -l) - before )) (all in $out/crashes)"

#!/usr/bin/env bash
# test_install.sh: `make install` into a staging directory (DESTDIR), then the
# installed launcher run from there: it reports its version, finds libscord.so in
# ../lib next to itself (a program that cannot be started gets exit 127 and the
# launcher's reason, not "libscord.so not found"), the docs are in place, and it runs
# the bundled example: with a GPU, the example's races are reported; without one (CI),
# scord says that nothing was checked.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
stage=$build/tests/install-stage
prefix=/opt/scord-test
. tests/sc_test.sh
rm -rf "$stage"
san=
case $build in */san) san=SAN=1 ;; esac
make_install() {
    make --no-print-directory -s install BUILD="$build" $san DESTDIR="$stage" PREFIX="$prefix" \
        >"$build/tests/install.log" 2>&1
}
check "make install" make_install || tail -n 20 "$build/tests/install.log"
root=$stage$prefix
check "bin/scord is executable" test -x "$root/bin/scord"
check "lib/libscord.so is there" test -f "$root/lib/libscord.so"
check "the docs are there" test -f "$root/share/doc/scord/README.md" -a -f "$root/share/doc/scord/options.md"
version=$("$root/bin/scord" --version 2>&1)
check "the installed scord reports its version" test "${version%% *}" = scord
err=$("$root/bin/scord" /nonexistent/scord-install-test 2>&1 >/dev/null)
rc=$?
check "the installed scord finds its library" test "$rc" -eq 127
case $err in *"libscord.so not found"*) check "no missing-library error" false ;; esac
# A library built with the sanitizers cannot be preloaded into a program built
# without them: under `make check` the example runs under an install of the plain build.
runner=$root/bin/scord
if [ -n "$san" ]; then
    plain_scord "$build" "$build/tests"
    make --no-print-directory -s install BUILD="$build/plain" DESTDIR="$stage/plain" PREFIX="$prefix" \
        >>"$build/tests/install.log" 2>&1
    runner=$stage/plain$prefix/bin/scord
fi
example=$build/examples/racy_histogram
out=$("$runner" "$example" 2>&1)
ran_example() {
    case $out in
    *"data race"* | *"nothing was checked"*) return 0 ;;
    *) printf '%s\n' "$out" | tail -n 5; return 1 ;;
    esac
}
check "the installed scord runs the example (races, or why nothing was checked)" ran_example
case $out in *"libscord.so"*) check "the example found the installed library" false ;; esac
rm -rf "$stage"
report

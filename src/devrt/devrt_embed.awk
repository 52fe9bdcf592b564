# devrt_embed.awk: checks the device runtime's PTX and writes it as a C string.
# Usage: awk -v abi="__scord_access __scord_exit ..." -v version=6.3 -v symbol=sc_devrt_ptx \
#            -f devrt_embed.awk devrt.ptx > out.c
# Fails (exit 1, nothing usable written) when a function of abi is not defined as a
# .visible .func, or when anything declared at module scope is not named __scord_*:
# the text is appended to user modules, so every name it brings must be ours.
# The text declares `.version <version>`, the lowest PTX ISA its instructions need
# (what nvcc wrote is that of the toolkit), so that the instrumenter raises a user
# module's .version no further than the runtime needs; `.pragma "used_bytes_mask"`
# lines, load hints that need PTX ISA 8.3, are left out for the same reason.

function fail(msg) {
    if (at_end)
        printf "%s: error: %s\n", FILENAME, msg > "/dev/stderr"
    else
        printf "%s:%d: error: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
}

# The name declared by a module-scope line: `.visible .func (.param .b32 r) name(`,
# `.global .align 8 .u64 name;`, `.shared .align 4 .b8 name[16];`.
function declared_name(line,    rest) {
    rest = line
    if (match(rest, /\.(func|entry)[ \t]+/)) {
        rest = substr(rest, RSTART + RLENGTH)
        if (substr(rest, 1, 1) == "(")
            sub(/^\([^)]*\)[ \t]*/, "", rest)
        sub(/[ \t(;].*$/, "", rest)
        return rest
    }
    sub(/[ \t]*(=.*)?;.*$/, "", rest)
    sub(/(\[[^]]*\])+$/, "", rest)
    sub(/<[0-9]+>$/, "", rest)
    n = split(rest, parts, /[ \t]+/)
    return parts[n]
}

BEGIN {
    if (version !~ /^[0-9]+\.[0-9]+$/ || symbol !~ /^sc_devrt_ptx[a-z0-9_]*$/) {
        print "devrt_embed.awk: give -v version=MAJOR.MINOR -v symbol=sc_devrt_ptx..." > "/dev/stderr"
        exit 1
    }
    n_abi = split(abi, abi_names, /[ \t]+/)
    for (i = 1; i <= n_abi; i++)
        wanted[abi_names[i]] = 1
    print "/* Generated from src/devrt/devrt.cu by src/devrt/devrt_embed.awk: do not edit. */"
    print "#include \"devrt/devrt.h\""
    print ""
    print "const char " symbol "[] ="
}

# Module scope: nvcc starts declarations in column 0 and indents bodies.
/^\.(visible|extern|weak|common|func|entry|global|shared|const|local)[ \t]/ {
    name = declared_name($0)
    if ($0 ~ /^\.extern/)
        fail("the runtime must not need anything from outside (" name ")")
    else if (substr(name, 1, 8) != "__scord_")
        fail("module-scope name '" name "' does not start with __scord_")
    else if ($0 ~ /^\.visible[ \t]+\.func/ && name in wanted)
        defined[name] = 1
}

/^\.version[ \t]/ {
    $0 = ".version " version
}

/^[ \t]*\.pragma[ \t]+"used_bytes_mask/ {
    next
}

{
    line = $0
    gsub(/\\/, "\\\\", line)
    gsub(/"/, "\\\"", line)
    gsub(/\t/, "\\t", line)
    gsub(/\?/, "\\?", line)
    print "    \"" line "\\n\""
}

END {
    at_end = 1
    for (i = 1; i <= n_abi; i++)
        if (!(abi_names[i] in defined))
            fail("ABI function " abi_names[i] " is not defined as a .visible .func")
    if (failed)
        exit 1
    print "    ;"
    print "const size_t " symbol "_len = sizeof " symbol " - 1;"
}

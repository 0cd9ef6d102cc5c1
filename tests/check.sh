# check.sh - sourced by the end-to-end test scripts: run yardzee, compare, count.
# The sourcing script sets $yardzee and $tmp; `finish` prints "N passed, N failed" and exits.
passed=0
failed=0

# check NAME EXPECTED_STATUS EXPECTED_TEXT -- ARGS...
# EXPECTED_STATUS may be a pattern ([03]); EXPECTED_TEXT is grep -E on stdout and stderr.
# An error (status 1 or 2) must be exactly one line on stderr.
check() {
    local name="$1" want_status="$2" want_text="$3"
    shift 4
    "$yardzee" "$@" >"$tmp/out" 2>"$tmp/err"
    local status=$?
    local ok=1
    [[ "$status" == $want_status ]] || ok=0
    cat "$tmp/out" "$tmp/err" | grep -Eq -- "$want_text" || ok=0
    if [[ "$want_status" == [12] ]] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then ok=0; fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name (status $status, want $want_status; want text /$want_text/)"
        sed 's/^/  out: /' "$tmp/out" | head -10
        sed 's/^/  err: /' "$tmp/err" | head -5
    fi
}

# expect_true NAME COMMAND...: a condition checked by the script itself.
expect_true() {
    local name="$1"
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
    fi
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

#!/bin/bash
# `make test` several times in a row while CPU-bound loops take the machine's cores: the check
# that no test depends on the machine's load (docs/performance.md, "The tests").
#
#   bench/tests_under_load.sh [RUNS] [LOOPS]     (default 3 runs, 2 loops)
#
# Run it on a clean clone (it runs `make test` in the current directory). Prints one line per
# run: its exit code, its time and pytest's summary lines; exits non-zero if any run failed.
runs=${1:-3}
loops=${2:-2}
pids=()
for _ in $(seq "$loops"); do
    python3 -c 'while True: pass' &
    pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
failed=0
for run in $(seq "$runs"); do
    start=$(date +%s)
    make test </dev/null >"under-load-$run.log" 2>&1
    code=$?
    [ "$code" -ne 0 ] && failed=1
    echo "run $run: exit $code in $(($(date +%s) - start)) s;" \
        "$(grep -E '^=+ .*(passed|failed)' "under-load-$run.log" | tr -d '=' | tr '\n' ';')"
done
exit $failed

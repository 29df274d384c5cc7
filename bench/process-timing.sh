#!/usr/bin/env bash
# Times airlock as a whole process against the floor program (bench/floor)
# and the plain grep hook (bench/grep-hook.sh). A thin wrapper: the timing
# is done by bench/hooktime, which execs each binary directly (no sh -c,
# no date forks) and alternates them. Usage: bench/process-timing.sh
# [ROUNDS] [hooktime flags...] (default 300 rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-300}
shift || true
exec go run ./bench/hooktime -n "$rounds" "$@"

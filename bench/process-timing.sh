#!/usr/bin/env bash
# Times airlock as a whole process against the floor program (bench/floor)
# and the plain grep hook (bench/grep-hook.sh), interleaved in rounds so
# that machine noise hits all of them alike, and prints mean times and
# ratios. Usage: bench/process-timing.sh [ROUNDS] (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-300}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CGO_ENABLED=0 go build -o "$out/airlock" ./cmd/airlock
CGO_ENABLED=0 go build -o "$out/floor" ./bench/floor
export AIRLOCK_HOME="$out/state" XDG_CONFIG_HOME="$out/config" XDG_STATE_HOME="$out/state" HOME="$out/home"
mkdir -p "$out/home"

allow='{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... && git status","description":"Run tests"},"tool_use_id":"toolu_01"}'
deny='{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git -C /tmp/repo push origin main","description":"Push"},"tool_use_id":"toolu_02"}'
printf '%s' "$allow" > "$out/allow.json"
printf '%s' "$deny" > "$out/deny.json"

# time_ns CMD... runs CMD once and prints its wall time in nanoseconds.
time_ns() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s%N)
  echo $((e - s))
}

declare -A total
names=(floor-check check-allow check-deny floor-hook hook-allow hook-deny grep-allow grep-deny)
for n in "${names[@]}"; do total[$n]=0; done
hook_available=1
"$out/airlock" hook claude-code < "$out/allow.json" >/dev/null 2>&1 || hook_available=0
for ((i = 0; i < rounds; i++)); do
  total[floor-check]=$((total[floor-check] + $(time_ns "$out/floor" check --json 'go test ./... && git status')))
  total[check-allow]=$((total[check-allow] + $(time_ns "$out/airlock" check --json 'go test ./... && git status')))
  total[check-deny]=$((total[check-deny] + $(time_ns "$out/airlock" check --json 'git -C /tmp/repo push origin main')))
  total[floor-hook]=$((total[floor-hook] + $(time_ns sh -c "exec '$out/floor' < '$out/allow.json'")))
  if [ $hook_available = 1 ]; then
    total[hook-allow]=$((total[hook-allow] + $(time_ns sh -c "exec '$out/airlock' hook claude-code < '$out/allow.json'")))
    total[hook-deny]=$((total[hook-deny] + $(time_ns sh -c "exec '$out/airlock' hook claude-code < '$out/deny.json'")))
  fi
  total[grep-allow]=$((total[grep-allow] + $(time_ns sh -c "exec bench/grep-hook.sh < '$out/allow.json'")))
  total[grep-deny]=$((total[grep-deny] + $(time_ns sh -c "exec bench/grep-hook.sh < '$out/deny.json'")))
done
mean() { echo "scale=3; ${total[$1]} / $rounds / 1000000" | bc; }
ratio() { echo "scale=2; ${total[$1]} / ${total[$2]}" | bc; }
echo "rounds: $rounds   machine: $(nproc) cores, $(uname -m), $(go version | cut -d' ' -f3)"
printf '%-12s %8s ms\n' floor-check "$(mean floor-check)"
printf '%-12s %8s ms  %sx floor\n' check-allow "$(mean check-allow)" "$(ratio check-allow floor-check)"
printf '%-12s %8s ms  %sx floor\n' check-deny "$(mean check-deny)" "$(ratio check-deny floor-check)"
printf '%-12s %8s ms   (floor fed through sh < file, like the hooks below)\n' floor-hook "$(mean floor-hook)"
if [ $hook_available = 1 ]; then
  printf '%-12s %8s ms  %sx floor  %sx grep hook\n' hook-allow "$(mean hook-allow)" "$(ratio hook-allow floor-hook)" "$(ratio hook-allow grep-allow)"
  printf '%-12s %8s ms  %sx floor  %sx grep hook\n' hook-deny "$(mean hook-deny)" "$(ratio hook-deny floor-hook)" "$(ratio hook-deny grep-deny)"
fi
printf '%-12s %8s ms  %sx floor\n' grep-allow "$(mean grep-allow)" "$(ratio grep-allow floor-hook)"
printf '%-12s %8s ms  %sx floor\n' grep-deny "$(mean grep-deny)" "$(ratio grep-deny floor-hook)"

#!/usr/bin/env bash
# Times the journal's user-facing operations as whole processes on
# journals of 0, 100k and 1M events (bench/genjournal), interleaved in
# rounds so that machine noise hits every size alike, and prints each
# mean with its ratio to the empty journal; then 200 concurrent deferred
# hooks per size, with their p50 and p99.
# Usage: bench/journal-timing.sh [ROUNDS] [SIZES...] (default 20; 0 100000 1000000).
# A 1M-event journal is about 330 MB: it goes under a mktemp -d in /tmp
# and is deleted on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
shift || true
sizes=("${@:-0 100000 1000000}")
read -r -a sizes <<<"${sizes[*]}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CGO_ENABLED=0 go build -o "$out/airlock" ./cmd/airlock
CGO_ENABLED=0 go build -o "$out/floor" ./bench/floor
go build -o "$out/genjournal" ./bench/genjournal
export AIRLOCK_MODE=unattended

ev() { printf '{"session_id":"bench-session","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"%s","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"toolu_01"}' "$1" "$2"; }
ev PreToolUse 'go test ./... && git status' > "$out/allow.json"
ev PreToolUse 'git -C /tmp/repo push origin main' > "$out/defer.json"
printf '{"session_id":"bench-session","cwd":"/tmp","hook_event_name":"Stop","stop_hook_active":false}' > "$out/stop.json"

for n in "${sizes[@]}"; do
  mkdir -p "$out/$n/home"
  if [ "$n" != 0 ]; then "$out/genjournal" -n "$n" -dir "$out/$n/state/journal"; sync; fi
  s=$(date +%s%N)
  AIRLOCK_HOME="$out/$n/state" HOME="$out/$n/home" "$out/airlock" queue list >/dev/null
  e=$(date +%s%N)
  echo "size $n: first use (builds the index) $(( (e - s) / 1000000 )) ms, $(du -sh "$out/$n/state" | cut -f1) on disk"
done

time_ns() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s%N)
  echo $((e - s))
}
declare -A total
cases=(floor hook-allow hook-defer queue-list stop-hook report-session)
for ((i = 0; i < rounds; i++)); do
  total[floor]=$(( ${total[floor]:-0} + $(time_ns sh -c "exec '$out/floor' < '$out/allow.json'") ))
  for n in "${sizes[@]}"; do
    export AIRLOCK_HOME="$out/$n/state" HOME="$out/$n/home"
    total[hook-allow.$n]=$(( ${total[hook-allow.$n]:-0} + $(time_ns sh -c "exec '$out/airlock' hook claude-code < '$out/allow.json'") ))
    total[hook-defer.$n]=$(( ${total[hook-defer.$n]:-0} + $(time_ns sh -c "exec '$out/airlock' hook claude-code < '$out/defer.json'") ))
    total[queue-list.$n]=$(( ${total[queue-list.$n]:-0} + $(time_ns "$out/airlock" queue list) ))
    total[stop-hook.$n]=$(( ${total[stop-hook.$n]:-0} + $(time_ns sh -c "exec '$out/airlock' hook claude-code < '$out/stop.json'") ))
    total[report-session.$n]=$(( ${total[report-session.$n]:-0} + $(time_ns "$out/airlock" report --session bench-session) ))
  done
done
ms() { echo "scale=2; $1 / $rounds / 1000000" | bc; }
echo "rounds: $rounds   machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "floor (fed through sh < file): $(ms "${total[floor]}") ms"
for c in "${cases[@]:1}"; do
  line="$c:"
  for n in "${sizes[@]}"; do
    line+="  $n: $(ms "${total[$c.$n]}") ms ($(echo "scale=2; ${total[$c.$n]} / ${total[$c.${sizes[0]}]}" | bc)x)"
  done
  [ "$c" = hook-allow ] && line+="  [empty: $(echo "scale=2; ${total[$c.${sizes[0]}]} / ${total[floor]}" | bc)x floor]"
  echo "$line"
done

# 200 hooks at once: each deferred call takes the lock, looks for an
# approval and fsyncs.
for n in "${sizes[@]}"; do
  export AIRLOCK_HOME="$out/$n/state" HOME="$out/$n/home"
  : > "$out/lat.$n"
  for ((k = 0; k < 200; k++)); do
    ( s=$(date +%s%N); "$out/airlock" hook claude-code < "$out/defer.json" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )) >> "$out/lat.$n" ) &
  done
  wait
  sort -n "$out/lat.$n" > "$out/lat.$n.s"
  echo "200 concurrent deferred hooks, $n events: p50 $(sed -n 100p "$out/lat.$n.s") ms, p99 $(sed -n 198p "$out/lat.$n.s") ms, max $(tail -1 "$out/lat.$n.s") ms"
done

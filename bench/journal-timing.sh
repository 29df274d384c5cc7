#!/usr/bin/env bash
# Times the journal's user-facing operations as whole processes on
# journals of 0, 100k and 1M events (bench/genjournal), interleaved in
# rounds so that machine noise hits every size alike, and prints each
# mean with its ratio to the empty journal; then 200 concurrent deferred
# hooks per size, with their p50 and p99.
# Usage: bench/journal-timing.sh [ROUNDS] [SIZES...] (default 20; 0 100000 1000000).
# AIRLOCK_BENCH_HOOKD=1 also times the hook cases through the resident
# decision service (airlock-hook, answered by an airlock hookd started per
# size and stopped after), beside the same cases in process.
# bench/journaltime (go run ./bench/journaltime) prints the same goals
# table with one fork and exec per run and no shell or date process
# around it, medians of wall and CPU time, and the service's cases; this
# script stays for its shell-fed figures in docs/BENCHMARKS.md.
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
CGO_ENABLED=0 go build -o "$out/airlock-hook" ./cmd/airlock-hook
hookd=${AIRLOCK_BENCH_HOOKD:-0}
# start_hookd / stop_hookd run one service for the size in AIRLOCK_HOME.
# The service starts in a subshell, so that it is not one of this shell's
# jobs and "wait" below waits for the hooks only.
start_hookd() {
  ("$out/airlock" hookd --idle 1h 2>/dev/null &)
  until [ -S "$AIRLOCK_HOME/hookd.sock" ]; do sleep 0.05; done
}
stop_hookd() {
  "$out/airlock" hookd --stop >/dev/null
  while [ -S "$AIRLOCK_HOME/hookd.sock" ]; do sleep 0.05; done
}
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

# run_case NAME CMD... runs CMD once and adds its wall time and its CPU
# time (user + system, the process and its children) in microseconds to
# wall[NAME] and cpu[NAME]. On a machine shared with busy neighbours the
# CPU time is the steadier figure: waiting for a core is not counted.
declare -A wall cpu
run_case() {
  local name=$1 r u s
  shift
  local TIMEFORMAT='%3R %3U %3S'
  read -r r u s < <({ time "$@" >/dev/null 2>&1; } 2>&1 || true)
  wall[$name]=$(( ${wall[$name]:-0} + $(echo "$r * 1000000 / 1" | bc) ))
  cpu[$name]=$(( ${cpu[$name]:-0} + $(echo "($u + $s) * 1000000 / 1" | bc) ))
}
cases=(hook-allow hook-defer queue-list stop-hook report-session)
[ "$hookd" = 1 ] && cases+=(svc-hook-allow svc-hook-defer svc-stop-hook)
for ((i = 0; i < rounds; i++)); do
  run_case floor sh -c "exec '$out/floor' < '$out/allow.json'"
  for n in "${sizes[@]}"; do
    export AIRLOCK_HOME="$out/$n/state" HOME="$out/$n/home"
    run_case hook-allow.$n sh -c "exec '$out/airlock' hook claude-code < '$out/allow.json'"
    run_case hook-defer.$n sh -c "exec '$out/airlock' hook claude-code < '$out/defer.json'"
    run_case queue-list.$n "$out/airlock" queue list
    run_case stop-hook.$n sh -c "exec '$out/airlock' hook claude-code < '$out/stop.json'"
    run_case report-session.$n "$out/airlock" report --session bench-session
    if [ "$hookd" = 1 ]; then
      start_hookd
      # The service's own CPU is not in these processes' figures: the
      # wall time is the one to read for them.
      run_case svc-hook-allow.$n sh -c "exec '$out/airlock-hook' claude-code < '$out/allow.json'"
      run_case svc-hook-defer.$n sh -c "exec '$out/airlock-hook' claude-code < '$out/defer.json'"
      run_case svc-stop-hook.$n sh -c "exec '$out/airlock-hook' claude-code < '$out/stop.json'"
      stop_hookd
    fi
  done
done
ms() { echo "scale=2; $1 / $rounds / 1000" | bc; }
echo "rounds: $rounds   machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "floor (fed through sh < file): wall $(ms "${wall[floor]}") ms, cpu $(ms "${cpu[floor]}") ms"
for c in "${cases[@]}"; do
  for kind in wall cpu; do
    declare -n t=$kind
    line="$c $kind:"
    for n in "${sizes[@]}"; do
      line+="  $n: $(ms "${t[$c.$n]}") ms ($(echo "scale=2; ${t[$c.$n]} / ${t[$c.${sizes[0]}]}" | bc)x)"
    done
    [ "$c" = hook-allow ] && line+="  [empty: $(echo "scale=2; ${t[$c.${sizes[0]}]} / ${t[floor]}" | bc)x floor]"
    echo "$line"
    unset -n t
  done
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
  if [ "$hookd" = 1 ]; then
    start_hookd
    : > "$out/slat.$n"
    for ((k = 0; k < 200; k++)); do
      ( s=$(date +%s%N); "$out/airlock-hook" claude-code < "$out/defer.json" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )) >> "$out/slat.$n" ) &
    done
    wait
    sort -n "$out/slat.$n" > "$out/slat.$n.s"
    echo "200 concurrent deferred hooks through airlock hookd, $n events: p50 $(sed -n 100p "$out/slat.$n.s") ms, p99 $(sed -n 198p "$out/slat.$n.s") ms, max $(tail -1 "$out/slat.$n.s") ms"
    stop_hookd
  fi
done

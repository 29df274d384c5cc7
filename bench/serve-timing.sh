#!/usr/bin/env bash
# Times the dashboard's queue page (GET /, the whole HTML of every open
# item) served by "airlock serve" on a journal of N events with 1,000
# pending items (bench/genjournal), as curl sees it over loopback: the
# time to first byte and to the last, p50, p90 and max over ROUNDS
# requests, after one warm-up request. Three cases: the journal unchanged
# since the last page (a reload); an allowed hook call recorded before
# each request (the journal moved, the queue did not); a deferred hook
# call before each (the queue moved: it is read again from the index, as
# when the live update fetches it). With each, the server's CPU time per
# request (user + system, from /proc), the steadier figure on a machine
# shared with busy neighbours.
# Usage: bench/serve-timing.sh [ROUNDS] [EVENTS] (default 200 1000000).
# A 1M-event journal is about 330 MB: it goes under a mktemp -d in /tmp
# and is deleted on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
events=${2:-1000000}
out=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
CGO_ENABLED=0 go build -o "$out/airlock" ./cmd/airlock
CGO_ENABLED=0 go build -o "$out/airlock-serve" ./cmd/airlock-serve
go build -o "$out/genjournal" ./bench/genjournal
"$out/genjournal" -n "$events" -dir "$out/state/journal"
export AIRLOCK_HOME="$out/state" HOME="$out/home" AIRLOCK_MODE=unattended
mkdir -p "$HOME"
s=$(date +%s%N)
pending=$("$out/airlock" queue list | grep -c ' pending ' || true)
e=$(date +%s%N)
echo "journal: $events events, $pending pending, $(du -sh "$out/state" | cut -f1) on disk; first queue list (builds the index) $(( (e - s) / 1000000 )) ms"
"$out/airlock" serve --listen 127.0.0.1:0 >"$out/url" 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -s "$out/url" ] && break; sleep 0.1; done
url=$(head -1 "$out/url")
base=${url%%/login*}
curl -s -c "$out/jar" -o /dev/null "$url"
rows=$(curl -s -b "$out/jar" "$base/" | grep -c 'class="id"' || true)
echo "queue page: $rows rows, $(curl -s -b "$out/jar" "$base/" | wc -c) bytes"
: >"$out/times"
pct() { sort -n | awk -v q="$1" '{ v[NR] = $1 } END { i = int(NR * q); if (i < 1) i = 1; printf "%.1f", v[i] * 1000 }'; }
cpu_ms() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
tck=$(getconf CLK_TCK)
report() {
  echo "GET / ($1) over $rounds requests:" \
    "first byte p50 $(cut -d' ' -f1 "$out/times" | pct 0.5) ms, p90 $(cut -d' ' -f1 "$out/times" | pct 0.9) ms;" \
    "whole page p50 $(cut -d' ' -f2 "$out/times" | pct 0.5) ms, p90 $(cut -d' ' -f2 "$out/times" | pct 0.9) ms, max $(cut -d' ' -f2 "$out/times" | pct 1) ms;" \
    "server CPU $(echo "scale=1; ($3 - $2) * 1000 / $tck / $rounds" | bc) ms per request"
}
c0=$(cpu_ms)
for ((i = 0; i < rounds; i++)); do
  curl -s -b "$out/jar" -o /dev/null -w '%{time_starttransfer} %{time_total}\n' "$base/" >>"$out/times"
done
report "journal unchanged" "$c0" "$(cpu_ms)"
printf '{"session_id":"bench-session","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"toolu_01"}' >"$out/allow.json"
: >"$out/times"
cpu=0
for ((i = 0; i < rounds; i++)); do
  "$out/airlock" hook claude-code <"$out/allow.json" >/dev/null
  c0=$(cpu_ms)
  curl -s -b "$out/jar" -o /dev/null -w '%{time_starttransfer} %{time_total}\n' "$base/" >>"$out/times"
  cpu=$((cpu + $(cpu_ms) - c0))
done
report "an allowed call before each" 0 "$cpu"
printf '{"session_id":"bench-session","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"toolu_01"}' >"$out/defer.json"
: >"$out/times"
cpu=0
for ((i = 0; i < rounds; i++)); do
  "$out/airlock" hook claude-code <"$out/defer.json" >/dev/null
  c0=$(cpu_ms)
  curl -s -b "$out/jar" -o /dev/null -w '%{time_starttransfer} %{time_total}\n' "$base/" >>"$out/times"
  cpu=$((cpu + $(cpu_ms) - c0))
done
report "a deferred call before each" 0 "$cpu"

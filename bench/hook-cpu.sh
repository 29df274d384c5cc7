#!/usr/bin/env bash
# CPU time (perf's task-clock) and page faults of the hook's allowed path,
# per process, for several airlock binaries and the floor program, run by
# run in a shuffled order so that a loaded machine's noise hits them alike.
# Minimum and median are printed; on a busy machine the median of CPU time
# is steadier than wall time.
#
# Usage: bench/hook-cpu.sh ROUNDS NAME=BINARY...
#   e.g. bench/hook-cpu.sh 200 before=/tmp/airlock-main now=/tmp/airlock
# Needs perf.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:?rounds}
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CGO_ENABLED=0 go build -o "$out/floor" ./bench/floor
export AIRLOCK_HOME="$out/state" XDG_CONFIG_HOME="$out/config" XDG_STATE_HOME="$out/state" HOME="$out/home"
mkdir -p "$out/home"
printf '%s' '{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... && git status","description":"Run tests"},"tool_use_id":"toolu_01"}' > "$out/allow.json"
declare -A bin=([floor]="$out/floor")
names=(floor)
for nb in "$@"; do
  bin[${nb%%=*}]=${nb#*=}
  names+=("${nb%%=*}")
done
for ((i = 0; i < rounds; i++)); do
  for n in $(printf '%s\n' "${names[@]}" | shuf); do
    if [ "$n" = floor ]; then args=("${bin[$n]}"); else args=("${bin[$n]}" hook claude-code --event PreToolUse); fi
    perf stat -x, -e task-clock,page-faults "${args[@]}" < "$out/allow.json" 2>&1 >/dev/null |
      awk -F, -v n="$n" '/task-clock/{c=$1} /page-faults/{p=$1} END{print n, c, p}' >> "$out/raw"
  done
done
echo "rounds: $rounds   machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${names[@]}"; do
  awk -v n="$n" '$1==n{print $2}' "$out/raw" | sort -n > "$out/c"
  awk -v n="$n" '$1==n{print $3}' "$out/raw" | sort -n > "$out/p"
  printf '%-8s CPU min %6.2f ms  median %6.2f ms   page faults median %s\n' "$n" \
    "$(head -1 "$out/c")" "$(sed -n "$(((rounds + 1) / 2))p" "$out/c")" "$(sed -n "$(((rounds + 1) / 2))p" "$out/p")"
done

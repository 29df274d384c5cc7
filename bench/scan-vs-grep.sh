#!/usr/bin/env bash
# Times "airlock scan --no-record" against the plain bash loop that runs
# grep once per pattern, over the same generated corpora: plain text (the
# shape of "claude --print" output and terminal logs) and a Claude Code
# transcript. Prints MB/s for each and the ratio to airlock.
#
# Two grep loops are timed: the nine phrases of the plain grep hook
# (bench/grep-hook.sh, read from that file), and one pattern per family
# the scanner covers (printed by the corpus generator from the classifier
# specs), which is what a grep loop needs to look for what airlock looks
# for. Each process is pinned to one core (taskset -c 0, GOMAXPROCS=1);
# the cases run interleaved for ROUNDS rounds so that machine noise hits
# them alike, and the mean time of each is reported.
#
# Usage: bench/scan-vs-grep.sh [SIZE_MIB] [ROUNDS]   (default 200 MiB, 3 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-200}
rounds=${2:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

CGO_ENABLED=0 go build -o "$out/airlock" ./cmd/airlock
go build -o "$out/gen" ./internal/scan/corpus/gen
"$out/gen" -kind text -size "$size" -o "$out/corpus.txt"
"$out/gen" -kind transcript -size "$size" -o "$out/corpus.jsonl"
"$out/gen" -families > "$out/families.txt"
sed -n "s/.*grep -qiE '\([^']*\)'.*/\1/p" bench/grep-hook.sh | tr '|' '\n' > "$out/hook.txt"
export HOME="$out/home" XDG_STATE_HOME="$out/state" XDG_CONFIG_HOME="$out/config"
mkdir -p "$HOME"

one=(taskset -c 0)
command -v taskset >/dev/null || one=()

# grep_loop FLAGS PATTERNS FILE: the plain bash loop, one grep per pattern.
grep_loop() {
  local flags=$1 patterns=$2 file=$3 p
  while IFS= read -r p; do
    grep "$flags" -- "$p" "$file" || true
  done < "$patterns"
}

# time_ns CMD...: wall time of one run in nanoseconds, output discarded.
time_ns() {
  local s e
  s=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  e=$(date +%s%N)
  echo $((e - s))
}

declare -A total
cases=()
for corpus in txt jsonl; do
  for c in airlock hook families; do
    cases+=("$corpus-$c")
    total[$corpus-$c]=0
  done
done
# Warm the page cache.
cat "$out/corpus.txt" "$out/corpus.jsonl" > /dev/null

for ((i = 0; i < rounds; i++)); do
  for corpus in txt jsonl; do
    f="$out/corpus.$corpus"
    total[$corpus-airlock]=$((total[$corpus-airlock] + $(time_ns env GOMAXPROCS=1 "${one[@]}" "$out/airlock" scan --no-record "$f")))
    total[$corpus-hook]=$((total[$corpus-hook] + $(time_ns "${one[@]}" bash -c "$(declare -f grep_loop); grep_loop -niE '$out/hook.txt' '$f'")))
    total[$corpus-families]=$((total[$corpus-families] + $(time_ns "${one[@]}" bash -c "$(declare -f grep_loop); grep_loop -nE '$out/families.txt' '$f'")))
  done
done

findings() { "$out/airlock" scan --no-record "$1" | tail -1 || true; }

printf 'machine: %s, %s cores; %s\n' "$(uname -m)" "$(nproc)" "$(go version | cut -d' ' -f3)"
printf 'corpora: %s MiB each; %d rounds; hook phrases: %d; family patterns: %d\n' "$size" "$rounds" "$(wc -l < "$out/hook.txt")" "$(wc -l < "$out/families.txt")"
printf '%-11s %-38s %10s %8s\n' corpus case 'MB/s' 'ratio'
for corpus in txt jsonl; do
  bytes=$(stat -c %s "$out/corpus.$corpus")
  name=text
  [ "$corpus" = jsonl ] && name=transcript
  base=${total[$corpus-airlock]}
  for c in airlock hook families; do
    t=${total[$corpus-$c]}
    label="airlock scan --no-record"
    [ "$c" = hook ] && label="grep loop, $(wc -l < "$out/hook.txt") hook phrases"
    [ "$c" = families ] && label="grep loop, $(wc -l < "$out/families.txt") family patterns"
    mbs=$(awk -v b="$bytes" -v t="$t" -v r="$rounds" 'BEGIN { printf "%.1f", b / (t / r / 1e9) / 1e6 }')
    ratio=$(awk -v a="$base" -v t="$t" 'BEGIN { printf "%.2f", t / a }')
    printf '%-11s %-38s %10s %7sx\n' "$name" "$label" "$mbs" "$ratio"
  done
  printf '%-11s airlock findings: %s\n' "$name" "$(findings "$out/corpus.$corpus")"
done

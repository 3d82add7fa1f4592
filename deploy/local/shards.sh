#!/usr/bin/env bash
# Runs one osvlab job as N shards on this machine at once, then merges them.
#
#   deploy/local/shards.sh N OUT osvlab run --provider openai --model gpt-4o --tasks all
#   deploy/local/shards.sh 4 out/grade npx osvlab grade --responses answers.jsonl --concurrency 1
#
# Shard K writes OUT/shard-K (the command gets `--shard K/N --out OUT/shard-K`
# appended); the merged run goes to OUT/merged. A shard that fails is named,
# nothing is merged, and rerunning this script resumes every shard where it
# stopped (finished shards do no work again). Keys come from the environment,
# as for any osvlab run. See docs/scale.md.
set -euo pipefail
if [ "$#" -lt 3 ]; then
  echo "usage: $0 N OUT command [args...]" >&2
  exit 4
fi
n="$1"; out="$2"; shift 2
case "$n" in ''|*[!0-9]*) echo "N must be a positive integer" >&2; exit 4;; esac
mkdir -p "$out"
pids=()
for k in $(seq 1 "$n"); do
  "$@" --shard "$k/$n" --out "$out/shard-$k" >"$out/shard-$k.log" 2>&1 &
  pids+=("$!")
done
failed=()
for k in $(seq 1 "$n"); do
  if ! wait "${pids[$((k - 1))]}"; then failed+=("$k/$n"); fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "shards failed: ${failed[*]} (logs in $out/shard-K.log); rerun this command to resume them" >&2
  exit 1
fi
rm -rf "$out/merged"
dirs=()
for k in $(seq 1 "$n"); do dirs+=("$out/shard-$k"); done
# The same osvlab the job used: everything of the command before its subcommand.
osvlab=()
for a in "$@"; do
  case "$a" in run|grade) break;; esac
  osvlab+=("$a")
done
"${osvlab[@]}" merge "${dirs[@]}" --out "$out/merged"

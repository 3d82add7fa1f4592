#!/usr/bin/env bash
# Runs an osvlab run as N shards on this machine at once, then merges them.
# The run is the one the OSVLAB_* settings describe (deploy/settings.sh, with
# their defaults); arguments are added to every shard's `osvlab run`:
#
#   OSVLAB_MODEL=gpt-4o-mini OSVLAB_SHARD_TOTAL=4 deploy/local/shards.sh --concurrency 2
#
# Shard K writes OUT/shard-K (its output in OUT/shard-K.log); the merged run
# goes to OUT/merged. A shard that fails is named, nothing is merged, and
# rerunning the same command resumes every shard where it stopped (finished
# shards do no work again). See docs/scale.md.
set -euo pipefail
OSVLAB_ROOT=${OSVLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export OSVLAB_ROOT
. "$OSVLAB_ROOT/deploy/settings.sh"
n=$OSVLAB_SHARD_TOTAL
mkdir -p "$OSVLAB_OUT"
pids=()
for k in $(seq 1 "$n"); do
  OSVLAB_SHARD=$k "$OSVLAB_ROOT/deploy/shard.sh" "$@" >"$OSVLAB_OUT/shard-$k.log" 2>&1 &
  pids+=("$!")
done
failed=()
for k in $(seq 1 "$n"); do
  if ! wait "${pids[$((k - 1))]}"; then failed+=("$k/$n"); fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "shards failed: ${failed[*]} (logs in $OSVLAB_OUT/shard-K.log); rerun this command to resume them" >&2
  exit 1
fi
rm -rf "$OSVLAB_OUT/merged"
"$OSVLAB_ROOT/deploy/merge.sh"

#!/usr/bin/env bash
# Runs shard K of N of the osvlab run that the OSVLAB_* settings describe
# (deploy/settings.sh), into OUT/shard-K; arguments are added to `osvlab run`
# (e.g. --concurrency 2). K comes from the first of:
#   OSVLAB_SHARD            1-based (the local recipe, the Actions matrix)
#   JOB_COMPLETION_INDEX    0-based (a Kubernetes Indexed Job)
#   SLURM_ARRAY_TASK_ID     0-based (a Slurm job array)
# Rerunning it on the same OUT resumes the shard. See docs/scale.md.
set -euo pipefail
OSVLAB_ROOT=${OSVLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
. "$OSVLAB_ROOT/deploy/settings.sh"

if [ -n "${OSVLAB_SHARD:-}" ]; then k=$OSVLAB_SHARD
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then k=$((JOB_COMPLETION_INDEX + 1))
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then k=$((SLURM_ARRAY_TASK_ID + 1))
else
  echo "which shard? set OSVLAB_SHARD (1..$OSVLAB_SHARD_TOTAL), or run as a Kubernetes Indexed Job or a Slurm array task" >&2
  exit 4
fi

flags=(--provider "$OSVLAB_PROVIDER" --model "$OSVLAB_MODEL" --tasks "$OSVLAB_TASKS"
  --n "$OSVLAB_N" --shots "$OSVLAB_SHOTS" --repair "$OSVLAB_REPAIR")
if [ -n "$OSVLAB_BASE_URL" ]; then flags+=(--base-url "$OSVLAB_BASE_URL"); fi
echo "osvlab shard $k/$OSVLAB_SHARD_TOTAL: $OSVLAB_PROVIDER $OSVLAB_MODEL into $OSVLAB_OUT/shard-$k"
osvlab run "${flags[@]}" --shard "$k/$OSVLAB_SHARD_TOTAL" --out "$OSVLAB_OUT/shard-$k" "$@"

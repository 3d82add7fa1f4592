# The settings of every osvlab recipe (local, Slurm, Kubernetes, GitHub Actions),
# read from the environment; each line gives the default used when the variable is
# unset or empty. Sourced by deploy/shard.sh and deploy/merge.sh. docs/scale.md
# lists them, and test/deploy/ checks that the recipes agree with these defaults.
#
# The key is none of these: it stays in the environment (OSVLAB_API_KEY, or the
# provider's own variable such as OPENAI_API_KEY), or in a file only its owner
# can read (OSVLAB_KEY_FILE, default ~/.osvlab-key), and is never put on a
# command line, in a manifest or in a log.
: "${OSVLAB_PROVIDER:=openai}"       # openai, anthropic, gemini or openai-compatible
: "${OSVLAB_MODEL:=gpt-4o}"          # the provider's model id
: "${OSVLAB_BASE_URL:=}"             # empty: the provider's own endpoint
: "${OSVLAB_TASKS:=all}"             # task selection, as osvlab run --tasks
: "${OSVLAB_N:=1}"                   # samples per task
: "${OSVLAB_SHOTS:=5}"               # worked examples in the prompt
: "${OSVLAB_REPAIR:=0}"              # repair rounds after a failed answer
: "${OSVLAB_OUT:=out/$OSVLAB_MODEL}" # shard K writes OUT/shard-K, the merge OUT/merged
: "${OSVLAB_SHARD_TOTAL:=4}"         # N: the number of shards
export OSVLAB_PROVIDER OSVLAB_MODEL OSVLAB_BASE_URL OSVLAB_TASKS OSVLAB_N OSVLAB_SHOTS \
  OSVLAB_REPAIR OSVLAB_OUT OSVLAB_SHARD_TOTAL

case "$OSVLAB_SHARD_TOTAL" in
  ''|*[!0-9]*|0) echo "OSVLAB_SHARD_TOTAL must be a positive integer, got '$OSVLAB_SHARD_TOTAL'" >&2; exit 4;;
esac

# A key in a file only its owner can read, for engines that pass no secrets
# (the file is read here, so the key reaches osvlab through its environment).
key_file=${OSVLAB_KEY_FILE:-${HOME:-}/.osvlab-key}
if [ -z "${OSVLAB_API_KEY:-}" ] && [ -r "$key_file" ]; then
  OSVLAB_API_KEY=$(cat "$key_file"); export OSVLAB_API_KEY
fi

# The CLI of the clone these scripts belong to, whatever the working directory.
osvlab() { node "$OSVLAB_ROOT/bin/osvlab.mjs" "$@"; }

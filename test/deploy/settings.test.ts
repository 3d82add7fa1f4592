/**
 * The recipes' settings (deploy/settings.sh): docs/scale.md documents each
 * with the default the script uses, every recipe runs the one pair of scripts
 * that read them (deploy/shard.sh, deploy/merge.sh), and those scripts refuse
 * a run they cannot place. The recipes running for real is
 * deploy/slurm/test-local.sh (a CI step of its own, see docs/scale.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../deploy/kubernetes/render.ts';
import { ROOT, settingDefaults } from './recipes.ts';

const SCRIPTS = ['deploy/settings.sh', 'deploy/shard.sh', 'deploy/merge.sh', 'deploy/local/shards.sh',
  'deploy/slurm/shard.sbatch', 'deploy/slurm/merge.sbatch', 'deploy/slurm/test-local.sh'];

/** Runs a deploy script with exactly `env` (and PATH), as a batch engine would. */
function script(path: string, env: Record<string, string>): { code: number | null; out: string; err: string } {
  const r = spawnSync('bash', [join(ROOT, path)], { env: { PATH: process.env.PATH!, HOME: '/nonexistent', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the recipe settings', () => {
  it('docs/scale.md lists every setting with the default deploy/settings.sh uses', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'scale.md'), 'utf8');
    // Rows `| \`NAME\` | \`DEFAULT\` | ... |`, or "empty" for an empty default; out/MODEL stands for out/$OSVLAB_MODEL.
    const rows = [...doc.matchAll(/^\| `(OSVLAB_\w+)` \| (?:`([^`]*)`|empty) \|/gm)];
    const documented = new Map(rows.map((m) => [m[1], (m[2] ?? '').replace('out/MODEL', 'out/$OSVLAB_MODEL')]));
    const defaults = settingDefaults();
    expect([...defaults.keys()]).toEqual([...SETTINGS]);
    expect(documented).toEqual(defaults);
  });

  it('every recipe runs deploy/shard.sh and deploy/merge.sh, and the scripts parse', () => {
    for (const s of SCRIPTS) expect(spawnSync('bash', ['-n', join(ROOT, s)]).status, s).toBe(0);
    const text = (p: string) => readFileSync(join(ROOT, p), 'utf8');
    expect(text('deploy/slurm/shard.sbatch')).toMatch(/^exec "\$OSVLAB_ROOT\/deploy\/shard\.sh" /m);
    expect(text('deploy/slurm/merge.sbatch')).toMatch(/^exec "\$OSVLAB_ROOT\/deploy\/merge\.sh"$/m);
    expect(text('deploy/local/shards.sh')).toContain('OSVLAB_SHARD=$k "$OSVLAB_ROOT/deploy/shard.sh" "$@"');
    expect(text('deploy/local/shards.sh')).toContain('"$OSVLAB_ROOT/deploy/merge.sh"');
    // The Kubernetes and Actions recipes are checked by kubernetes.test.ts and github-actions.test.ts.
  });

  it('shard.sh refuses a run it cannot place, before anything starts', () => {
    const none = script('deploy/shard.sh', {});
    expect(none.code).toBe(4);
    expect(none.err).toContain('which shard? set OSVLAB_SHARD (1..4)');
    const total = script('deploy/shard.sh', { OSVLAB_SHARD: '1', OSVLAB_SHARD_TOTAL: 'four' });
    expect(total.code).toBe(4);
    expect(total.err).toContain("OSVLAB_SHARD_TOTAL must be a positive integer, got 'four'");
    const merge = script('deploy/merge.sh', { OSVLAB_SHARD_TOTAL: '0' });
    expect(merge.code).toBe(4);
  });

  it('the settings reach osvlab run: a shard with no key is refused by the CLI, naming the variable', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'osvlab-settings-')), 'out');
    try {
      const r = script('deploy/shard.sh', { OSVLAB_SHARD: '2', OSVLAB_SHARD_TOTAL: '3', OSVLAB_OUT: out, OSVLAB_PROVIDER: 'anthropic' });
      expect(r.out).toContain(`osvlab shard 2/3: anthropic gpt-4o into ${out}/shard-2`);
      expect(r.code).toBe(4);
      expect(r.err).toContain('no API key: set OSVLAB_API_KEY or ANTHROPIC_API_KEY');
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });
});

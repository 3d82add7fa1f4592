/**
 * The GitHub Actions recipe (deploy/github-actions/osvlab-shards.yml),
 * validated offline: against the workflow schema (@action-validator/core, which
 * also resolves `needs`), the matrix against the shard count the merge job
 * reads, the inputs against deploy/settings.sh, the key only through `env:`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SETTINGS } from '../../deploy/kubernetes/render.ts';
import { ROOT, settingDefaults, yamlObjects } from './recipes.ts';

const FILE = join(ROOT, 'deploy', 'github-actions', 'osvlab-shards.yml');
const SOURCE = readFileSync(FILE, 'utf8');

/** The workflow's input of each setting (OSVLAB_BASE_URL is input base_url); OUT and N are not inputs. */
const INPUT_OF: Readonly<Record<string, string>> = {
  OSVLAB_PROVIDER: 'provider', OSVLAB_MODEL: 'model', OSVLAB_BASE_URL: 'base_url', OSVLAB_TASKS: 'tasks',
  OSVLAB_N: 'n', OSVLAB_SHOTS: 'shots', OSVLAB_REPAIR: 'repair',
};

function validatorErrors(src: string): string[] {
  const flat = (errors: any[]): string[] =>
    errors.flatMap((e) => (e.states ? e.states.flatMap((s: any) => flat(s.errors)) : [`${e.path ?? ''} ${e.code}: ${e.detail ?? e.title}`]));
  return flat(validateWorkflow(src).errors);
}

/** Every step of every job, with its job's name. */
function steps(wf: any): { job: string; step: any }[] {
  return Object.entries<any>(wf.jobs).flatMap(([job, j]) => (j.steps ?? []).map((step: any) => ({ job, step })));
}

/**
 * What is wrong with the workflow as a sharded run, as sentences (empty when nothing is): the matrix
 * is exactly 1..N for the N of the workflow's env, which no job or step redefines, so that the merge
 * job (after every shard) merges N; the shard step and the merge run the deploy/ scripts.
 */
function shardCountProblems(wf: any): string[] {
  const problems: string[] = [];
  const total = Number(wf.env?.OSVLAB_SHARD_TOTAL);
  if (!Number.isInteger(total) || total < 1) return ['the workflow env has no OSVLAB_SHARD_TOTAL'];
  const matrix = wf.jobs.shard?.strategy?.matrix?.shard;
  const expected = Array.from({ length: total }, (_, i) => i + 1);
  if (JSON.stringify(matrix) !== JSON.stringify(expected)) problems.push(`matrix.shard is ${JSON.stringify(matrix)} but OSVLAB_SHARD_TOTAL is ${total}`);
  if (wf.jobs.shard?.strategy?.['fail-fast'] !== false) problems.push('fail-fast is not false: one failed shard would cancel the others');
  for (const [name, job] of Object.entries<any>(wf.jobs)) {
    for (const v of ['OSVLAB_SHARD_TOTAL', 'OSVLAB_OUT']) if (job.env?.[v] !== undefined) problems.push(`job ${name} redefines ${v}`);
  }
  for (const { job, step } of steps(wf)) {
    for (const v of ['OSVLAB_SHARD_TOTAL', 'OSVLAB_OUT']) if (step.env?.[v] !== undefined) problems.push(`a step of ${job} redefines ${v}`);
  }
  const run = steps(wf).filter((s) => s.job === 'shard' && s.step.run === 'deploy/shard.sh');
  if (run.length !== 1 || run[0].step.env?.OSVLAB_SHARD !== '${{ matrix.shard }}') problems.push('the shard job does not run deploy/shard.sh as shard ${{ matrix.shard }}');
  const needs = [wf.jobs.merge?.needs].flat();
  if (!needs.includes('shard')) problems.push('the merge job does not wait for the shards');
  if (!steps(wf).some((s) => s.job === 'merge' && s.step.run === 'deploy/merge.sh')) problems.push('the merge job does not run deploy/merge.sh');
  const download = steps(wf).find((s) => s.job === 'merge' && String(s.step.uses).startsWith('actions/download-artifact@'));
  if (download?.step.with?.path !== '${{ env.OSVLAB_OUT }}' || download?.step.with?.pattern !== 'shard-*') problems.push('the merge job does not download the shards into OUT');
  return problems;
}

/** Secrets used anywhere but a step's or job's `env:` (a `run:` or `with:` would put them on a command line or in an input). */
function keyProblems(wf: any): string[] {
  const problems: string[] = [];
  for (const { job, step } of steps(wf)) {
    for (const [k, v] of Object.entries<any>(step)) if (k !== 'env' && JSON.stringify(v).includes('secrets.')) problems.push(`${job}: a secret in ${k}`);
    for (const [k, v] of Object.entries<any>(step.env ?? {})) if (String(v).includes('secrets.') && k !== 'OSVLAB_API_KEY') problems.push(`${job}: the secret goes to ${k}`);
  }
  if (JSON.stringify(wf.env ?? {}).includes('secrets.')) problems.push('a secret in the workflow env (every step would see it)');
  return problems;
}

describe('the GitHub Actions recipe', () => {
  const [wf] = yamlObjects(FILE);

  it('is valid against the workflow schema', () => {
    expect(validatorErrors(SOURCE)).toEqual([]);
  });

  it('the matrix and the merge job agree on the shard count', () => {
    expect(shardCountProblems(wf)).toEqual([]);
    expect(wf.jobs.shard.strategy.matrix.shard).toHaveLength(Number(settingDefaults().get('OSVLAB_SHARD_TOTAL')));
  });

  it("its inputs are deploy/settings.sh's settings with their defaults, and the key is a secret in one step's env", () => {
    const defaults = settingDefaults();
    for (const [setting, input] of Object.entries(INPUT_OF)) {
      expect(String(wf.on.workflow_dispatch.inputs[input].default), input).toBe(defaults.get(setting));
      expect(wf.env[setting], setting).toBe(`\${{ inputs.${input} }}`);
    }
    expect(Object.keys(wf.on.workflow_dispatch.inputs).sort()).toEqual(Object.values(INPUT_OF).sort());
    // The folder is the default's out/MODEL, spelt out because the steps name it before any script runs.
    expect(defaults.get('OSVLAB_OUT')).toBe('out/$OSVLAB_MODEL');
    expect(wf.env.OSVLAB_OUT).toBe('out/${{ inputs.model }}');
    expect(SETTINGS.filter((s) => wf.env[s] === undefined)).toEqual([]);
    expect(keyProblems(wf)).toEqual([]);
    const keyed = steps(wf).filter((s) => s.step.env?.OSVLAB_API_KEY);
    expect(keyed.map((s) => [s.job, s.step.run, s.step.env.OSVLAB_API_KEY])).toEqual([['shard', 'deploy/shard.sh', '${{ secrets.OSVLAB_API_KEY }}']]);
  });

  it('the checks fail on broken workflows', () => {
    const edited = (from: string, to: string) => {
      expect(SOURCE).toContain(from);
      return SOURCE.replace(from, to);
    };
    expect(validatorErrors(edited('        run: deploy/shard.sh', '        runs: deploy/shard.sh')).join('\n')).toContain("Additional property 'runs' is not allowed");
    expect(validatorErrors(edited('needs: shard', 'needs: shards'))).toEqual(['/jobs/merge/needs unresolved_job: unresolved job shards']);
    expect(validatorErrors(edited('timeout-minutes: 360', 'timeout-minutes: [360]')).length).toBeGreaterThan(0);

    expect(shardCountProblems(parse(edited('shard: [1, 2, 3, 4]', 'shard: [1, 2, 3]')))).toEqual(['matrix.shard is [1,2,3] but OSVLAB_SHARD_TOTAL is 4']);
    expect(shardCountProblems(parse(edited('OSVLAB_SHARD_TOTAL: 4', 'OSVLAB_SHARD_TOTAL: 5')))).toEqual(['matrix.shard is [1,2,3,4] but OSVLAB_SHARD_TOTAL is 5']);
    expect(shardCountProblems(parse(edited('    needs: shard\n', '    needs: shard\n    env:\n      OSVLAB_SHARD_TOTAL: 3\n')))).toEqual(['job merge redefines OSVLAB_SHARD_TOTAL']);
    expect(keyProblems(parse(edited('        run: deploy/shard.sh', '        run: OSVLAB_API_KEY=${{ secrets.OSVLAB_API_KEY }} deploy/shard.sh')))).toEqual(['shard: a secret in run']);
  });
});

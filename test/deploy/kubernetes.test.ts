/**
 * The Kubernetes recipe (deploy/kubernetes), validated offline: every object
 * of every manifest against the Kubernetes API schemas (kubernetes-models),
 * the Indexed Job's completions and parallelism against the shard count it
 * passes, the settings against deploy/settings.sh, the key only from a
 * Secret; and the same for the manifests render.ts makes from other settings.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS, renderManifest } from '../../deploy/kubernetes/render.ts';
import { schemaErrors, unknownFields } from './kubernetes-schema.ts';
import { ROOT, settingDefaults, yamlObjects } from './recipes.ts';
import { parseAllDocuments } from 'yaml';

const DIR = join(ROOT, 'deploy', 'kubernetes');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

function objectsOf(text: string): any[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

function envOf(container: any): Map<string, any> {
  return new Map((container.env ?? []).map((e: any) => [e.name, e]));
}

/**
 * What is wrong with a pair of shard and merge Jobs, as sentences (empty when nothing is):
 * the Indexed Job runs exactly OSVLAB_SHARD_TOTAL shards, all at once, each by deploy/shard.sh;
 * the merge reads the same count, model and folder with deploy/merge.sh.
 */
function recipeProblems(shards: any, merge: any): string[] {
  const problems: string[] = [];
  const spec = shards.spec;
  const [shard] = spec.template.spec.containers;
  const [merger] = merge.spec.template.spec.containers;
  const total = Number(envOf(shard).get('OSVLAB_SHARD_TOTAL')?.value);
  if (!Number.isInteger(total) || total < 1) problems.push(`the shard container passes no OSVLAB_SHARD_TOTAL`);
  if (spec.completionMode !== 'Indexed') problems.push(`completionMode is ${spec.completionMode}, not Indexed`);
  if (spec.completions !== total) problems.push(`completions ${spec.completions} but OSVLAB_SHARD_TOTAL ${total}`);
  if (spec.parallelism !== total) problems.push(`parallelism ${spec.parallelism} but OSVLAB_SHARD_TOTAL ${total}`);
  if (spec.backoffLimitPerIndex !== undefined && spec.template.spec.restartPolicy !== 'Never') problems.push('backoffLimitPerIndex needs restartPolicy Never');
  if (shard.command?.[0] !== '/osvlab/deploy/shard.sh') problems.push(`the shard runs ${shard.command}, not deploy/shard.sh`);
  if (merger.command?.[0] !== '/osvlab/deploy/merge.sh') problems.push(`the merge runs ${merger.command}, not deploy/merge.sh`);
  for (const name of ['OSVLAB_SHARD_TOTAL', 'OSVLAB_MODEL', 'OSVLAB_OUT']) {
    const a = envOf(shard).get(name)?.value;
    const b = envOf(merger).get(name)?.value;
    if (a !== b) problems.push(`${name} is ${a} in the shards and ${b} in the merge`);
  }
  if (shard.workingDir !== merger.workingDir) problems.push(`working directories differ: ${shard.workingDir} and ${merger.workingDir}`);
  const mounted = (c: any, pod: any) =>
    (c.volumeMounts ?? []).some((m: any) => m.mountPath === c.workingDir && pod.volumes?.some((v: any) => v.name === m.name && v.persistentVolumeClaim));
  if (!mounted(shard, spec.template.spec) || !mounted(merger, merge.spec.template.spec)) problems.push('the working directory is not the shared volume in both Jobs');
  return problems;
}

/** Settings given a literal value, and any variable that looks like a key given one (a key must come from a Secret). */
function keyProblems(obj: any): string[] {
  const problems: string[] = [];
  for (const c of obj.spec.template.spec.containers) {
    for (const e of c.env ?? []) {
      if (/KEY/.test(e.name) && e.value !== undefined) problems.push(`${c.name}: ${e.name} has a literal value`);
      if (/KEY/.test(e.name) && !e.valueFrom?.secretKeyRef) problems.push(`${c.name}: ${e.name} is not from a Secret`);
    }
    if (/sk-|KEY=/.test(JSON.stringify([c.command, c.args]))) problems.push(`${c.name}: a key on the command line`);
  }
  return problems;
}

describe('the Kubernetes recipe', () => {
  const objects = FILES.flatMap((f) => yamlObjects(join(DIR, f)).map((obj, i) => ({ name: `${f}#${i}`, obj })));
  const shards = objects.find((o) => o.obj.metadata?.name === 'osvlab-shards')!.obj;
  const merge = objects.find((o) => o.obj.metadata?.name === 'osvlab-merge')!.obj;

  it('every object of every manifest is valid against the Kubernetes API schemas', async () => {
    expect(FILES).toEqual(['merge-job.yaml', 'shards-job.yaml']);
    for (const { name, obj } of objects) expect(await schemaErrors(obj), name).toEqual([]);
    expect(unknownFields(objects)).toEqual([]);
  });

  it("the Indexed Job's completions and parallelism are the shard count it passes, and the merge agrees", () => {
    expect(recipeProblems(shards, merge)).toEqual([]);
    expect(shards.spec.completions).toBe(Number(settingDefaults().get('OSVLAB_SHARD_TOTAL')));
  });

  it("the containers' settings are deploy/settings.sh's defaults, and the key comes from a Secret", () => {
    const defaults = settingDefaults();
    expect([...defaults.keys()]).toEqual([...SETTINGS]);
    const [shard] = shards.spec.template.spec.containers;
    const [merger] = merge.spec.template.spec.containers;
    for (const c of [shard, merger]) {
      for (const [name, e] of envOf(c)) if (name.startsWith('OSVLAB_') && name !== 'OSVLAB_API_KEY') expect(e.value, `${c.name} ${name}`).toBe(defaults.get(name));
    }
    // The shard lists every setting but the folder, whose default (out/MODEL) depends on the model.
    expect(SETTINGS.filter((s) => !envOf(shard).has(s))).toEqual(['OSVLAB_OUT']);
    expect(envOf(shard).get('OSVLAB_API_KEY').valueFrom.secretKeyRef).toEqual({ name: 'osvlab-key', key: 'OSVLAB_API_KEY' });
    for (const { obj } of objects) expect(keyProblems(obj)).toEqual([]);
  });

  it('rendered with other settings, the manifests are still valid and agree; no key reaches them', async () => {
    const env = {
      OSVLAB_MODEL: 'claude-sonnet-4', OSVLAB_SHARD_TOTAL: '3', OSVLAB_OUT: '/data/runs/claude', OSVLAB_TASKS: 'sys_dup',
      OSVLAB_BASE_URL: 'https://llm.example/v1', OSVLAB_IMAGE: 'registry.example/osvlab:1', OSVLAB_API_KEY: 'sk-never-in-a-manifest',
    };
    const texts = FILES.map((f) => renderManifest(readFileSync(join(DIR, f), 'utf8'), env));
    for (const t of texts) expect(t).not.toContain('sk-never');
    const rendered = texts.flatMap((t, i) => objectsOf(t).map((obj, j) => ({ name: `rendered ${FILES[i]}#${j}`, obj })));
    for (const { name, obj } of rendered) expect(await schemaErrors(obj), name).toEqual([]);
    expect(unknownFields(rendered)).toEqual([]);
    const rs = rendered.find((o) => o.obj.metadata.name === 'osvlab-shards')!.obj;
    const rm = rendered.find((o) => o.obj.metadata.name === 'osvlab-merge')!.obj;
    expect(recipeProblems(rs, rm)).toEqual([]);
    expect(rs.spec.completions).toBe(3);
    expect(rs.spec.parallelism).toBe(3);
    const e = envOf(rs.spec.template.spec.containers[0]);
    expect(e.get('OSVLAB_MODEL').value).toBe('claude-sonnet-4');
    expect(e.get('OSVLAB_BASE_URL').value).toBe('https://llm.example/v1');
    expect(e.get('OSVLAB_OUT').value).toBe('/data/runs/claude');
    expect(e.get('OSVLAB_PROVIDER').value).toBe('openai');
    expect(rm.spec.template.spec.containers[0].image).toBe('registry.example/osvlab:1');
    // Comments survive rendering.
    expect(texts[1]).toContain('# N: equal to OSVLAB_SHARD_TOTAL below');
    expect(() => renderManifest(readFileSync(join(DIR, FILES[1]), 'utf8'), { OSVLAB_SHARD_TOTAL: '0' })).toThrow(/positive integer/);
  });

  it('the checks fail on broken manifests', async () => {
    const copy = (o: any) => structuredClone(o);
    const more = copy(shards);
    more.spec.completions = 5;
    expect(recipeProblems(more, merge)).toEqual(['completions 5 but OSVLAB_SHARD_TOTAL 4']);
    const otherN = copy(merge);
    otherN.spec.template.spec.containers[0].env.find((e: any) => e.name === 'OSVLAB_SHARD_TOTAL').value = '3';
    expect(recipeProblems(shards, otherN)).toEqual(['OSVLAB_SHARD_TOTAL is 4 in the shards and 3 in the merge']);
    const literal = copy(shards);
    literal.spec.template.spec.containers[0].env.push({ name: 'OPENAI_API_KEY', value: 'sk-x' });
    expect(keyProblems(literal)).toEqual(['shard: OPENAI_API_KEY has a literal value', 'shard: OPENAI_API_KEY is not from a Secret']);

    const wrongType = copy(shards);
    wrongType.spec.parallelism = '4';
    expect((await schemaErrors(wrongType)).join()).toContain('parallelism must be integer');
    const badEnum = copy(shards);
    badEnum.spec.completionMode = 'indexed';
    expect((await schemaErrors(badEnum)).join()).toContain('completionMode must be equal to one of the allowed values');
    const typo = copy(shards);
    typo.spec.template.spec.containers[0].volumeMount = typo.spec.template.spec.containers[0].volumeMounts;
    expect(unknownFields([{ name: 'typo', obj: typo }])).toEqual([expect.stringMatching(/^typo: .*'"volumeMount"' does not exist in type 'IContainer'/)]);
    expect(await schemaErrors({ apiVersion: 'batch/v9', kind: 'Job' })).toEqual(['no Kubernetes schema for batch/v9 Job']);
  });
});

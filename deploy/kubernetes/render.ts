/**
 * Prints a manifest of deploy/kubernetes with the OSVLAB_* settings of the
 * environment in it, for `kubectl apply -f -` (docs/scale.md):
 *
 *   OSVLAB_MODEL=gpt-4o-mini OSVLAB_SHARD_TOTAL=8 npx tsx deploy/kubernetes/render.ts deploy/kubernetes/shards-job.yaml
 *
 * A setting that is set (not empty) replaces the value of the container
 * variable of that name; OSVLAB_OUT, which the manifests leave to its default,
 * is added to every container. An Indexed Job's completions and parallelism
 * become OSVLAB_SHARD_TOTAL, and OSVLAB_IMAGE replaces the containers' image.
 * Nothing else is read from the environment, so no key reaches the output.
 * Comments and layout are kept.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type YAMLMap, YAMLSeq, isMap, isSeq, parseDocument } from 'yaml';

/** The settings of deploy/settings.sh, in its order. */
export const SETTINGS = [
  'OSVLAB_PROVIDER', 'OSVLAB_MODEL', 'OSVLAB_BASE_URL', 'OSVLAB_TASKS', 'OSVLAB_N',
  'OSVLAB_SHOTS', 'OSVLAB_REPAIR', 'OSVLAB_OUT', 'OSVLAB_SHARD_TOTAL',
] as const;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Returns the manifest `text` with the settings of `env` in it; throws on a manifest that is not YAML or a bad shard count. */
export function renderManifest(text: string, env: Environment): string {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new Error(`not a YAML manifest: ${doc.errors[0].message}`);
  const given = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const total = given('OSVLAB_SHARD_TOTAL');
  if (total !== undefined && !/^[1-9]\d*$/.test(total)) throw new Error(`OSVLAB_SHARD_TOTAL must be a positive integer, got '${total}'`);

  const containers = doc.getIn(['spec', 'template', 'spec', 'containers']);
  if (!isSeq(containers)) throw new Error('the manifest has no spec.template.spec.containers');
  for (const c of containers.items) {
    if (!isMap(c)) continue;
    const image = given('OSVLAB_IMAGE');
    if (image !== undefined) c.set('image', image);
    let vars = c.get('env');
    if (!isSeq(vars)) c.set('env', (vars = new YAMLSeq()));
    const list = vars as YAMLSeq;
    for (const name of SETTINGS) {
      const value = given(name);
      if (value === undefined) continue;
      const entry = list.items.find((e): e is YAMLMap => isMap(e) && e.get('name') === name);
      if (entry) entry.set('value', value);
      else if (name === 'OSVLAB_OUT') list.add(doc.createNode({ name, value }));
    }
  }
  if (total !== undefined && doc.getIn(['spec', 'completionMode']) === 'Indexed') {
    doc.setIn(['spec', 'completions'], Number(total));
    doc.setIn(['spec', 'parallelism'], Number(total));
  }
  return doc.toString();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npx tsx deploy/kubernetes/render.ts MANIFEST.yaml   (settings from OSVLAB_* in the environment)\n');
    process.exit(4);
  }
  try {
    process.stdout.write(renderManifest(readFileSync(file, 'utf8'), process.env));
  } catch (e) {
    process.stderr.write(`${file}: ${(e as Error).message}\n`);
    process.exit(4);
  }
}

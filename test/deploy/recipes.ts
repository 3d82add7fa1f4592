/**
 * What the recipe tests share: the repository's paths, the settings and their
 * defaults as deploy/settings.sh states them, and YAML files read as objects.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The settings of deploy/settings.sh with their defaults, in its order (`: "${NAME:=DEFAULT}"` lines). */
export function settingDefaults(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'deploy', 'settings.sh'), 'utf8');
  const defaults = new Map<string, string>();
  for (const m of text.matchAll(/^: "\$\{(OSVLAB_\w+):=([^}]*)\}"/gm)) defaults.set(m[1], m[2]);
  return defaults;
}

/** The objects of a YAML file (one per document); a syntax error fails with the file's name. */
export function yamlObjects(path: string): any[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'));
  if (!Array.isArray(docs)) throw new Error(`${path}: not YAML documents`);
  for (const d of docs) if (d.errors.length) throw new Error(`${path}: ${d.errors[0].message}`);
  return docs.map((d) => d.toJS());
}

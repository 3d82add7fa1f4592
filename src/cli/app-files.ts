/**
 * The files of a build of the app and their SHA-256, as the build lists them
 * in osvlab-build.json (vite.config.ts) and `osvlab publish` checks them
 * before it copies the build (docs/publish.md): a file changed, added or
 * removed after the build (a script put into index.html) is refused.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The file a build of the app writes with its versions and its files' hashes. */
export const BUILD_STAMP = 'osvlab-build.json';

/**
 * Every file under `dir` with its SHA-256 (hex), by path relative to `dir`
 * with '/' between folders; dot files and folders (a test harness's
 * markers) and the stamp itself are left out, as publishing leaves them.
 * A symbolic link is listed as the path it names, so a changed link differs.
 */
export function appFileHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (name.startsWith('.')) continue;
      const path = rel ? `${rel}/${name}` : name;
      if (path === BUILD_STAMP) continue;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) out[path] = createHash('sha256').update(readFileSync(join(dir, path))).digest('hex');
      else out[path] = `not a regular file`;
    }
  };
  walk('');
  return out;
}

/** The paths where `actual` differs from the build's list `listed`: changed, added, missing. */
export function appFileDifferences(listed: Record<string, string>, actual: Record<string, string>): { changed: string[]; added: string[]; missing: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  for (const [path, hash] of Object.entries(actual)) {
    if (!Object.hasOwn(listed, path)) added.push(path);
    else if (listed[path] !== hash) changed.push(path);
  }
  const missing = Object.keys(listed).filter((p) => !Object.hasOwn(actual, p));
  return { changed, added, missing };
}

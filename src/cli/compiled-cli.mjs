// The CLI's TypeScript compiled once into a few JavaScript modules, so that a
// command and each of its verifier threads start without transforming and
// resolving some 250 modules one at a time through tsx's loader thread (about
// 0.8 s of CPU per thread; docs/design.md §5).
//
// The compiled modules live in node_modules/.cache/osvlab-cli/, beside a
// manifest naming every source file that went into them with its SHA-256: a
// start reads and hashes those files (a few milliseconds) and compiles again
// (esbuild, which tsx itself uses) when any of them changed, so what runs is
// always the sources as they are. Each module keeps its own import.meta.url,
// so files it finds next to itself (the worker's entry, z3-solver's files,
// the built site) are found as from the sources. Where nothing can be
// compiled or written, the caller runs the sources through tsx as before;
// OSVLAB_FROM_SOURCE=1 asks for that (stack traces then name the sources).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'osvlab-cli');
const MANIFEST = join(CACHE, 'manifest.json');
/** The entries compiled together (their shared modules become shared chunks). */
const ENTRIES = ['src/cli/main.ts', 'src/cli/grade-worker-impl.ts'];
/**
 * A build the manifest no longer names is removed once it has not been started
 * from for this long (a long run started from it may still start workers).
 */
const STALE_MS = 24 * 60 * 60_000;
/** Set by a thread for the worker threads it starts: the build directory it runs, so they run the same one. */
const CHOSEN = 'OSVLAB_COMPILED_CLI';
/** Changing how modules are compiled here makes every existing build stale. */
const RECIPE = 2;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The manifest's build directory if every file it lists still has its hash, else undefined. */
function current() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return undefined;
  }
  // The compiled modules name their sources' paths (import.meta.url): a checkout moved, or another one
  // sharing this node_modules (a git worktree), compiles its own.
  if (manifest.recipe !== RECIPE || manifest.node !== process.version || manifest.root !== ROOT || typeof manifest.dir !== 'string') return undefined;
  const dir = join(CACHE, manifest.dir);
  if (!existsSync(dir)) return undefined;
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    let bytes;
    try {
      bytes = readFileSync(join(ROOT, file));
    } catch {
      return undefined;
    }
    if (sha256(bytes) !== hash) return undefined;
  }
  return dir;
}

/** An esbuild plugin giving each of our modules its own file's import.meta.url (and dirname, filename). */
const ownUrls = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts)$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const text = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents: text, loader: 'ts' };
    });
  },
};

/** Compiles the entries into a new build directory and points the manifest at it. */
async function compile() {
  const { build, stop } = await import('esbuild');
  const name = `build-${process.pid}-${Date.now().toString(36)}`;
  const dir = join(CACHE, name);
  mkdirSync(CACHE, { recursive: true });
  const result = await build({
    entryPoints: ENTRIES.map((e) => join(ROOT, e)),
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    outdir: dir,
    outbase: join(ROOT, 'src', 'cli'),
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
    plugins: [ownUrls],
  }).finally(() => stop());
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const path = resolve(ROOT, file);
    inputs[relative(ROOT, path)] = sha256(readFileSync(path));
  }
  const part = `${MANIFEST}.${process.pid}.part`;
  writeFileSync(part, JSON.stringify({ recipe: RECIPE, node: process.version, root: ROOT, dir: name, inputs }));
  renameSync(part, MANIFEST);
  // Builds no longer named, left by earlier compiles (best effort).
  for (const other of readdirSync(CACHE)) {
    const path = join(CACHE, other);
    try {
      if (other !== name && other.startsWith('build-') && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
  return dir;
}

/**
 * The file URL of the compiled `entry` ('main' or 'grade-worker-impl'), compiled
 * now if the sources changed, or undefined when the sources are to run through
 * tsx (OSVLAB_FROM_SOURCE=1, or compiling failed: tsx then reports the error).
 */
export async function compiledEntry(entry) {
  if (process.env.OSVLAB_FROM_SOURCE === '1') return undefined;
  let dir = isMainThread ? undefined : process.env[CHOSEN];
  if (!dir || !existsSync(join(dir, `${entry}.mjs`))) {
    try {
      dir = current() ?? (await compile());
    } catch {
      return undefined;
    }
    process.env[CHOSEN] = dir;
    try {
      // Its time is when it was last started from (see STALE_MS).
      const now = new Date();
      utimesSync(dir, now, now);
    } catch {
      // A read-only cache is only never cleaned.
    }
  }
  return pathToFileURL(join(dir, `${entry}.mjs`)).href;
}

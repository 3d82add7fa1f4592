/**
 * The verifier version is a digest of what a grade depends on, made by
 * `npm run bundle` (scripts/bundle-lib.ts): this fails when the sources
 * changed and the bundle was not rebuilt, and shows that a change under
 * src/core/verify changes the digest.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFIER_SOURCES, bundleText, collectBundle, descriptionsText, verifierDigest } from '../../scripts/bundle-lib.ts';
import { APP_VERSION, PROOF_VERSION, VERIFIER_VERSION } from '../../src/core/version.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const STALE = 'the verifier digest in tasks/hv6/bundle.json is stale: run `npm run bundle` (then commit tasks/hv6/bundle.json)';

describe('the verifier version', () => {
  it('is the digest of the current sources (npm run bundle keeps it current)', () => {
    const b = collectBundle(ROOT);
    expect(VERIFIER_VERSION, STALE).toBe(`v-${b.verifierHash}`);
    expect(PROOF_VERSION, STALE).toBe(`p-${b.proofHash}`);
    expect(APP_VERSION, STALE).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('is in a bundle that is current, as are the descriptions beside it', () => {
    for (const [file, text] of [['bundle.json', bundleText(ROOT)], ['descriptions.json', descriptionsText(ROOT)]]) {
      const committed = readFileSync(join(ROOT, 'tasks/hv6', file), 'utf8');
      expect(committed === text, `tasks/hv6/${file} is stale: run \`npm run bundle\` (then commit it)`).toBe(true);
    }
  });

  it('changes when a file under src/core/verify changes, and the proof version with it', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'osvlab-digest-'));
    try {
      for (const d of VERIFIER_SOURCES) cpSync(join(ROOT, 'src/core', d), join(tmp, 'src/core', d), { recursive: true });
      const b = collectBundle(ROOT);
      const digest = () => verifierDigest(tmp, b.kernel.files, b.specs, b.shared);
      const proof = () => verifierDigest(tmp, {}, {}, {}, ['smt', 'verify']);
      expect(digest()).toBe(b.verifierHash);
      expect(proof()).toBe(b.proofHash);
      const f = join(tmp, 'src/core/verify/index.ts');
      writeFileSync(f, `${readFileSync(f, 'utf8')}\n// changed\n`);
      expect(digest()).not.toBe(b.verifierHash);
      expect(proof()).not.toBe(b.proofHash);
      // The kernel content is in the digest too.
      expect(verifierDigest(ROOT, { ...b.kernel.files, 'extra.h': '' }, b.specs, b.shared)).not.toBe(b.verifierHash);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

#!/usr/bin/env node
// Entry point of `npx osvlab`: the TypeScript CLI compiled once and reused
// (src/cli/compiled-cli.mjs), or run through tsx as it is.
import { compiledEntry } from '../src/cli/compiled-cli.mjs';

const compiled = await compiledEntry('main');
let main;
if (compiled) ({ main } = await import(compiled));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));

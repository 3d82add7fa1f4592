#!/usr/bin/env node
// Entry point of `npx osvlab`: registers tsx so the TypeScript CLI runs as is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));

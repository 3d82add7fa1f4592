/**
 * Every name an object inherits (`constructor`, `toString`, `__proto__`, ...;
 * test/object-prototype.ts) fed to each table lookup of a user's word outside
 * the C and dialect front ends (those are tested in test/c and test/dialect):
 * CLI commands and options, handler, task and lemma names, providers, models
 * in the price table, reasoning efforts, the kernel's content tables. Each
 * must be "not found" (a coded usage error, undefined, a clear throw), never
 * Object's member. The commands run in this process (`main`): every lookup
 * here happens before any solver work.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/main.ts';
import { osvlab } from '../cli-main.ts';
import { parseArgs } from '../../src/cli/args.ts';
import { declaredOptions } from '../../src/cli/declarations.ts';
import { KERNEL, contentEntry, oracleSpec } from '../../src/core/kernel/content.ts';
import { DESCRIPTIONS } from '../../src/core/kernel/descriptions.ts';
import { findHandler } from '../../src/core/kernel/handlers.ts';
import { findLemma } from '../../src/core/kernel/lemmas/index.ts';
import { missingKeyError } from '../../src/core/llm/errors.ts';
import { DEFAULT_PRICES, costOf, mergePrices, priceFor } from '../../src/core/llm/prices.ts';
import { createProvider, keyFromEnv } from '../../src/core/llm/provider.ts';
import { anthropicBody } from '../../src/core/llm/anthropic.ts';
import { openAiBody } from '../../src/core/llm/openai.ts';
import type { CompletionRequest, ProviderKind, ReasoningEffort } from '../../src/core/llm/types.ts';
import { sharedHelpersOf } from '../../src/core/eval/prompt/prompt.ts';
import { OBJECT_PROTOTYPE_NAMES } from '../object-prototype.ts';

const NAMES = OBJECT_PROTOTYPE_NAMES;
const OBJECTISH = /native code|is not a function|Cannot read prop|\[object |Object\]/;

describe('Object.prototype names on the command line', () => {
  it('are unknown commands and unknown options', async () => {
    expect(NAMES).toEqual(expect.arrayContaining(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']));
    for (const name of NAMES) {
      const r = await osvlab(name);
      expect(r.code, name).toBe(4);
      expect(r.err, name).toContain(`unknown command '${name}'`);
      expect(() => parseArgs([`--${name}`], declaredOptions('verify')), name).toThrow(/ARG003 unknown option/);
    }
    expect(COMMAND_NAMES.filter((c) => NAMES.includes(c))).toEqual([]);
  });

  it('name no handler, task, lemma, provider, effort, extraction mode or task selection', async () => {
    const expectations: [string[], RegExp][] = [];
    for (const name of NAMES) {
      expectations.push(
        [['verify', name, '--oracle'], /SPEC030/],
        [['lemmas', name, '--oracle'], /SPEC030/],
        [['verify', 'sys_kill', '--oracle', '--variant', name], /no task/],
        [['lemmas', 'sys_kill', '--oracle', '--only', name], /no lemma/],
        [['task', 'show', name], /no task/],
        [['prompt', name], /no task/],
        [['tasks', '--format', name], /--format must be osvbench/],
        [['run', '--provider', name, '--model', 'm'], /--provider must be one of/],
        [['run', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--tasks', name], /unknown task/],
        [['run', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--tasks', `handler:${name}`], /no tasks for handler/],
        [['run', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--reasoning-effort', name], /reasoning-effort/],
        [['run', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--extract', name], /extract/],
      );
    }
    for (const [argv, message] of expectations) {
      const r = await osvlab(...argv);
      expect(r.code, argv.join(' ')).toBe(4);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.err, argv.join(' ')).not.toMatch(OBJECTISH);
    }
  });
});

describe('Object.prototype names in the core tables', () => {
  const request = (reasoningEffort: string): CompletionRequest => ({ model: 'm', messages: [{ role: 'user', content: 'x' }], reasoningEffort: reasoningEffort as ReasoningEffort });

  it('are no handler, spec, description, helper or lemma', () => {
    for (const name of NAMES) {
      expect(findHandler(name), name).toBeUndefined();
      expect(oracleSpec(name), name).toBeUndefined();
      expect(contentEntry(DESCRIPTIONS, name), name).toBeUndefined();
      expect(contentEntry(KERNEL.shared, name), name).toBeUndefined();
      expect(sharedHelpersOf(name), name).toEqual([]);
      expect(findLemma(name), name).toBeUndefined();
    }
  });

  it('are no provider, key variable, model price or reasoning effort', () => {
    for (const name of NAMES) {
      expect(() => createProvider({ kind: name as ProviderKind, baseUrl: 'http://127.0.0.1:9' }), name).toThrow(`unknown provider '${name}'`);
      expect(keyFromEnv(name as ProviderKind, undefined, { OSVLAB_API_KEY: 'k' }), name).toBeUndefined();
      expect(missingKeyError(name as ProviderKind).message, name).toMatch(/^No API key for The provider\./);
      expect(priceFor(name, DEFAULT_PRICES), name).toBeUndefined();
      expect(priceFor(`openai/${name}`, DEFAULT_PRICES), name).toBeUndefined();
      expect(costOf({ input: 1, output: 1 }, priceFor(name, mergePrices({}))), name).toBeNull();
      expect(() => anthropicBody(request(name)), name).toThrow(`unknown reasoning effort '${name}'`);
      expect(() => openAiBody(request(name), false), name).toThrow(`unknown reasoning effort '${name}'`);
    }
    // A price the user names so stays the user's own entry.
    expect(priceFor('constructor', mergePrices({ constructor: { input: 1, output: 2 } }))).toEqual({ input: 1, output: 2 });
  });
});

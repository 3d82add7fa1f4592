/**
 * The Evaluate form's renaming seed (src/app/state/evaluate-form.ts,
 * docs/rename.md): checked only when the model is shown renamed names, a
 * whole number of 0 or more; and the run form kept on this device comes
 * back after a reload with its renaming, a value that does not fit dropped.
 * With its defaults the form makes the run `osvlab run` makes, through the
 * one builder both use (session/config.ts runChoiceOf), agent runs included.
 */
import { describe, expect, it } from 'vitest';
import { FORM_DEFAULTS, MAX_SHOTS, fieldErrors, formRunOptions, restoredFields } from '../../src/app/state/evaluate-form.ts';
import { AGENT_DEFAULTS } from '../../src/core/eval/agent/tools.ts';
import { DEFAULT_FEEDBACK, DEFAULT_PROMPT, canonicalConfig, runChoiceOf, runIdOf } from '../../src/core/eval/session/config.ts';
import { UsageError, parseArgs } from '../../src/cli/args.ts';
import { runOptionsOf } from '../../src/cli/commands/run.ts';
import { declaredOptions } from '../../src/cli/declarations.ts';

const fields = { n: 1, shots: 0, repairRounds: 0, concurrency: 4, temperature: null, maxTokens: null, maxCost: null, maxTotalTokens: null };
const URL = 'https://api.openai.com/v1';

describe('the names seed', () => {
  it('is not asked for with hv6 names', () => {
    expect(fieldErrors(URL, { ...fields, names: '', renameSeed: null })).toEqual({});
  });

  it('is a whole number of 0 or more with a renaming', () => {
    expect(fieldErrors(URL, { ...fields, names: 'synonym', renameSeed: 0 })).toEqual({});
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: null }).renameSeed).toMatch(/names seed is needed/);
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: 2.5 }).renameSeed).toMatch(/whole number/);
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: -1 }).renameSeed).toMatch(/at least 0/);
  });
});

describe('the run form kept on this device', () => {
  const current = { selection: 'first:5', n: 1, temperature: null as number | null, strict: true, names: '', renameSeed: 1 as number | null, feedback: 'counterexample' };
  const choices = { names: ['', 'synonym', 'opaque'], feedback: ['counterexample', 'verdict', 'none'] };

  it('brings back the renaming with its seed, and every other field that fits', () => {
    const saved = JSON.parse(JSON.stringify({ ...current, selection: 'first:3', n: 2, temperature: 0.5, strict: false, names: 'opaque', renameSeed: 7, feedback: 'none' }));
    expect(restoredFields(saved, current, choices)).toEqual({ selection: 'first:3', n: 2, temperature: 0.5, strict: false, names: 'opaque', renameSeed: 7, feedback: 'none' });
    // An emptied seed field comes back empty (the form then says the seed is needed).
    expect(restoredFields({ names: 'synonym', renameSeed: null }, current, choices)).toEqual({ names: 'synonym', renameSeed: null });
  });

  it('drops a value of another type or outside its choices, and reads nothing from what is not a saved form', () => {
    const saved = { n: '2', strict: 'yes', names: 'rot13', renameSeed: '3', feedback: 'hints', selection: 5, unknown: 1 };
    expect(restoredFields(saved, current, choices)).toEqual({});
    for (const junk of [null, 3, 'names', ['synonym'], undefined]) expect(restoredFields(junk, current, choices)).toEqual({});
    // An own property only: a saved form cannot reach a field through its prototype.
    expect(restoredFields(Object.create({ names: 'opaque' }), current, choices)).toEqual({});
  });
});

describe('the form with its defaults', () => {
  const endpoint = { provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:8080/v1', model: 'fake-model' };
  const tasks = ['sys_dup-v0', 'sys_kill-v0', 'sys_close-v0'];
  const form = {
    ...FORM_DEFAULTS, params: {}, extract: 'osvlab' as const, strict: true, matrix: false, feedback: DEFAULT_FEEDBACK,
    promptVariant: DEFAULT_PROMPT, names: '', renameSeed: null, shape: '', shapeSeed: null,
  };

  it('is the run `osvlab run` makes for the same tasks and endpoint, so both get one run id', async () => {
    const args = parseArgs(['--provider', endpoint.provider, '--model', endpoint.model, '--base-url', endpoint.baseUrl, '--tasks', tasks.join(',')], declaredOptions('run'));
    const cli = canonicalConfig(runChoiceOf(runOptionsOf(args, endpoint, tasks)));
    const page = canonicalConfig(runChoiceOf(formRunOptions(form, endpoint, tasks, 2)));
    expect(page).toEqual(cli);
    expect(page.shots).toBe(5);
    expect(await runIdOf(page)).toBe(await runIdOf(cli));
  });

  it('in the agent mode is the run `osvlab run --agent` makes, with no repair rounds in either', async () => {
    const cliArgs = ['--provider', endpoint.provider, '--model', endpoint.model, '--base-url', endpoint.baseUrl, '--tasks', tasks.join(','), '--agent', '--max-turns', '4', '--verify-against', 'reference'];
    const cli = canonicalConfig(runChoiceOf(runOptionsOf(parseArgs(cliArgs, declaredOptions('run')), endpoint, tasks)));
    const agent = { ...AGENT_DEFAULTS, maxTurns: 4, verifyAgainst: 'reference' as const };
    // The page's repair field may still hold a number from a one-answer run: the agent mode has none.
    const page = canonicalConfig(runChoiceOf(formRunOptions({ ...form, repairRounds: 2, agent }, endpoint, tasks, 2)));
    expect(page).toEqual(cli);
    expect(page.repairRounds).toBe(0);
    expect(page.agent).toEqual(agent);
    expect(await runIdOf(page)).toBe(await runIdOf(cli));
    // Another limit is another run.
    const other = canonicalConfig(runChoiceOf(formRunOptions({ ...form, agent: { ...agent, maxTurns: 5 } }, endpoint, tasks, 2)));
    expect(await runIdOf(other)).not.toBe(await runIdOf(cli));
    // The CLI refuses what it cannot honour rather than drop it: --repair with --agent.
    expect(() => runOptionsOf(parseArgs([...cliArgs, '--repair', '2'], declaredOptions('run')), endpoint, tasks)).toThrow(UsageError);
    expect(() => runOptionsOf(parseArgs([...cliArgs, '--repair', '2'], declaredOptions('run')), endpoint, tasks)).toThrow(/--repair is not an option of the agent mode/);
  });

  it('takes up to the largest few-shot setting the benchmark has, and no more', () => {
    expect(MAX_SHOTS).toBe(9);
    expect(fieldErrors(URL, { ...fields, shots: 9 })).toEqual({});
    expect(fieldErrors(URL, { ...fields, shots: 10 }).shots).toBe('Few-shot examples must be from 0 to 9 (not 10)');
  });
});

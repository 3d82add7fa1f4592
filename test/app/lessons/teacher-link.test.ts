/** Teacher links and attempt files: what goes in comes out, and untrusted input fails with a stable code. */
import { describe, expect, it } from 'vitest';
import { encodeJson } from '../../../src/app/lib/share.ts';
import { attemptId, attemptsExport, buildAttempt, parseAttemptFile } from '../../../src/app/lessons/attempt-file.ts';
import { type TeacherExercise, exerciseId, parseTeacherExercise, readTeacherLink, teacherRoute } from '../../../src/app/lessons/teacher-link.ts';

const EXERCISE: TeacherExercise = {
  v: 1,
  kind: 'osvlab-exercise',
  title: 'Catch v2',
  prompt: 'Write the spec.\n<b>not html</b>',
  handler: 'sys_alloc_vector',
  starter: 'def sys_alloc_vector(old, vector):\n    pass\n',
  refuteOn: ['sys_alloc_vector-v2'],
  strict: true,
  hideChecks: true,
  hints: ['one', 'two'],
  solution: 'sol',
  app: '1.0.0',
  kernel: 'k',
};

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return (e as { code?: string }).code ?? `not a CourseFileError: ${String(e)}`;
  }
}

describe('teacher links', () => {
  it('round-trips an exercise through the fragment', async () => {
    const route = await teacherRoute(EXERCISE);
    expect(route.startsWith('learn/x/')).toBe(true);
    expect(route).toMatch(/^[A-Za-z0-9/_-]+$/);
    const back = await readTeacherLink(route.slice('learn/x/'.length));
    expect(back).toEqual(EXERCISE);
    expect(await exerciseId(back)).toBe(await exerciseId(EXERCISE));
    // The id follows the content, not the version that made the link.
    expect(await exerciseId({ ...EXERCISE, app: '9' })).toBe(await exerciseId(EXERCISE));
    expect(await exerciseId({ ...EXERCISE, starter: 'x' })).not.toBe(await exerciseId(EXERCISE));
  });

  it('accepts an alias and fills defaults', () => {
    const t = parseTeacherExercise({ v: 1, kind: 'osvlab-exercise', handler: 'sys_clone', starter: 's' });
    expect(t.handler).toBe('clone_proc');
    expect(t.refuteOn).toEqual([]);
    expect(t.title).toContain('clone_proc');
  });

  it('rejects bad links and fields with stable codes', async () => {
    expect(await codeOf(readTeacherLink('%%%'))).toBe('link-damaged');
    expect(await codeOf(readTeacherLink(''))).toBe('link-damaged');
    expect(await codeOf(readTeacherLink(await encodeJson([1, 2])))).toBe('link-format');
    expect(await codeOf(readTeacherLink(await encodeJson({ ...EXERCISE, v: 2 })))).toBe('link-format');
    for (const bad of [
      { handler: 'sys_nope' },
      { starter: 42 },
      { starter: '' },
      { refuteOn: ['sys_dup-v2'] },
      { refuteOn: 'sys_alloc_vector-v2' },
      { variant: 'sys_alloc_vector-v9' },
      { hints: [1] },
      { title: 'x'.repeat(201) },
    ]) {
      expect(await codeOf(readTeacherLink(await encodeJson({ ...EXERCISE, ...bad }))), JSON.stringify(bad)).toBe('field');
    }
  });
});

describe('attempt files', () => {
  const attempt = async () =>
    buildAttempt({
      exercise: EXERCISE,
      exerciseId: await exerciseId(EXERCISE),
      learner: ' Ada ',
      answer: 'spec text',
      passed: true,
      withSolution: false,
      message: 'Passed.',
      checks: [{ label: 'Hidden check 1', status: 'passed' }],
      attempts: 2,
      hintsOpened: 1,
      app: '1.0.0',
    });

  it('round-trips and keeps the same id for the same content', async () => {
    const a = await attempt();
    const [back] = await parseAttemptFile(JSON.stringify(a));
    expect(back).toEqual({ file: { ...a, learner: 'Ada' } });
    expect(await attemptId(back.file)).toBe(await attemptId(a));
  });

  it('carries the work and the grades, never the solution or the hidden checks', async () => {
    const text = JSON.stringify(await attempt());
    expect(text).not.toContain('"solution"');
    expect(text).not.toContain(EXERCISE.solution!);
    expect(text).not.toContain('sys_alloc_vector-v2');
    expect(text).not.toContain('refuteOn');
    expect(text).toContain('spec text');
  });

  it('reads version 1 files, which carried the exercise, and recomputes their exercise id', async () => {
    const { exercise: _about, ...rest } = await attempt();
    const v1 = { ...rest, v: 1, exercise: EXERCISE, exerciseId: 'forged' };
    const [back] = await parseAttemptFile(JSON.stringify(v1));
    expect(back.file.exerciseId).toBe(await exerciseId(EXERCISE));
    expect(back.exercise).toEqual(EXERCISE);
    expect(back.file.exercise).toEqual({ title: EXERCISE.title, handler: EXERCISE.handler });
  });

  it('reads a file of several attempts, as the teacher view exports them', async () => {
    const a = await attempt();
    const b = { ...a, learner: 'Grace', answer: 'other' };
    const read = await parseAttemptFile(JSON.stringify(attemptsExport([a, b])));
    expect(read.map((r) => r.file.learner)).toEqual(['Ada', 'Grace']);
  });

  it('rejects what is not an attempt with stable codes', async () => {
    const a = await attempt();
    expect(await codeOf(parseAttemptFile('not json'))).toBe('file-json');
    expect(await codeOf(parseAttemptFile('[]'))).toBe('file-format');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, format: 'x' })))).toBe('file-format');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, v: 3 })))).toBe('file-format');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, answer: 7 })))).toBe('field');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, passed: 'yes' })))).toBe('field');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, exerciseId: 'not an id' })))).toBe('field');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, exercise: { title: 't', handler: 'nope' } })))).toBe('field');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ ...a, v: 1, exercise: { ...EXERCISE, handler: 'nope' } })))).toBe('field');
    expect(await codeOf(parseAttemptFile(JSON.stringify({ format: 'osvlab-attempts', v: 1, attempts: 'x' })))).toBe('file-format');
    expect(await codeOf(parseAttemptFile('x'.repeat(600 * 1024)))).toBe('file-format');
  });

  it('refuses one attempt over 512 KB even when the text "osvlab-attempts" is in it (issue 57 item 10)', async () => {
    const a = await attempt();
    const big = JSON.stringify({ ...a, note: 'osvlab-attempts', message: 'x'.repeat(600 * 1024) });
    expect(big).toContain('"osvlab-attempts"');
    expect(await codeOf(parseAttemptFile(big))).toBe('file-format');
    // A real export of that size is still read.
    const many = JSON.stringify(attemptsExport(Array.from({ length: 12 }, (_, i) => ({ ...a, learner: `L${i}`, answer: 'y'.repeat(60_000) }))));
    expect(many.length).toBeGreaterThan(600 * 1024);
    expect(await parseAttemptFile(many)).toHaveLength(12);
  });
});

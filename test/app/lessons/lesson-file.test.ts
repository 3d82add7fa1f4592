/**
 * The lesson file format (src/app/lessons/lesson.ts, docs/course.md): a good
 * file becomes exactly the lesson it describes, and each kind of malformed
 * file is refused with its code, file, line, column and reason.
 */
import { describe, expect, it } from 'vitest';
import { LESSON_CODES, LessonFileError, parseLesson, readCourse } from '../../../src/app/lessons/lesson.ts';
import { oracle, spec } from '../../../src/app/lessons/spec-text.ts';

const GOOD = `---
id: tiny
title: A tiny lesson
summary: Two exercises: one spec, one field.
exercises:
  - id: fix-it
    kind: spec
    title: Fix it
    handler: sys_set_runnable
    refute-on: sys_set_runnable-v3, kernel
    strict: true
    solution: oracle
  - id: read-it
    kind: field
    title: Read it
    handler: sys_kill
    impl: sys_kill-v3
    spec: oracle
    choices: cond, procs.state
    solution: procs.state
---

Some *prose*, with \`code\`.

## A heading

# Exercise fix-it

Make it **right**.

\`\`\`python starter
def sys_set_runnable(old, pid):
    return z3.BoolVal(True), old
\`\`\`

## Hints

1. The first hint,
   on two lines.
2. The second hint.

# Exercise read-it

Which field?

## Hints

1. Only hint.
`;

/** The error `text` gets, as `file:line:column: CODE reason`. */
function error(text: string): string {
  try {
    parseLesson('course/01-tiny.md', text);
  } catch (e) {
    expect(e).toBeInstanceOf(LessonFileError);
    return (e as Error).message;
  }
  throw new Error('the lesson was accepted');
}

describe('lesson files', () => {
  it('reads a good file into the lesson it describes', () => {
    expect(parseLesson('course/01-tiny.md', GOOD)).toEqual({
      id: 'tiny',
      title: 'A tiny lesson',
      summary: 'Two exercises: one spec, one field.',
      body: 'Some *prose*, with `code`.\n\n## A heading',
      exercises: [
        {
          kind: 'spec',
          id: 'fix-it',
          title: 'Fix it',
          handler: 'sys_set_runnable',
          prompt: 'Make it **right**.',
          hints: ['The first hint, on two lines.', 'The second hint.'],
          starter: spec('def sys_set_runnable(old, pid):\n    return z3.BoolVal(True), old'),
          solution: oracle('sys_set_runnable'),
          refuteOn: ['sys_set_runnable-v3', ''],
          strict: true,
        },
        {
          kind: 'field',
          id: 'read-it',
          title: 'Read it',
          handler: 'sys_kill',
          prompt: 'Which field?',
          hints: ['Only hint.'],
          spec: oracle('sys_kill'),
          impl: 'sys_kill-v3',
          choices: ['cond', 'procs.state'],
          solution: 'procs.state',
        },
      ],
    });
  });

  it('refuses a file without a front matter, or with one that does not end', () => {
    expect(error('# Lesson\n')).toBe('course/01-tiny.md:1:1: LESSON001 a lesson file starts with a front matter: a line "---", `key: value` lines, and "---"');
    expect(error('---\nid: tiny\n')).toBe('course/01-tiny.md:1:1: LESSON001 the front matter has no closing "---" line');
  });

  it('names the line of a bad or unknown key', () => {
    expect(error(GOOD.replace('title: A tiny lesson', 'titel: A tiny lesson'))).toBe(
      'course/01-tiny.md:3:1: LESSON003 the lesson has no key "titel" (it has id, title, summary, exercises)',
    );
    expect(error(GOOD.replace('    strict: true', '    strikt: true'))).toBe(
      'course/01-tiny.md:11:1: LESSON003 a spec exercise has no key "strikt" (it has id, kind, title, handler, verify-on, refute-on, strict, starter, solution)',
    );
    expect(error(GOOD.replace('    kind: field', '    kind = field'))).toBe('course/01-tiny.md:14:5: LESSON002 expected `key: value`');
    expect(error(GOOD.replace('    title: Fix it', '   title: Fix it'))).toBe(
      'course/01-tiny.md:8:1: LESSON002 an exercise starts with "  - id: ..." and its other keys are indented by four spaces',
    );
  });

  it('checks values against the kernel and the task ids', () => {
    expect(error(GOOD.replace('handler: sys_kill', 'handler: sys_kil'))).toBe('course/01-tiny.md:16:1: LESSON005 there is no handler "sys_kil"');
    expect(error(GOOD.replace('refute-on: sys_set_runnable-v3', 'refute-on: sys_kill-v3'))).toBe(
      'course/01-tiny.md:10:1: LESSON005 "sys_kill-v3" is not a variant of sys_set_runnable (sys_set_runnable-v0 to -v4)',
    );
    expect(error(GOOD.replace('    solution: procs.state', '    solution: procs.ppid'))).toBe(
      'course/01-tiny.md:20:1: LESSON005 the solution "procs.ppid" is not one of the choices (cond, procs.state)',
    );
    expect(error(GOOD.replace('kind: field', 'kind: quiz'))).toBe('course/01-tiny.md:14:1: LESSON005 "kind" is spec or field, not "quiz"');
    expect(error(GOOD.replace('    solution: oracle', '    solution: mine'))).toBe(
      'course/01-tiny.md:12:1: LESSON005 "solution" is "oracle" (the handler\'s reference spec); write any other solution as a "solution" code block',
    );
  });

  it('matches the sections to the exercises of the front matter', () => {
    expect(error(GOOD.replace('# Exercise read-it', '# Exercise read-that'))).toBe(
      'course/01-tiny.md:42:12: LESSON007 this section is "read-that", but exercise 2 of the front matter is "read-it" (sections follow the front matter\'s order)',
    );
    expect(error(GOOD.slice(0, GOOD.indexOf('# Exercise read-it')))).toBe('course/01-tiny.md:13:1: LESSON007 exercise "read-it" has no "# Exercise read-it" section');
    expect(error(`${GOOD}\n# Exercise more\n\nText.\n`)).toBe('course/01-tiny.md:50:1: LESSON007 the section "more" has no exercise in the front matter');
    expect(error(GOOD.replace('  - id: read-it', '  - id: fix-it'))).toBe('course/01-tiny.md:13:1: LESSON006 two exercises have the id "fix-it"');
  });

  it('reads an exercise section as prompt, code and hints only', () => {
    expect(error(GOOD.replace('```python starter', '```python start'))).toBe(
      'course/01-tiny.md:31:1: LESSON008 a code block of an exercise is ```python followed by its role (starter, solution, spec)',
    );
    expect(error(GOOD.replace('## Hints\n\n1. Only hint.\n', ''))).toBe('course/01-tiny.md:42:1: LESSON004 this exercise has no hints ("## Hints" and a numbered list)');
    expect(error(GOOD.replace('```python starter', '```python solution'))).toBe('course/01-tiny.md:27:1: LESSON004 exercise "fix-it" has no "starter" code block');
    expect(error(GOOD.replace('```\n\n## Hints\n\n1. The first', '```\n\n```python solution\ndef sys_set_runnable(old, pid):\n    pass\n```\n\n## Hints\n\n1. The first'))).toBe(
      'course/01-tiny.md:36:1: LESSON006 a "solution" code block and "solution: oracle": choose one',
    );
    expect(error(GOOD.replace('2. The second hint.', '- The second hint.'))).toBe(
      'course/01-tiny.md:40:1: LESSON008 under "## Hints", each hint is a numbered item ("1. ...")',
    );
  });

  it('reads a course\u2019s front matters at once and each whole lesson on first use', () => {
    const broken = GOOD.replace('# Exercise read-it', '# Exercise read-that');
    const [lesson] = readCourse({ 'course/01-tiny.md': broken });
    expect(lesson.head).toEqual({ id: 'tiny', title: 'A tiny lesson', summary: 'Two exercises: one spec, one field.', exercises: ['fix-it', 'read-it'] });
    expect(() => lesson.lesson()).toThrow('course/01-tiny.md:42:12: LESSON007');
  });

  it('gives the Diagnostic shape, and refuses two lessons with one id', () => {
    try {
      readCourse({ 'course/01-tiny.md': GOOD, 'course/02-tiny.md': GOOD });
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(LessonFileError);
      const d = (e as LessonFileError).toDiagnostic();
      expect(d).toEqual({
        code: LESSON_CODES.duplicate,
        severity: 'error',
        message: 'the lesson id "tiny" is also the id of course/01-tiny.md',
        file: 'course/02-tiny.md',
        span: { line: 2, column: 5, endLine: 2, endColumn: 9, offset: 8, endOffset: 12 },
      });
    }
  });
});

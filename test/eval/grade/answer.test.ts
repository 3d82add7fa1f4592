import { describe, expect, it } from 'vitest';
import { extractSpec, specText } from '../../../src/core/eval/grade/answer.ts';

const SPEC = 'def sys_kill(old, pid):\n    cond = is_pid_valid(pid)\n    return cond, old\n';

describe('extracting the spec from an answer', () => {
  it('takes the first python fence, not an earlier other-language one', () => {
    const a = `Here is C:\n\`\`\`c\nint x;\n\`\`\`\nand the spec:\n\`\`\`python\n${SPEC}\`\`\`\n\`\`\`python\ndef other(): pass\n\`\`\`\n`;
    expect(extractSpec(a)).toBe(SPEC);
  });
  it('accepts py and an untagged fence with a def', () => {
    expect(extractSpec(`\`\`\`py\n${SPEC}\`\`\``)).toBe(SPEC);
    expect(extractSpec(`Answer:\n\`\`\`\n${SPEC}\`\`\``)).toBe(SPEC);
  });
  it('keeps a truncated fence as it is (it will fail to parse, graded syntax)', () => {
    expect(extractSpec('```python\ndef sys_kill(old, pid):\n    cond = And(')).toBe('def sys_kill(old, pid):\n    cond = And(\n');
  });
  it('finds a bare function when there is no fence, and stops at prose', () => {
    const a = `Sure.\n\nimport z3\n${SPEC}\nThis spec checks the pid.`;
    expect(extractSpec(a)).toBe(`import z3\n${SPEC}`);
  });
  it("takes a fence in a Markdown list item without the item's indentation, and only when every line has it", () => {
    const indented = (t: string, by: string) => t.split('\n').map((l) => (l ? by + l : l)).join('\n');
    expect(extractSpec(`1. The spec:\n\n   \`\`\`python\n${indented(SPEC, '   ')}   \`\`\`\n2. Done.`)).toBe(SPEC);
    // A line with less indentation than the fence: nothing is removed, so no line's nesting changes.
    expect(extractSpec('  ```python\n  def f():\n return 1\n  ```')).toBe('  def f():\n return 1\n');
  });
  it('a fence line inside a docstring does not end the block; an unclosed string ends it at the first fence line as before', () => {
    const doc = 'def sys_kill(old, pid):\n    """For example:\n    ```\n    sys_kill(old, 1)\n    ```\n    """\n    return old.procs[pid].state == 0, old\n';
    expect(extractSpec(`\`\`\`python\n${doc}\`\`\`\nThat is all.`)).toBe(doc);
    expect(extractSpec("```python\ndef f():\n    s = '''\n    return 1\n```\nprose")).toBe("def f():\n    s = '''\n    return 1\n");
    // Upstream's reading stops at the first ```, docstring or not (osvbench mode is unchanged).
    expect(extractSpec(`\`\`\`python\n${doc}\`\`\``, 'osvbench')).toBe('def sys_kill(old, pid):\n    """For example:\n');
  });
  it('reads CRLF and CR line ends as Python does: the fence closes, the code follows (issue 35 item 9)', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const a = crlf(`Here it is:\n\n\`\`\`python\n${SPEC}\`\`\`\n\nThe condition checks the pid.\n`);
    expect(extractSpec(a)).toBe(SPEC);
    expect(extractSpec(a.replace(/\r\n/g, '\r'))).toBe(SPEC);
    expect(extractSpec(crlf(`Sure.\n\nimport z3\n${SPEC}\nThis spec checks the pid.`))).toBe(`import z3\n${SPEC}`);
    // With the list-item and docstring rules: the line ends are read first, so both still apply.
    const doc = 'def f():\n    """e.g.\n    ```\n    f()\n    ```\n    """\n    return 1\n';
    const item = doc.split('\n').map((l) => (l ? `   ${l}` : l)).join('\n');
    expect(extractSpec(crlf(`1. The spec:\n\n   \`\`\`python\n${item}   \`\`\`\n2. Done.`))).toBe(doc);
  });
  it('returns null for prose with no code', () => {
    expect(extractSpec('I cannot write this spec without more information about the kernel.')).toBeNull();
    expect(extractSpec('```text\njust words\n```')).toBeNull();
  });
});

describe('reasoning is not graded (issue 15 item 2)', () => {
  const DRAFT = 'def sys_kill(old, pid):\n    return False, old\n';
  it('a closed <think> block with a draft fence inside is skipped', () => {
    const a = `<think>\nLet me draft it:\n\`\`\`python\n${DRAFT}\`\`\`\nNo, the pid check is missing.\n</think>\n\nHere it is:\n\`\`\`python\n${SPEC}\`\`\``;
    expect(extractSpec(a)).toBe(SPEC);
  });
  it('an unclosed <think> (cut at max tokens) means no answer, not the draft', () => {
    expect(extractSpec(`<think>\nDraft:\n\`\`\`python\n${DRAFT}\`\`\`\nhmm`)).toBeNull();
  });
  it('a lone </think> (the chat template opened the block) ends the reasoning', () => {
    expect(extractSpec(`Draft:\n\`\`\`python\n${DRAFT}\`\`\`\n</think>\n\`\`\`python\n${SPEC}\`\`\``)).toBe(SPEC);
  });
});

describe('--extract osvbench: OSVBench harness extraction', () => {
  it('takes the first ```python block, case-sensitive, lazily to the next ```', () => {
    expect(extractSpec(`x\n\`\`\`python\n${SPEC}\`\`\`\n\`\`\`python\ndef other(): pass\n\`\`\``, 'osvbench')).toBe(SPEC);
    expect(extractSpec(`\`\`\`python\n${SPEC}\`\`\``, 'osvbench')).toBe(SPEC);
  });
  it('reads line ends as Python does, as the default mode does (the grader gets one form of spec)', () => {
    const crlf = `\`\`\`python\n${SPEC.replace(/\n/g, '\r\n')}\`\`\``;
    expect(extractSpec(crlf, 'osvbench')).toBe(SPEC);
    expect(extractSpec(crlf, 'osvbench')).toBe(extractSpec(crlf));
    // Upstream drops the one newline after the marker; a blank line after it stays.
    expect(extractSpec(`\`\`\`python\n\n${SPEC}\`\`\``, 'osvbench')).toBe(`\n${SPEC}`);
  });
  it('no ```python block means no answer: py, untagged, unclosed and bare code all give none', () => {
    for (const a of [`\`\`\`py\n${SPEC}\`\`\``, `\`\`\`\n${SPEC}\`\`\``, `\`\`\`Python\n${SPEC}\`\`\``, `\`\`\`python\n${SPEC}`, `import z3\n${SPEC}`]) {
      expect(extractSpec(a, 'osvbench')).toBeNull();
    }
  });
  it('does not strip reasoning: a draft inside <think> is what OSVBench takes', () => {
    const a = `<think>\n\`\`\`python\ndef draft(): pass\n\`\`\`\n</think>\n\`\`\`python\n${SPEC}\`\`\``;
    expect(extractSpec(a, 'osvbench')).toBe('def draft(): pass\n');
  });
  it('specText: the one form of a spec the grader is given', () => {
    expect(specText(`${SPEC}\n\n  `)).toBe(SPEC);
    expect(specText(SPEC.replace(/\n/g, '\r'))).toBe(SPEC);
  });
});

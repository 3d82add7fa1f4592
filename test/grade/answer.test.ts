import { describe, expect, it } from 'vitest';
import { extractSpec } from '../../src/core/bench/answer.ts';

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
  it('returns null for prose with no code', () => {
    expect(extractSpec('I cannot write this spec without more information about the kernel.')).toBeNull();
    expect(extractSpec('```text\njust words\n```')).toBeNull();
  });
});

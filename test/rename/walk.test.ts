/**
 * How the lens finds names (docs/rename.md): by token in C and spec code,
 * by word in prose, by fence and code span in Markdown; strings, keywords,
 * built-ins and errno names untouched, lines kept, ordinary words kept in
 * sentences and renamed where they are written as code.
 */
import { describe, expect, it } from 'vitest';
import { lensFor } from '../../src/core/rename/lens.ts';
import { markdownChunks, walkFeedback, walkProse } from '../../src/core/rename/walk.ts';

const lens = lensFor({ style: 'synonym', seed: 1 });
const n = (name: string) => lens.names.get(name)!;
const fwd = lens.forward;

describe('code', () => {
  it('renames names by token in spec code, never strings, keywords, built-ins or z3', () => {
    const src = "def sys_kill(old, pid):\n    x = z3.BitVec('procs', 64)  # the procs table\n    return len([old.procs[pid].state]), util.If(z3.And(True), new, old)\n";
    const out = fwd.codeText(src, 'python');
    expect(out).toBe(
      `def ${n('sys_kill')}(old, ${n('pid')}):\n    x = z3.BitVec('procs', 64)  # the ${n('procs')} table\n    return len([old.${n('procs')}[${n('pid')}].${n('state')}]), util.If(z3.And(True), new, old)\n`,
    );
    expect(lens.inverse.codeText(out, 'python')).toBe(src);
  });

  it('renames C identifiers, keeps literals, errno names and the C library', () => {
    const src = '#define NPROC 64 /* pids */\nint sys_kill(pid_t pid) { memset(p, 0, 8); panic("procs"); return -ESRCH; }\n';
    const out = fwd.codeText(src, 'c');
    expect(out).toBe(`#define ${n('NPROC')} 64 /* ${n('pid')}s */\nint ${n('sys_kill')}(pid_t ${n('pid')}) { memset(p, 0, 8); panic("procs"); return -ESRCH; }\n`);
    expect(out.split('\n').length).toBe(src.split('\n').length);
  });

  it('swaps an identifier spelled like a new name, so a round trip is exact', () => {
    const src = `def f(old):\n    ${n('procs')} = old.procs\n    return ${n('procs')}\n`;
    const out = fwd.codeText(src, 'python');
    expect(out).toBe(`def f(old):\n    procs = old.${n('procs')}\n    return procs\n`);
    expect(lens.inverse.codeText(out, 'python')).toBe(src);
  });

  it('reads spec text the dialect cannot lex with the C lexer, the same way both ways', () => {
    const src = 'def sys_dup(old, oldfd):\n    return old.procs[oldfd] $ 1\n';
    const out = fwd.codeText(src, 'python');
    expect(out).toContain(`old.${n('procs')}[${n('oldfd')}] $ 1`);
    expect(lens.inverse.codeText(out, 'python')).toBe(src);
  });
});

describe('prose', () => {
  it('keeps ordinary words in sentences and renames them where they are code', () => {
    const out = fwd.proseText('the state is unchanged; procs[pid].state and x->state too, and PROC_ZOMBIE.');
    expect(out).toBe(`the state is unchanged; ${n('procs')}[${n('pid')}].${n('state')} and x->${n('state')} too, and ${n('PROC_ZOMBIE')}.`);
  });

  it('follows a name in the plural', () => {
    expect(fwd.proseText('valid pids')).toBe(`valid ${n('pid')}s`);
  });

  it('leaves numbers and words of numbers alone', () => {
    expect(walkProse('0x7fff 64-bit n2', (w) => w.toUpperCase())).toBe('0x7fff 64-BIT N2');
  });

  it('in feedback, counts names in lists and code-frame lines as code', () => {
    const text = "Failing obligations: cond, current.\nthe spec's state\n> 3 |     new.procs[pid].state = current\n";
    expect(walkFeedback(text, (w, site) => (site.in === 'code' || site.codeLike ? w.toUpperCase() : w))).toBe(
      "Failing obligations: COND, CURRENT.\nthe spec's state\n> 3 |     NEW.PROCS[PID].STATE = CURRENT\n",
    );
  });
});

describe('markdown', () => {
  it('cuts a text into chunks that join to it', () => {
    const texts = ['a\n```c\nint x;\n```\nb', '```python\nx', '# h\ntext\n## h2\n```\n```\n', '', '```\n', 'x\n~~~~\ny\n~~~\nz\n~~~~'];
    for (const t of texts) expect(markdownChunks(t).map((c) => c.text).join('')).toBe(t);
  });

  it('renames fences by language, code spans as code, prose by word', () => {
    const md = 'The `procs[pid].state` of sys_kill, a state.\n```python\nold.procs\n```\n```c\nproc_table\n```\n```text\nprocs state\n```\n';
    expect(fwd.markdown(md)).toBe(
      `The \`${n('procs')}[${n('pid')}].${n('state')}\` of ${n('sys_kill')}, a state.\n\`\`\`python\nold.${n('procs')}\n\`\`\`\n\`\`\`c\n${n('proc_table')}\n\`\`\`\n\`\`\`text\n${n('procs')} state\n\`\`\`\n`,
    );
  });

  it('lists the original names a text still shows', () => {
    expect(lens.originalNames('a state, `x.state`, procs')).toEqual(['procs', 'state']);
    expect(lens.originalNames(fwd.markdown('a state, `x.state`, procs'))).toEqual([]);
  });
});

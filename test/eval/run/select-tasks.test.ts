/** Which tasks a selection names ("all", "first:N", "handler:NAME", ids, and lists mixing them). */
import { describe, expect, it } from 'vitest';
import { selectTasks } from '../../../src/core/eval/run/run-setup.ts';

const TASKS = ['sys_kill', 'sys_dup', 'sys_reap'].flatMap((handler) => [0, 1, 2].map((v) => ({ id: `${handler}-v${v}`, handler })));
const ids = (handler: string) => TASKS.filter((t) => t.handler === handler).map((t) => t.id);

describe('selectTasks', () => {
  it('reads all, first:N, one handler and a list of ids', () => {
    expect(selectTasks(TASKS, 'all')).toHaveLength(9);
    expect(selectTasks(TASKS, 'first:2')).toEqual(['sys_kill-v0', 'sys_kill-v1']);
    expect(selectTasks(TASKS, 'handler:sys_dup')).toEqual(ids('sys_dup'));
    expect(selectTasks(TASKS, 'sys_reap-v2, sys_kill-v0')).toEqual(['sys_reap-v2', 'sys_kill-v0']);
  });

  it('takes several handlers either way, and mixes them with ids, each task once', () => {
    const both = [...ids('sys_kill'), ...ids('sys_reap')];
    expect(selectTasks(TASKS, 'handler:sys_kill,sys_reap')).toEqual(both);
    expect(selectTasks(TASKS, 'handler:sys_kill, handler:sys_reap')).toEqual(both);
    expect(selectTasks(TASKS, 'handler: sys_kill , handler:sys_reap')).toEqual(both);
    expect(selectTasks(TASKS, 'handler:sys_kill, sys_dup-v1, sys_kill-v2')).toEqual([...ids('sys_kill'), 'sys_dup-v1']);
  });

  it('refuses an empty selection, unknown names and a bad N, saying which', () => {
    expect(() => selectTasks(TASKS, '')).toThrow('the selection is empty');
    expect(() => selectTasks(TASKS, ' , ')).toThrow('the selection is empty');
    expect(() => selectTasks(TASKS, 'handler:sys_kill, handler:sys_nope')).toThrow('no tasks for handler "sys_nope"');
    expect(() => selectTasks(TASKS, 'handler:sys_kill,sys_nope')).toThrow('no tasks for handler "sys_nope"');
    expect(() => selectTasks(TASKS, 'sys_kill-v9')).toThrow('unknown task "sys_kill-v9"');
    expect(() => selectTasks(TASKS, 'first:0')).toThrow('first:N');
  });
});

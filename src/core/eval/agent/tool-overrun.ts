/**
 * A tool call whose job ran past its hard limit (core/service/limits.ts,
 * `tool`): its worker was terminated and there is no verdict. The grader
 * throws it for a `verify` call (a grading stopped so is otherwise a
 * `timeout` grade), so the model is answered with AGENT011 as an overrun
 * `run` call is (tools.ts), and the loop goes on.
 */
export class ToolOverrunError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms; the worker was stopped`);
    this.name = 'ToolOverrunError';
  }
}

/**
 * A study's grid: every combination of its factors' levels is a cell, and
 * each cell is one run (docs/research.md). Cells are numbered in a fixed
 * order (models, then prompt variants, names, feedback modes, shots,
 * samples, modes, the last varying fastest), so the same file always gives the
 * same cells.
 */
import { type RenameChoice, namesText } from '../../rename/choice.ts';
import type { FeedbackMode } from '../run/run-types.ts';
import { AGENT_DEFAULTS, type AgentSettings } from '../agent/tools.ts';
import type { Study, StudyModel } from './study-file.ts';

export type Factor = 'model' | 'prompt' | 'names' | 'feedback' | 'shots' | 'samples' | 'mode';

export const FACTORS: readonly Factor[] = ['model', 'prompt', 'names', 'feedback', 'shots', 'samples', 'mode'];

/** One level of every factor. */
export interface CellLevels {
  readonly model: StudyModel;
  readonly prompt: string;
  /** The renaming the model is shown (docs/rename.md); absent: hv6's own names. */
  readonly names?: RenameChoice;
  readonly feedback: FeedbackMode;
  readonly shots: number;
  readonly samples: number;
  /** The agent mode with the limits the cell names (the rest are AGENT_DEFAULTS); absent: one answer. */
  readonly agent?: Partial<AgentSettings>;
}

/** A mode as a reader names it: `answer`, `agent`, or `agent` with the limits that are not the defaults. */
function modeText(agent: Partial<AgentSettings> | undefined): string {
  if (!agent) return 'answer';
  const a = { ...AGENT_DEFAULTS, ...agent };
  const d = AGENT_DEFAULTS;
  const parts = [
    a.maxTurns !== d.maxTurns ? `${a.maxTurns} turns` : '',
    a.maxCalls !== d.maxCalls ? `${a.maxCalls} calls` : '',
    a.verifyAgainst !== d.verifyAgainst ? `vs ${a.verifyAgainst}` : '',
    a.toolTimeoutMs !== d.toolTimeoutMs ? `${a.toolTimeoutMs} ms/call` : '',
  ].filter(Boolean);
  return parts.length ? `agent (${parts.join(', ')})` : 'agent';
}


export interface StudyCell {
  /** 0-based position in the grid. */
  readonly index: number;
  readonly levels: CellLevels;
  /** The levels of the factors that vary in this study, e.g. "guide / verdict". */
  readonly label: string;
}

/** Two cells that differ in exactly one factor. */
export interface CellPair {
  readonly factor: Factor;
  readonly a: number;
  readonly b: number;
}

/** A level as a reader names it. */
export function levelText(factor: Factor, levels: CellLevels): string {
  switch (factor) {
    case 'model':
      return levels.model.model;
    case 'prompt':
      return levels.prompt;
    case 'names':
      return namesText(levels.names);
    case 'feedback':
      return levels.feedback;
    case 'shots':
      return `${levels.shots}-shot`;
    case 'samples':
      return `n=${levels.samples}`;
    case 'mode':
      return modeText(levels.agent);
  }
}

/** A level as a key: two models of the same name at two endpoints are two levels. */
function levelKey(factor: Factor, levels: CellLevels): string {
  const m = levels.model;
  return factor === 'model' ? `${m.provider}\0${m.model}\0${m.baseUrl ?? ''}` : levelText(factor, levels);
}

/** The factors with more than one level. */
export function varyingFactors(study: Study): Factor[] {
  const count: Record<Factor, number> = {
    model: study.models.length,
    prompt: study.prompts.length,
    names: study.names.length,
    feedback: study.feedback.length,
    shots: study.shots.length,
    samples: study.samples.length,
    mode: study.modes.length,
  };
  return FACTORS.filter((f) => count[f] > 1);
}

/** Every cell of the grid, in order. */
export function expandStudy(study: Study): StudyCell[] {
  const varying = varyingFactors(study);
  const cells: StudyCell[] = [];
  for (const model of study.models) {
    for (const prompt of study.prompts) {
      for (const style of study.names) {
        const names = style === 'hv6' ? undefined : { style, seed: study.renameSeed };
        for (const feedback of study.feedback) {
          for (const shots of study.shots) {
            for (const samples of study.samples) {
              for (const mode of study.modes) {
                const levels: CellLevels = { model, prompt, ...(names ? { names } : {}), feedback, shots, samples, ...(mode === 'answer' ? {} : { agent: mode.agent }) };
                const label = varying.length ? varying.map((f) => levelText(f, levels)).join(' / ') : levelText('model', levels);
                cells.push({ index: cells.length, levels, label });
              }
            }
          }
        }
      }
    }
  }
  return cells;
}

/** Every pair of cells that differ in one factor only, by factor in FACTORS order, then by cell. */
export function oneFactorPairs(cells: readonly StudyCell[]): CellPair[] {
  const out: CellPair[] = [];
  for (const factor of FACTORS) {
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j < cells.length; j++) {
        const differ = FACTORS.filter((f) => levelKey(f, cells[i].levels) !== levelKey(f, cells[j].levels));
        if (differ.length === 1 && differ[0] === factor) out.push({ factor, a: i, b: j });
      }
    }
  }
  return out;
}

/**
 * The grading corpus (perf/corpus/answers.jsonl, docs/lemmas.md "Tests and
 * benchmark") as tests read it: every answer, or one by its handler and how
 * it was made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS = join(import.meta.dirname, '../perf/corpus/answers.jsonl');

export interface CorpusAnswer {
  readonly handler: string;
  readonly made: string;
  readonly response: string;
}

export function corpus(): CorpusAnswer[] {
  return readFileSync(CORPUS, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CorpusAnswer);
}

/** The corpus answer of `handler` made as `made`; throws when there is none (the corpus was rebuilt without it). */
export function corpusAnswer(handler: string, made: string, all: readonly CorpusAnswer[] = corpus()): CorpusAnswer {
  const a = all.find((x) => x.handler === handler && x.made === made);
  if (!a) throw new Error(`the corpus has no ${made} answer for ${handler}: rebuild the sample from perf/corpus/answers.jsonl`);
  return a;
}

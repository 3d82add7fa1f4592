/**
 * `osvlab bench`: two benchmarks under one command. Without `--corpus`, the
 * oracles' cold verification (bench-oracles.ts; there `--full`, with
 * `--lemmas`, times the full lemma check of each oracle); with
 * `--corpus FILE`, grading with lemmas on a corpus of answers (bench-corpus.ts;
 * there `--full` runs the full check beside every grade with lemmas and counts
 * where they differ).
 */
import { parseCommand } from '../declarations.ts';
import { benchCorpus } from '../bench-corpus.ts';
import { benchOracles } from '../bench-oracles.ts';

export async function run(argv: string[]): Promise<number> {
  const { options } = parseCommand('bench', argv);
  return options.corpus === undefined ? benchOracles(options) : benchCorpus(options.corpus, options);
}

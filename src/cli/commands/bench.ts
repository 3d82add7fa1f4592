/**
 * `osvlab bench`: two benchmarks under one command. Without `--corpus`, the
 * oracles' cold verification (bench-oracles.ts; there `--full`, with
 * `--lemmas`, times the full lemma check of each oracle); with
 * `--corpus FILE`, grading with lemmas on a corpus of answers (bench-corpus.ts;
 * there `--full` runs the full check beside every grade with lemmas and counts
 * where they differ).
 */
import { parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { benchCorpus } from '../bench-corpus.ts';
import { benchOracles } from '../bench-oracles.ts';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('bench'));
  const corpus = args.values.get('corpus');
  return corpus === undefined ? benchOracles(args) : benchCorpus(corpus, args);
}

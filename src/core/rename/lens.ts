/**
 * The renaming lens (docs/rename.md): one renaming of every name a model
 * could remember of the kernel, deterministic from a style and a seed.
 * `forward` turns what the model is shown (the prompt, the shown code, the
 * descriptions and examples, the repair feedback) into the renamed world;
 * `inverse` turns the model's answer back before grading, so the verifier
 * grades it unchanged.
 *
 * In code the renaming swaps each name with its new name, so it is its own
 * inverse and one to one over every identifier: an answer's local variable
 * that happens to be spelled like a new name is renamed too, to the old
 * name, and nothing two names kept apart is ever merged (round trip: the
 * same tokens back). A name of the original world the model writes from
 * memory becomes a name that means nothing there, as it would in a truly
 * renamed kernel. In prose only the names are renamed (forward: old to
 * new; inverse: new to old); an ordinary English word of the vocabulary
 * (synonyms.ts, PROSE_WORDS) only where it is written as code.
 */
import { KERNEL, type KernelContent } from '../kernel/content.ts';
import type { RenameChoice } from './choice.ts';
import { newNames } from './naming.ts';
import { PROSE_WORDS } from './synonyms.ts';
import { BoundedMap } from '../bounded-map.ts';
import { type Chunk, type CodeLanguage, type NameSite, type Visit, markdownChunks, walkChunk, walkCode, walkFeedback, walkProse } from './walk.ts';
import { type Vocabulary, vocabulary } from './vocabulary.ts';

/** One direction of the lens over names, prose, code and Markdown. */
/**
 * Chunks of Markdown remembered per direction: the prompts of a run share
 * most of their text (the setting, the language, the examples), so each
 * chunk is renamed once.
 */
const CHUNK_MEMO = 2048;

class LensDirection {
  private readonly visit: Visit;
  private readonly chunks = new BoundedMap<string, string>(CHUNK_MEMO);

  constructor(
    /** Name -> name in code (the swap, the same both ways). */
    private readonly code: ReadonlyMap<string, string>,
    /** Word -> word in prose, this direction's only. */
    private readonly prose: ReadonlyMap<string, string>,
    /** Prose words renamed only where they stand as code. */
    private readonly proseWords: ReadonlySet<string>,
  ) {
    this.visit = (name, site) => this.rename(name, site);
  }

  private rename(name: string, site: NameSite): string {
    if (site.in === 'code') return this.code.get(name) ?? name;
    if (this.proseWords.has(name) && !site.codeLike) return name;
    const word = this.prose.get(name);
    if (word !== undefined) return word;
    // A plural of a name in a sentence ("valid pids") follows the name.
    const stem = name.endsWith('s') ? this.prose.get(name.slice(0, -1)) : undefined;
    return stem !== undefined && !this.proseWords.has(name.slice(0, -1)) ? `${stem}s` : name;
  }

  /** One name, as it stands in code. */
  name(name: string): string {
    return this.code.get(name) ?? name;
  }

  /** Code in `language` (its comments as prose). */
  codeText(text: string, language: CodeLanguage): string {
    return walkCode(text, language, this.visit);
  }

  /** Prose: sentences, a diagnosis. */
  proseText(text: string): string {
    return walkProse(text, this.visit);
  }

  /** The verifier's feedback: a diagnosis with code frames, a repair message. */
  feedback(text: string): string {
    return walkFeedback(text, this.visit);
  }

  /** A Markdown text with fenced code and inline code spans. */
  markdown(text: string): string {
    return markdownChunks(text)
      .map((c) => this.chunk(c))
      .join('');
  }

  private chunk(c: Chunk): string {
    if (c.as === 'verbatim') return c.text;
    const key = `${c.as}\0${c.text}`;
    let out = this.chunks.get(key);
    if (out === undefined) this.chunks.set(key, (out = walkChunk(c, this.visit)));
    return out;
  }
}

class Lens {
  readonly forward: LensDirection;
  readonly inverse: LensDirection;
  private readonly leaks = new BoundedMap<string, readonly string[]>(CHUNK_MEMO);

  constructor(
    readonly choice: RenameChoice,
    readonly vocab: Vocabulary,
    /** Original name -> new name. */
    readonly names: ReadonlyMap<string, string>,
  ) {
    const back = new Map([...names].map(([a, b]) => [b, a]));
    const swap = new Map([...names, ...back]);
    const newProseWords = new Set([...PROSE_WORDS].filter((w) => names.has(w)).map((w) => names.get(w)!));
    this.forward = new LensDirection(swap, names, PROSE_WORDS);
    this.inverse = new LensDirection(swap, back, newProseWords);
  }

  /**
   * The original names `text` still shows after renaming: names in code,
   * and names in prose that are not ordinary words or that are written as
   * code. `text` is Markdown (a prompt), or feedback (a repair message).
   * Empty for a renamed prompt (the no-leak test).
   */
  originalNames(text: string, kind: 'markdown' | 'feedback' = 'markdown'): string[] {
    const found = new Set<string>();
    const visit: Visit = (name, site) => {
      if (this.names.has(name) && (site.in === 'code' || !PROSE_WORDS.has(name) || site.codeLike)) found.add(name);
      return name;
    };
    if (kind === 'feedback') walkFeedback(text, visit);
    else {
      for (const c of markdownChunks(text)) {
        const key = `${c.as}\0${c.text}`;
        let names = this.leaks.get(key);
        if (!names) {
          const before = new Set(found);
          found.clear();
          walkChunk(c, visit);
          this.leaks.set(key, (names = [...found]));
          for (const n of before) found.add(n);
        }
        for (const n of names) found.add(n);
      }
    }
    return [...found].sort();
  }
}

const lenses = new Map<string, Lens>();

/** The lens of `choice` over `kernel`'s vocabulary; made once per choice. */
export function lensFor(choice: RenameChoice, kernel: KernelContent = KERNEL): Lens {
  const key = `${choice.style}/${choice.seed}/${kernel === KERNEL ? '' : kernel.kernelHash}`;
  let lens = lenses.get(key);
  if (!lens) {
    const vocab = vocabulary(kernel);
    lens = new Lens(choice, vocab, newNames(vocab, choice.style, choice.seed));
    lenses.set(key, lens);
  }
  return lens;
}

/** Picks the adapter for a provider kind. */
import { createAnthropic } from './anthropic.ts';
import { baseUrlProblem } from './base-url.ts';
import { baseUrlError } from './errors.ts';
import { createGemini } from './gemini.ts';
import type { HttpDeps } from './http.ts';
import { createOpenAi } from './openai.ts';
import { PROVIDER_KINDS, type Provider, type ProviderConfig } from './types.ts';

/**
 * The adapter for `config`. A base URL that holds a secret, a fragment, or
 * is no http(s) URL is refused here (LLM017), wherever it came from: the
 * CLI's flag, the page's field, a study file or a stored run.
 */
export function createProvider(config: ProviderConfig, deps: HttpDeps = {}): Provider {
  if (config.baseUrl !== undefined) {
    const why = baseUrlProblem(config.baseUrl);
    if (why) throw baseUrlError(why, { provider: config.kind });
  }
  switch (config.kind) {
    case 'openai':
    case 'openai-compatible':
      if (config.kind === 'openai-compatible' && !config.baseUrl) {
        throw new Error('openai-compatible needs a base URL, e.g. http://localhost:11434/v1 for Ollama');
      }
      return createOpenAi(config, deps);
    case 'anthropic':
      return createAnthropic(config, deps);
    case 'gemini':
      return createGemini(config, deps);
    default:
      // A kind read back from storage or settings may be anything.
      throw new Error(`unknown provider '${String((config as { kind: unknown }).kind)}' (known: ${PROVIDER_KINDS.join(', ')})`);
  }
}

/**
 * Environment variables the CLI reads a key from, in order. A provider's own
 * variable goes only to that provider: an openai-compatible host gets
 * OSVLAB_API_KEY or nothing, never OPENAI_API_KEY.
 */
export const KEY_ENV: Readonly<Record<ProviderConfig['kind'], readonly string[]>> = {
  openai: ['OSVLAB_API_KEY', 'OPENAI_API_KEY'],
  anthropic: ['OSVLAB_API_KEY', 'ANTHROPIC_API_KEY'],
  gemini: ['OSVLAB_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  'openai-compatible': ['OSVLAB_API_KEY'],
};

const OWN_HOST: Readonly<Record<ProviderConfig['kind'], string | undefined>> = {
  openai: 'api.openai.com',
  anthropic: 'api.anthropic.com',
  gemini: 'generativelanguage.googleapis.com',
  'openai-compatible': undefined,
};

/**
 * The key for a provider from the environment: OSVLAB_API_KEY, else the
 * provider's own variable, and that one only when the base URL is the
 * provider's own host (a proxy or another host set with --base-url gets
 * OSVLAB_API_KEY or nothing).
 */
export function keyFromEnv(kind: ProviderConfig['kind'], baseUrl: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (!Object.hasOwn(KEY_ENV, kind)) return undefined;
  const [general, ...own] = KEY_ENV[kind];
  if (env[general]) return env[general];
  let host: string | undefined;
  try {
    host = baseUrl ? new URL(baseUrl).hostname : OWN_HOST[kind];
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== OWN_HOST[kind]) return undefined;
  return own.map((v) => env[v]).find((v) => v);
}

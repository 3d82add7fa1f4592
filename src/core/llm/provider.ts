/** Picks the adapter for a provider kind. */
import { createAnthropic } from './anthropic.ts';
import { createGemini } from './gemini.ts';
import type { HttpDeps } from './http.ts';
import { createOpenAi } from './openai.ts';
import type { Provider, ProviderConfig } from './types.ts';

export function createProvider(config: ProviderConfig, deps: HttpDeps = {}): Provider {
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
  }
}

/** Environment variables the CLI reads a key from, in order. */
export const KEY_ENV: Readonly<Record<ProviderConfig['kind'], readonly string[]>> = {
  openai: ['OSVLAB_API_KEY', 'OPENAI_API_KEY'],
  anthropic: ['OSVLAB_API_KEY', 'ANTHROPIC_API_KEY'],
  gemini: ['OSVLAB_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  'openai-compatible': ['OSVLAB_API_KEY', 'OPENAI_API_KEY'],
};

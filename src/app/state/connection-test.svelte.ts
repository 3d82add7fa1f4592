/**
 * The Evaluate page's connection test: one small request with exactly the
 * sampling parameters a run will send, to check the URL, key, model and
 * parameters before a run.
 */
import { isLlmError } from '../../core/llm/errors.ts';
import { createProvider } from '../../core/llm/provider.ts';
import type { SamplingParams } from '../../core/llm/types.ts';
import type { ProviderSettings } from './provider-settings.svelte.ts';

export type Connection =
  | { readonly kind: 'idle' }
  | { readonly kind: 'testing' }
  | { readonly kind: 'ok'; readonly model: string; readonly latencyMs: number }
  | { readonly kind: 'failed'; readonly message: string };

export class ConnectionTest {
  status = $state<Connection>({ kind: 'idle' });

  /** Forgets the last result (the provider changed). */
  reset(): void {
    this.status = { kind: 'idle' };
  }

  /** Sends the test request to the provider `settings` name, with `params`. */
  async run(settings: ProviderSettings, params: SamplingParams): Promise<void> {
    this.status = { kind: 'testing' };
    try {
      const provider = createProvider({ kind: settings.provider, baseUrl: settings.baseUrl, apiKey: settings.keyFor(settings.provider, settings.baseUrl), timeoutMs: 120_000 });
      const c = await provider.complete({ model: settings.model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], ...params });
      this.status = { kind: 'ok', model: c.model, latencyMs: c.latencyMs };
    } catch (e) {
      this.status = { kind: 'failed', message: isLlmError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e) };
    }
  }
}

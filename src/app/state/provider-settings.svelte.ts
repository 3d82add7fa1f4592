/**
 * The provider the Evaluate page talks to: its kind, base URL and model
 * (saved on this device), and the API key, which stays in memory unless the
 * user asks to remember it on this device (local storage, one entry per
 * provider kind).
 */
import { PROVIDER_KINDS, type ProviderKind } from '../../core/llm/types.ts';

const DEFAULT_URLS: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': 'http://localhost:11434/v1',
};

const SETTINGS_KEY = 'osvlab.provider';
const keyStorageKey = (kind: ProviderKind) => `osvlab.key.${kind}`;

export class ProviderSettings {
  provider = $state<ProviderKind>('openai');
  baseUrl = $state(DEFAULT_URLS.openai);
  model = $state('');
  /** The API key: in memory only, unless `remember` is on. */
  apiKey = $state('');
  remember = $state(false);

  constructor() {
    if (typeof localStorage === 'undefined') return;
    try {
      const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<{ provider: ProviderKind; baseUrl: string; model: string }>;
      // Settings are the user's storage: a provider that is not one of ours is ignored.
      if (saved.provider && (PROVIDER_KINDS as readonly string[]).includes(saved.provider)) this.provider = saved.provider;
      if (typeof saved.baseUrl === 'string' && saved.baseUrl) this.baseUrl = saved.baseUrl;
      if (typeof saved.model === 'string' && saved.model) this.model = saved.model;
    } catch {
      // Damaged settings: start from the defaults.
    }
    const key = localStorage.getItem(keyStorageKey(this.provider));
    if (key) {
      this.apiKey = key;
      this.remember = true;
    }
  }

  /** Switches to provider `kind`: its default URL, and its remembered key if there is one. */
  setProvider(kind: ProviderKind): void {
    this.provider = kind;
    this.baseUrl = DEFAULT_URLS[kind];
    const key = localStorage.getItem(keyStorageKey(kind));
    this.apiKey = key ?? '';
    this.remember = key !== null;
    this.save();
  }

  /** Saves provider, URL and model (never the key) for next time. */
  save(): void {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ provider: this.provider, baseUrl: this.baseUrl, model: this.model }));
  }

  /** Applies "remember on this device": stores or forgets the key. */
  applyRemember(): void {
    if (this.remember && this.apiKey) localStorage.setItem(keyStorageKey(this.provider), this.apiKey);
    else localStorage.removeItem(keyStorageKey(this.provider));
  }

  /** The key for provider `kind`: the one held here when it is this provider's, else the one remembered on this device. */
  keyFor(kind: ProviderKind): string | undefined {
    return kind === this.provider ? this.apiKey : (localStorage.getItem(keyStorageKey(kind)) ?? undefined);
  }
}

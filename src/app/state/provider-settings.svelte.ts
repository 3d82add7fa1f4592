/**
 * The provider the Evaluate page talks to: its kind, base URL and model
 * (saved on this device), and the API keys. A key belongs to the provider
 * kind and the origin of the base URL it was typed for (docs/providers.md,
 * "Keys in the browser"): it stays in memory unless the user asks to remember
 * it on this device (local storage, one entry per kind holding `{origin: key}`),
 * and it is only ever sent to that origin. Changing the base URL to another
 * origin shows that origin's key, or an empty field.
 */
import { PROVIDER_KINDS, type ProviderKind } from '../../core/llm/types.ts';
import { keyOrigin, parseStoredKeys, storedKeysText } from '../lib/key-store.ts';

const DEFAULT_URLS: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': 'http://localhost:11434/v1',
};

const SETTINGS_KEY = 'osvlab.provider';
const keyStorageKey = (kind: ProviderKind) => `osvlab.key.${kind}`;
/** Where a key of `kind` for `origin` is held in memory. */
const slot = (kind: ProviderKind, origin: string) => `${kind} ${origin}`;

function storage(): Storage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

export class ProviderSettings {
  provider = $state<ProviderKind>('openai');
  baseUrl = $state(DEFAULT_URLS.openai);
  model = $state('');
  /** Keys typed on this page, by kind and origin; '' is a key the user cleared. */
  private typed = $state<Record<string, string>>({});
  /** Keys remembered on this device, by kind, then origin (as local storage holds them). */
  private stored = $state<Record<ProviderKind, Record<string, string>>>({ openai: {}, anthropic: {}, gemini: {}, 'openai-compatible': {} });
  /** "Remember on this device" as ticked, by kind and origin (unset: ticked when a key is remembered). */
  private ticked = $state<Record<string, boolean>>({});

  /** The origin the key field is for (the base URL's), or undefined while the base URL is no URL. */
  readonly origin = $derived(keyOrigin(this.baseUrl));

  constructor() {
    const ls = storage();
    if (!ls) return;
    let saved: Partial<{ provider: ProviderKind; baseUrl: string; model: string }> = {};
    try {
      saved = JSON.parse(ls.getItem(SETTINGS_KEY) ?? '{}') ?? {};
      // Settings are the user's storage: a provider that is not one of ours is ignored.
      if (saved.provider && (PROVIDER_KINDS as readonly string[]).includes(saved.provider)) this.provider = saved.provider;
      if (typeof saved.baseUrl === 'string' && saved.baseUrl) this.baseUrl = saved.baseUrl;
      if (typeof saved.model === 'string' && saved.model) this.model = saved.model;
    } catch {
      // Damaged settings: start from the defaults.
    }
    for (const kind of PROVIDER_KINDS) {
      const text = ls.getItem(keyStorageKey(kind));
      // A key saved before keys had origins belongs to the base URL saved with it, or the provider's default.
      const legacy = (kind === this.provider && typeof saved.baseUrl === 'string' ? keyOrigin(saved.baseUrl) : undefined) ?? keyOrigin(DEFAULT_URLS[kind]);
      const keys = parseStoredKeys(text, legacy);
      this.stored[kind] = keys;
      const now = storedKeysText(keys);
      if (text !== null && text !== now) this.write(kind, keys);
    }
  }

  /** The key in the field: the one for this provider and the base URL's origin. */
  get apiKey(): string {
    const origin = this.origin;
    if (!origin) return this.typed[slot(this.provider, '')] ?? '';
    return this.typed[slot(this.provider, origin)] ?? this.stored[this.provider][origin] ?? '';
  }

  set apiKey(key: string) {
    this.typed[slot(this.provider, this.origin ?? '')] = key;
  }

  /** "Remember on this device" for the key in the field. */
  get remember(): boolean {
    const origin = this.origin;
    if (!origin) return false;
    return this.ticked[slot(this.provider, origin)] ?? Object.hasOwn(this.stored[this.provider], origin);
  }

  set remember(on: boolean) {
    if (this.origin) this.ticked[slot(this.provider, this.origin)] = on;
  }

  /** Switches to provider `kind`: its default URL, and the key for it if there is one. */
  setProvider(kind: ProviderKind): void {
    this.provider = kind;
    this.baseUrl = DEFAULT_URLS[kind];
    this.save();
  }

  /** Saves provider, URL and model (never the key) for next time. */
  save(): void {
    storage()?.setItem(SETTINGS_KEY, JSON.stringify({ provider: this.provider, baseUrl: this.baseUrl, model: this.model }));
  }

  /** Applies "remember on this device" to the key in the field: stores it for its origin, or forgets it. */
  applyRemember(): void {
    const origin = this.origin;
    const ls = storage();
    if (!origin || !ls) return;
    // Read again: another tab may have remembered a key for another origin since.
    const keys = parseStoredKeys(ls.getItem(keyStorageKey(this.provider)), undefined);
    const key = this.apiKey;
    // The field keeps the key when it is forgotten: it stays in memory.
    this.typed[slot(this.provider, origin)] = key;
    if (this.remember && key) keys[origin] = key;
    else delete keys[origin];
    this.stored[this.provider] = keys;
    this.write(this.provider, keys);
  }

  /**
   * The key for a request of provider `kind` to `baseUrl`: the one typed or
   * remembered for that kind and that origin, and none for any other origin
   * (a base URL read from a run or a study file gets no key entered elsewhere).
   */
  keyFor(kind: ProviderKind, baseUrl: string | undefined): string | undefined {
    const origin = keyOrigin(baseUrl ?? DEFAULT_URLS[kind]);
    if (!origin || !Object.hasOwn(this.stored, kind)) return undefined;
    return (this.typed[slot(kind, origin)] ?? this.stored[kind][origin]) || undefined;
  }

  private write(kind: ProviderKind, keys: Record<string, string>): void {
    const text = storedKeysText(keys);
    try {
      if (text === undefined) storage()?.removeItem(keyStorageKey(kind));
      else storage()?.setItem(keyStorageKey(kind), text);
    } catch {
      // Storage full or disabled: the key lives in memory until the page closes.
    }
  }
}

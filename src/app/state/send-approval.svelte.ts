/**
 * Asking before requests go to a host the user did not choose on this page
 * (docs/providers.md, "Keys in the browser"). A run read from a file, or a
 * study file, names its own base URL: nothing is sent there until the user
 * has seen the host, and whether a key of theirs goes with the requests, and
 * said yes. A host is approved on this device once the user starts a run
 * there from the Evaluate page or says yes here; approved hosts are kept in
 * local storage (origins only, never a key).
 */
import { createProvider } from '../../core/llm/provider.ts';
import type { ProviderKind } from '../../core/llm/types.ts';
import { keyOrigin } from '../lib/key-store.ts';

const APPROVED_KEY = 'osvlab.approved-hosts';

/** One host a question asks about. */
export interface Destination {
  /** The base URL's origin (scheme, host, port). */
  readonly origin: string;
  readonly provider: ProviderKind;
  /** A key the user entered for this provider and origin goes with the requests. */
  readonly withKey: boolean;
  /** The provider refuses to send without a key (every kind but openai-compatible: src/core/llm's adapters). */
  readonly needsKey: boolean;
}

export interface SendQuestion {
  /** What would send, in words ("Resume run r1", "Run the study s"). */
  readonly what: string;
  readonly destinations: readonly Destination[];
}

function readApproved(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(APPROVED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

class SendApproval {
  /** The question the page shows now, if any. */
  question = $state.raw<SendQuestion | undefined>(undefined);
  private answer?: (yes: boolean) => void;

  /** Whether requests may go to `origin` without asking. */
  approved(origin: string): boolean {
    return typeof localStorage !== 'undefined' && readApproved().includes(origin);
  }

  /** Approves `origin` on this device. */
  approve(origin: string): void {
    const list = readApproved();
    if (list.includes(origin)) return;
    try {
      localStorage.setItem(APPROVED_KEY, JSON.stringify([...list, origin]));
    } catch {
      // Storage full or disabled: the host will be asked about again.
    }
  }

  /**
   * Resolves true when requests may go to every destination: each is
   * approved or `trusted`, or the user said yes (which approves them).
   * Resolves false when the user said no; nothing may be sent then. A new
   * question answers an open one with no.
   */
  confirm(what: string, destinations: readonly Destination[], trusted: (origin: string) => boolean = () => false): Promise<boolean> {
    const ask = destinations.filter((d, i) => !this.approved(d.origin) && !trusted(d.origin) && destinations.findIndex((e) => e.origin === d.origin && e.provider === d.provider) === i);
    if (ask.length === 0) return Promise.resolve(true);
    this.reply(false);
    return new Promise((resolve) => {
      this.question = { what, destinations: ask };
      this.answer = resolve;
    });
  }

  /** The user's answer to the open question. */
  reply(yes: boolean): void {
    const q = this.question;
    const answer = this.answer;
    this.question = undefined;
    this.answer = undefined;
    if (yes && q) for (const d of q.destinations) this.approve(d.origin);
    answer?.(yes);
  }
}

export const sendApproval = new SendApproval();

/**
 * The destination of requests of provider `kind` to `baseUrl` (the provider's
 * default when unset), with whether `keyFor` has a key for it; undefined when
 * the base URL is unusable, since nothing can be sent there (LLM017).
 */
export function destinationOf(kind: ProviderKind, baseUrl: string | undefined, keyFor: (kind: ProviderKind, baseUrl: string) => string | undefined): Destination | undefined {
  let url: string;
  try {
    url = createProvider({ kind, baseUrl }).baseUrl;
  } catch {
    return undefined;
  }
  const origin = keyOrigin(url);
  return origin ? { origin, provider: kind, withKey: !!keyFor(kind, url), needsKey: kind !== 'openai-compatible' } : undefined;
}

/**
 * The few web-platform globals src/core uses, declared in their smallest form
 * so the core compiles without the DOM lib (tsconfig.core.json) and a stray
 * `window` or `document` still fails to compile. Node 20, browsers and Web
 * Workers all provide these. Every shape here is a subset of the DOM lib's, so
 * under tsconfig.json (DOM lib loaded first) the DOM declarations win and these
 * merge harmlessly (skipLibCheck keeps the duplicate-variable notes quiet).
 */

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: any;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare var AbortSignal: { prototype: AbortSignal };

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: any): void;
}
declare var AbortController: { prototype: AbortController; new (): AbortController };

interface Headers {
  get(name: string): string | null;
}

interface Response {
  /** "opaqueredirect" for a redirect fetched with redirect: 'manual' in a browser. */
  readonly type: string;
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  text(): Promise<string>;
}

interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  mode?: 'cors' | 'no-cors' | 'same-origin' | 'navigate';
  redirect?: 'follow' | 'manual' | 'error';
}

declare function fetch(input: string, init?: RequestInit): Promise<Response>;

declare function setTimeout(handler: () => void, timeout?: number): any;
declare function clearTimeout(id: any): void;

interface SubtleCrypto {
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
}
interface Crypto {
  readonly subtle: SubtleCrypto;
}
declare var crypto: Crypto;

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

interface URLSearchParams {
  keys(): IterableIterator<string>;
}

interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean }): TextDecoder };

interface URL {
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
  readonly hash: string;
  readonly searchParams: URLSearchParams;
}
declare var URL: { prototype: URL; new (url: string, base?: string): URL };

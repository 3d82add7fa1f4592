/** Base URLs (docs/providers.md, "Base URLs"): what is refused, and where each adapter sends. */
import { describe, expect, it } from 'vitest';
import { baseUrlProblem } from '../../src/core/llm/base-url.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { ProviderKind } from '../../src/core/llm/types.ts';

describe('baseUrlProblem', () => {
  it('accepts the usual base URLs, with or without a query', () => {
    for (const u of ['https://api.openai.com/v1', 'http://localhost:11434', 'http://[::1]:8000/v1/', 'https://h.example/openai?api-version=2024-10-21']) {
      expect(baseUrlProblem(u), u).toBeUndefined();
    }
  });

  it('refuses credentials, keys in the query, fragments and other schemes, never echoing a password', () => {
    const cases: [string, RegExp][] = [
      ['http://user:hunter22@host/v1', /user name or password \(http:\/\/\*\*\*@host\/v1\)/],
      ['http://justuser@host/v1', /user name or password/],
      ['https://host/v1?key=AIzaSecret', /"key" looks like a key/],
      ['https://host/v1?x=1&Access_Token=t', /"Access_Token" looks like a key/],
      ['https://host/v1#frag', /no fragment \("#frag"\)/],
      ['https://host/v1#', /no fragment/],
      ['ftp://host/v1', /starts with https:\/\/ or http:\/\/, not ftp:\/\//],
      ['host/v1', /is not a URL/],
    ];
    for (const [u, says] of cases) {
      const why = baseUrlProblem(u);
      expect(why, u).toMatch(says);
      expect(why).not.toContain('hunter22');
    }
  });
});

describe('the request URL of each adapter', () => {
  /** The URL a provider posts to, read from the fetch it is given. */
  async function posted(kind: ProviderKind, baseUrl: string): Promise<string> {
    let url = '';
    const p = createProvider({ kind, baseUrl, apiKey: 'k' }, {
      fetch: async (u) => {
        url ||= u;
        throw new TypeError('stop here');
      },
    });
    await p.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    return url;
  }

  it('joins the endpoint before the query string and drops trailing slashes', async () => {
    expect(await posted('openai', 'https://h/v1/?api-version=1')).toBe('https://h/v1/chat/completions?api-version=1');
    expect(await posted('openai-compatible', 'http://localhost:11434?x=1')).toBe('http://localhost:11434/v1/chat/completions?x=1');
    expect(await posted('anthropic', 'https://h/v1//')).toBe('https://h/v1/messages');
    expect(await posted('gemini', 'https://h/v1beta?alt=json')).toBe('https://h/v1beta/models/m:generateContent?alt=json');
  });

  it('refuses a base URL with a secret when the provider is made (a stored or imported run), as LLM017', () => {
    expect(() => createProvider({ kind: 'openai', baseUrl: 'https://u:p@h/v1', apiKey: 'k' })).toThrow(expect.objectContaining({ code: 'LLM017', fatal: true }));
  });
});

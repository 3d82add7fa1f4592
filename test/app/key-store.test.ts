/**
 * Keys in the browser belong to one origin (src/app/lib/key-store.ts): the
 * origin of a base URL, the stored form, and a key saved by an older version
 * (one plain key per provider kind), which belongs to the origin it was
 * saved with.
 */
import { describe, expect, it } from 'vitest';
import { keyOrigin, parseStoredKeys, storedKeysText } from '../../src/app/lib/key-store.ts';

describe('key origins', () => {
  it('is scheme, host and port; paths, queries, case and default ports do not matter', () => {
    expect(keyOrigin('https://api.openai.com/v1')).toBe('https://api.openai.com');
    expect(keyOrigin('https://API.OpenAI.com:443/v1/?x=1')).toBe('https://api.openai.com');
    expect(keyOrigin('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080');
    expect(keyOrigin(' http://localhost:11434 ')).toBe('http://localhost:11434');
  });

  it('tells apart hosts, ports and schemes that differ', () => {
    expect(keyOrigin('http://127.0.0.2:8080/v1')).not.toBe(keyOrigin('http://127.0.0.1:8080/v1'));
    expect(keyOrigin('http://127.0.0.1:8081/v1')).not.toBe(keyOrigin('http://127.0.0.1:8080/v1'));
    expect(keyOrigin('http://api.openai.com/v1')).not.toBe(keyOrigin('https://api.openai.com/v1'));
    // A look-alike host is another host.
    expect(keyOrigin('https://api.openai.com.evil.example/v1')).toBe('https://api.openai.com.evil.example');
  });

  it('is none for what is no http(s) URL', () => {
    expect(keyOrigin('not a url')).toBeUndefined();
    expect(keyOrigin('')).toBeUndefined();
    expect(keyOrigin('file:///etc/passwd')).toBeUndefined();
    expect(keyOrigin('javascript:alert(1)')).toBeUndefined();
  });
});

describe('stored keys', () => {
  it('reads back what it stores', () => {
    const keys = { 'https://api.openai.com': 'sk-one', 'http://127.0.0.1:8080': 'sk-two' };
    expect(parseStoredKeys(storedKeysText(keys)!, 'https://elsewhere.example')).toEqual(keys);
    expect(storedKeysText({})).toBeUndefined();
  });

  it('ties a key saved by an older version to the origin it was saved with', () => {
    expect(parseStoredKeys('sk-old-plain-key', 'https://api.openai.com')).toEqual({ 'https://api.openai.com': 'sk-old-plain-key' });
    // Keys that happen to parse as JSON but are not an object of keys are still one old key.
    expect(parseStoredKeys('1234567890', 'http://localhost:11434')).toEqual({ 'http://localhost:11434': '1234567890' });
    expect(parseStoredKeys('"quoted"', 'http://localhost:11434')).toEqual({ 'http://localhost:11434': '"quoted"' });
    expect(parseStoredKeys('sk-old', undefined)).toEqual({});
  });

  it('drops entries that are not an origin and a key', () => {
    const text = JSON.stringify({ 'https://api.openai.com': 'sk-1', 'https://api.openai.com/v1': 'sk-path', 'no origin': 'x', 'http://a.example': 7, 'http://b.example': '' });
    expect(parseStoredKeys(text, 'https://other.example')).toEqual({ 'https://api.openai.com': 'sk-1' });
    expect(parseStoredKeys(null, 'https://api.openai.com')).toEqual({});
    expect(parseStoredKeys('', 'https://api.openai.com')).toEqual({});
  });
});

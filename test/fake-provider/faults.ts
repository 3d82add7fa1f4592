/**
 * Fault injection for the fake provider: replies that make a request fail
 * for good, for tests of what a run does with answers it never gets.
 */
import type { FakeReply } from './server.ts';

/**
 * A provider outage: HTTP 503 with `Retry-After: 0`, so the client's retries
 * are spent at once (no backoff waits) and the request fails for good with a
 * server error, as after a real outage outlasting the retries.
 */
export function outage(): FakeReply {
  return {
    kind: 'raw',
    status: 503,
    headers: { 'retry-after': '0' },
    body: JSON.stringify({ error: { message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null } }),
  };
}

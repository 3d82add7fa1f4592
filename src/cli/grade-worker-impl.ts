/**
 * One verifier worker thread: serves the same `VerifierApi` as the page's
 * workers (src/core/service/serve.ts) over Comlink to the pool (node-pool.ts),
 * with the process-wide Node Z3.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { serveVerifier } from '../core/service/serve.ts';
import { nodeEndpoint } from './node-endpoint.ts';
import { nodeEngine } from '../z3/node.ts';

// Comlink sends a thrown error as its name, message and stack only; a coded
// error (a C error found while the handler ran, ImplementationError) keeps
// its diagnostics too, which the other side's Comlink copies onto the Error
// it throws (core/service/client.ts turns it back into the class).
const thrown = Comlink.transferHandlers.get('throw')!;
Comlink.transferHandlers.set('throw', {
  ...thrown,
  serialize(value) {
    const [wire, transfer] = thrown.serialize(value);
    const error = (value as { value?: { diagnostics?: unknown } }).value;
    const out = wire as { isError?: boolean; value?: Record<string, unknown> };
    if (out.isError && out.value && Array.isArray(error?.diagnostics)) out.value.diagnostics = error.diagnostics;
    return [wire, transfer];
  },
});

Comlink.expose(serveVerifier({ loadEngine: nodeEngine, isolated: () => true, now: () => performance.timeOrigin + performance.now() }), nodeEndpoint(parentPort!));

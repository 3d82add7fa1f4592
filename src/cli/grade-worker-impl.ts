/**
 * One grading worker thread: serves the same `VerifierApi` as the page's
 * workers (src/core/pool/serve.ts) over Comlink to the pool (node-pool.ts),
 * with the process-wide Node Z3.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { serveVerifier } from '../core/pool/serve.ts';
import { nodeEndpoint } from './node-endpoint.ts';
import { nodeEngine } from './z3-node.ts';

Comlink.expose(serveVerifier({ loadEngine: nodeEngine, isolated: () => true }), nodeEndpoint(parentPort!));

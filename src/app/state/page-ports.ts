/**
 * What a run session runs on in this page (src/core/eval/session/ports.ts),
 * put together in one place for the Evaluate, Runs and study panels: the
 * browser's run store (IndexedDB), the verifier's worker pool as the grader,
 * and, for a run that asks a model, a client for its provider with the key
 * the page holds for that provider and base URL, caching in the same store.
 */
import type { SessionPorts } from '../../core/eval/session/ports.ts';
import { LlmClient } from '../../core/llm/client.ts';
import { createProvider } from '../../core/llm/provider.ts';
import type { ProviderKind } from '../../core/llm/types.ts';
import { DexieRepository } from '../../store/dexie.ts';
import { storage } from '../lib/storage.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { verifier } from './verifier.svelte.ts';

let repo: DexieRepository | undefined;
/** The browser's run store: the run tables of the page's one database (lib/storage.ts), opened on first use. */
export function repository(): DexieRepository {
  repo ??= new DexieRepository(storage());
  return repo;
}

/** The session's ports in this page; with `keyFor` (the key for a provider at a base URL, if any), a client for a run's provider too. */
export async function pagePorts(keyFor?: (kind: ProviderKind, baseUrl: string) => string | undefined): Promise<SessionPorts> {
  await taskCatalog.load();
  const ports: SessionPorts = { tasks: taskCatalog.tasks, store: repository(), grader: (task, spec, options) => verifier.grade(task, spec, options), runner: (req, signal) => verifier.agentRun(req, signal) };
  if (!keyFor) return ports;
  return {
    ...ports,
    client: (config) => new LlmClient({ provider: createProvider({ kind: config.provider, baseUrl: config.baseUrl, apiKey: keyFor(config.provider, config.baseUrl) || undefined }), cache: repository(), concurrency: config.concurrency }),
  };
}

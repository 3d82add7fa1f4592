/**
 * A Node `worker_threads` port (a `Worker`, or a thread's `parentPort`) as the
 * Comlink endpoint the browser's workers are, so both sides of the CLI's
 * grading pool speak the same protocol as the page's.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import type { Endpoint } from 'comlink';

type Listener = Parameters<Endpoint['addEventListener']>[1];

export function nodeEndpoint(port: Worker | MessagePort): Endpoint {
  const wrapped = new WeakMap<Listener, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer as never),
    addEventListener: (_type: string, listener: Listener) => {
      const l = (data: unknown) => {
        const event = { data } as MessageEvent;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, l);
      port.on('message', l);
    },
    removeEventListener: (_type: string, listener: Listener) => {
      const l = wrapped.get(listener);
      if (l) port.off('message', l);
      wrapped.delete(listener);
    },
  };
}

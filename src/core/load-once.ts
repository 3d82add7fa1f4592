/**
 * A load (a module imported on demand, a file fetched) done at most once:
 * callers share its promise while it runs and its result once it has
 * succeeded; a failure is forgotten, so the next call tries again (a chunk
 * that did not arrive over a phone's network).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    const now = (loading ??= load());
    now.catch(() => {
      if (loading === now) loading = undefined;
    });
    return now;
  };
}

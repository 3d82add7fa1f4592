/**
 * Whether this site is a published one (`osvlab publish`, docs/publish.md):
 * its index.html carries `<meta name="osvlab-published" content="...">`,
 * naming the index of its runs. A published site opens on its Results page.
 */

/** The index's path (relative to the page's base URL), or undefined on the app's own site. */
export function publishedIndex(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('meta[name="osvlab-published"]')?.getAttribute('content') ?? undefined;
}

/**
 * A handler's functional description, as the Tasks page shows it. Apart from
 * content.ts: the descriptions (12 kB with brotli) are read by the Tasks page
 * only, and a share link's first code, which holds content.ts, would fetch
 * them before its verdict (docs/app.md, "Loading Z3").
 */
import { contentEntry } from '../../core/kernel/content.ts';
import { DESCRIPTIONS } from '../../core/kernel/descriptions.ts';
import { findHandler } from '../../core/kernel/handlers.ts';

export function description(handler: string): string | undefined {
  const h = findHandler(handler);
  if (!h) return undefined;
  return contentEntry(DESCRIPTIONS, h.name) ?? (h.alias ? contentEntry(DESCRIPTIONS, h.alias) : undefined);
}

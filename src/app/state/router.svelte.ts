/**
 * Hash routing: `#/play`, `#/tasks`, `#/tasks/<id>`, `#/learn/<lesson>`,
 * `#/evaluate`, `#/runs/<id>`, `#/results/<run>/<cell>`, `#/about`, and
 * share links `#/s/<payload>`; any other name is the 'missing' page (no
 * such page). Hash routes work on any static host with no rewrite rules.
 */
import { publishedIndex } from '../lib/published.ts';

export type Page = 'play' | 'tasks' | 'learn' | 'evaluate' | 'runs' | 'results' | 'about' | 'share' | 'missing';

export interface Route {
  readonly page: Page;
  /** Path segments after the page name. */
  readonly rest: readonly string[];
  /** Query parameters after `?` in the fragment. */
  readonly query: URLSearchParams;
}

const PAGES: ReadonlySet<string> = new Set<Page>(['play', 'tasks', 'learn', 'evaluate', 'runs', 'results', 'about']);

/** A path segment as typed; a malformed escape (`#/tasks/%`) is kept as it is rather than breaking the page. */
function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function parseHash(hash: string): Route {
  const frag = hash.replace(/^#\/?/, '');
  if (frag.startsWith('s/')) return { page: 'share', rest: [frag.slice(2)], query: new URLSearchParams() };
  const [path, q = ''] = frag.split('?', 2);
  const [first, ...rest] = path.split('/').filter(Boolean).map(decodeSegment);
  // An empty fragment is the playground (a published site's Results page); a name that is no page is said to be one ('missing').
  if (first === undefined) return { page: publishedIndex() ? 'results' : 'play', rest, query: new URLSearchParams(q) };
  if (!PAGES.has(first)) return { page: 'missing', rest: [first, ...rest], query: new URLSearchParams(q) };
  return { page: first as Page, rest, query: new URLSearchParams(q) };
}

class Router {
  route = $state<Route>(parseHash(typeof location === 'undefined' ? '' : location.hash));

  constructor() {
    if (typeof window === 'undefined') return;
    window.addEventListener('hashchange', () => (this.route = parseHash(location.hash)));
  }

  /** Navigates to `#/<path>`; `replace` keeps the history entry (used after opening a share link). */
  go(path: string, replace = false): void {
    const hash = '#/' + path.replace(/^#?\/?/, '');
    if (replace) {
      history.replaceState(history.state, '', hash);
      this.route = parseHash(hash);
    } else location.hash = hash;
  }
}

export const router = new Router();

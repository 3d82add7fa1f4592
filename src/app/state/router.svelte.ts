/**
 * Hash routing: `#/play`, `#/tasks`, `#/tasks/<id>`, `#/learn/<lesson>`,
 * `#/evaluate`, `#/runs/<id>`, `#/about`, and share links `#/s/<payload>`.
 * Hash routes work on any static host with no rewrite rules.
 */
export type Page = 'play' | 'tasks' | 'learn' | 'evaluate' | 'runs' | 'about' | 'share';

export interface Route {
  readonly page: Page;
  /** Path segments after the page name. */
  readonly rest: readonly string[];
  /** Query parameters after `?` in the fragment. */
  readonly query: URLSearchParams;
}

const PAGES: readonly Page[] = ['play', 'tasks', 'learn', 'evaluate', 'runs', 'about'];

function parseHash(hash: string): Route {
  const frag = hash.replace(/^#\/?/, '');
  if (frag.startsWith('s/')) return { page: 'share', rest: [frag.slice(2)], query: new URLSearchParams() };
  const [path, q = ''] = frag.split('?', 2);
  const [first, ...rest] = path.split('/').filter(Boolean).map(decodeURIComponent);
  const page = (PAGES as readonly string[]).includes(first) ? (first as Page) : 'play';
  return { page, rest, query: new URLSearchParams(q) };
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

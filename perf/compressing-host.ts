/**
 * A static host as the common ones behave: files only, the cross-origin
 * isolation headers (as a `_headers` file or host config sends them), and
 * responses compressed with brotli or gzip when the browser accepts it (a
 * brotli host sends gzip to a browser that takes only that)
 * (text, JSON and wasm alike). A precompressed `<file>.br` / `<file>.gz` next to
 * a file is sent as is; otherwise the file is compressed on first request and
 * kept in memory (brotli quality 5, gzip level 6: on-the-fly settings).
 * Like real hosts it sends validators (ETag, Last-Modified) and answers a
 * revalidation with 304, so the service worker's precache, which revalidates
 * what the page already loaded, does not download it a second time.
 */
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { Socket } from 'node:net';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { TYPES } from '../test/e2e/harness.ts';

export type Encoding = 'br' | 'gzip' | 'identity';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.wasm', '.svg', '.ttf']);
const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** One response the host sent: its path, the bytes of its body as sent (compressed; 0 for a 304) and when it was finished. */
export interface Served {
  readonly path: string;
  readonly status: number;
  readonly bytes: number;
  /** How the body was sent: the host's encoding, gzip to a browser that does not take brotli, or as is. */
  readonly encoding: Encoding;
  /** `Date.now()` when the request arrived. */
  readonly began: number;
  /** `Date.now()` when the response was finished. */
  readonly at: number;
}

export interface CompressingHost {
  readonly url: string;
  /** Bytes written to the network so far (headers included). */
  written(): number;
  /** Every response sent so far, in order. */
  served(): readonly Served[];
  close(): Promise<void>;
}

/** Serves `outDir`, compressing with `encoding` when the request accepts it. */
export async function serveCompressed(outDir: string, encoding: Encoding): Promise<CompressingHost> {
  const memo = new Map<string, Promise<Buffer>>();
  const encoded = (file: string, body: Buffer, enc: 'br' | 'gzip'): Promise<Buffer> => {
    const key = `${enc}:${file}`;
    let hit = memo.get(key);
    if (!hit) {
      const suffix = enc === 'br' ? '.br' : '.gz';
      hit = readFile(file + suffix).catch(() =>
        enc === 'br' ? br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : gz(body, { level: 6 }),
      );
      memo.set(key, hit);
    }
    return hit;
  };
  const log: Served[] = [];
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, '');
    const began = Date.now();
    let sent = 0;
    let sentAs: Encoding = 'identity';
    res.on('finish', () => log.push({ path, status: res.statusCode, bytes: sent, encoding: sentAs, began, at: Date.now() }));
    const file = join(outDir, path.endsWith('/') ? `${path}index.html` : path);
    let body: Buffer;
    let etag: string;
    let modified: string;
    try {
      const st = await stat(file);
      body = await readFile(file);
      etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}-${encoding}"`;
      modified = st.mtime.toUTCString();
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    const headers: Record<string, string | number> = {
      ...ISOLATION,
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      Vary: 'Accept-Encoding',
      ETag: etag,
      'Last-Modified': modified,
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '').split(',').map((s) => s.trim().split(';')[0]);
    // A brotli host sends gzip to a browser that does not take brotli (WebKitGTK over plain HTTP), as hosts do.
    const enc = encoding === 'identity' || !COMPRESSIBLE.has(extname(file)) ? undefined : accepts.includes(encoding) ? encoding : accepts.includes('gzip') ? 'gzip' : undefined;
    if (enc) {
      body = await encoded(file, body, enc);
      headers['Content-Encoding'] = sentAs = enc;
    }
    headers['Content-Length'] = sent = body.length;
    res.writeHead(200, headers);
    res.end(body);
  });
  let closed = 0;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      closed += s.bytesWritten;
      sockets.delete(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('host has no port');
  return {
    url: `http://127.0.0.1:${addr.port}/`,
    written: () => closed + [...sockets].reduce((n, s) => n + s.bytesWritten, 0),
    served: () => log,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

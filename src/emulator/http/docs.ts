import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from '../openapi/load-document.js';

const require = createRequire(import.meta.url);
const ASSET_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page; `headers`: every header the API takes a key in, as the served document names them. */
const page = (headers: readonly string[]) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>API DOCS — platform emulator</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    // one key, entered once in Authorize, goes in every header the API uses (the dialect's)
    const KEY_HEADERS = ${JSON.stringify(headers)};
    const keyOf = () => {
      if (!window.ui) return undefined; // the document itself is fetched before ui exists
      const auth = window.ui.authSelectors.authorized().toJS();
      return auth.apiKey && auth.apiKey.value;
    };
    window.ui = SwaggerUIBundle({
      url: '/docs/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
      requestInterceptor: (req) => {
        const key = keyOf();
        if (!key) return req;
        for (const header of KEY_HEADERS) {
          // one value per header: the page's own scheme may have set it in another case
          for (const name of Object.keys(req.headers)) {
            if (name.toLowerCase() === header.toLowerCase()) delete req.headers[name];
          }
          req.headers[header] = key;
        }
        return req;
      },
    });
  </script>
</body>
</html>
`;

/**
 * Serves `/docs` (the interactive API docs page, from the packaged swagger-ui-dist assets; no
 * network) and its whitelisted assets; the page sends the key in every header the API document
 * `doc` (the dialect's) takes one in. Returns false when `path` is not a docs path.
 */
export async function serveDocs(
  path: string,
  res: ServerResponse,
  doc: OpenApiDocument,
): Promise<boolean> {
  if (path === '/docs' || path === '/docs/' || path === '/docs/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(keyHeaderNames(doc)));
    return true;
  }
  const name = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  const type = ASSETS[name];
  if (!type) return false;
  const content = await readFile(join(ASSET_DIR, name));
  res.writeHead(200, { 'content-type': type, 'cache-control': 'max-age=3600' });
  res.end(content);
  return true;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** The headers of the document's API key schemes (the spec's: `X-SERVICE-API-KEYID`, `X-API-KEY`). */
function keyHeaderNames(doc: OpenApiDocument): string[] {
  const schemes = Object.values(doc.components.securitySchemes ?? {}) as {
    type?: string;
    in?: string;
    name?: string;
  }[];
  const names = schemes
    .filter((s) => s.type === 'apiKey' && s.in === 'header' && typeof s.name === 'string')
    .map((s) => s.name as string);
  return [...new Set(names)];
}

/**
 * The document the docs page shows (pure, a copy): one API key scheme, so Authorize asks for the
 * key once; the page sends it in every header of the API's schemes (the dialect's). Every
 * operation that needs a key needs that one. `/openapi.json` keeps the API's two schemes.
 */
export function docsDocument(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  copy.components.securitySchemes = {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
      description:
        'Your API key. Entered once, it is sent with every call, in the header that call expects.',
    },
  };
  for (const item of Object.values(copy.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const operation = op as { security?: unknown[] };
      if (METHODS.has(method) && operation.security?.length) operation.security = [{ apiKey: [] }];
    }
  }
  return copy;
}

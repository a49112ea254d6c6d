import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const ASSET_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
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
    window.ui = SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>
`;

/**
 * Serves `/docs` (the interactive API docs page, from the packaged swagger-ui-dist assets; no
 * network) and its whitelisted assets. Returns false when `path` is not a docs path.
 */
export async function serveDocs(path: string, res: ServerResponse): Promise<boolean> {
  if (path === '/docs' || path === '/docs/' || path === '/docs/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
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

// Preloaded with NODE_OPTIONS=--import=<this file>: appends the URL of every module the process
// loads to the file named by PLATCTL_TRACE_MODULES, so a test can see what a command pulled in.
// ES modules are seen as they are resolved; CommonJS ones (a `require` never goes through the
// hook) are listed from the require cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (process.env.PLATCTL_TRACE_MODULES) appendFileSync(process.env.PLATCTL_TRACE_MODULES, r.url + '\\n');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const file = process.env.PLATCTL_TRACE_MODULES;
  const urls = Object.keys(cache).map((path) => pathToFileURL(path).href);
  if (file && urls.length > 0) appendFileSync(file, `${urls.join('\n')}\n`);
});

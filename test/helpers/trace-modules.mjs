// Preloaded with NODE_OPTIONS=--import=<this file>: appends the URL of every module the process
// loads to the file named by PLATCTL_TRACE_MODULES, so a test can see what a command pulled in.
import { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (process.env.PLATCTL_TRACE_MODULES) appendFileSync(process.env.PLATCTL_TRACE_MODULES, r.url + '\\n');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

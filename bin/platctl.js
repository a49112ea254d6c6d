#!/usr/bin/env node
// The `platctl` command. An installed package runs its compiled code (dist/); a clone, where
// src/ is present, runs the TypeScript sources through tsx, so `npx platctl` and `npm link` work
// right after `npm install`, never from a stale build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/bin.ts', import.meta.url);
const built = new URL('../dist/src/cli/bin.js', import.meta.url);

stopWithParentUnderNpm();

if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('platctl: the package holds neither src/ nor dist/: reinstall it\n');
  process.exitCode = 1;
}

/**
 * Under `npx` (or `npm run`), npm runs this file through `sh -c`; a SIGTERM or SIGINT sent to
 * npm's pid (`kill $!` of `npx platctl emulator &`) reaches that shell, which dies of it without
 * passing it on, and this process would go on, orphaned (an emulator still listening). So when
 * npm started it and its parent goes away, it signals itself: the command stops as it does on
 * SIGTERM. Started any other way (a service manager, `nohup`, a container), it never does.
 */
function stopWithParentUnderNpm() {
  if (!process.env.npm_command && !process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  watch.unref();
}

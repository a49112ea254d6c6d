#!/usr/bin/env node
// The `platctl` command. An installed package runs its compiled code (dist/); a clone, where
// src/ is present, runs the TypeScript sources through tsx, so `npx platctl` and `npm link` work
// right after `npm install`, never from a stale build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/bin.ts', import.meta.url);
const built = new URL('../dist/src/cli/bin.js', import.meta.url);

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

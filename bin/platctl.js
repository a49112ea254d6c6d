#!/usr/bin/env node
// The `platctl` command. An installed package runs its compiled code (dist/). A clone, where
// src/ is present, runs its build when that build is newer than every file and directory under
// src/ (a start of about a tenth of a second), else the TypeScript sources through tsx (about half a
// second), so `npx platctl` works right after `npm install` and never runs a stale build: a
// build older than a source is said to be, on stderr, and left alone. `npm run build` makes the
// fast start (README.md, "Running platctl"; bench/README.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const source = new URL('src/cli/bin.ts', root);
const built = new URL('dist/src/cli/bin.js', root);

stopWithParentUnderNpm();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // package.json's version, whichever code would run: nothing to load or check
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else if (!existsSync(source) && existsSync(built)) {
  await import(built.href);
} else if (existsSync(source)) {
  const stamp = mtimeOf(built);
  if (stamp !== undefined && (await newestUnder(fileURLToPath(new URL('src/', root)))) <= stamp) {
    await import(built.href);
  } else {
    if (stamp !== undefined) {
      process.stderr.write(
        'platctl: src/ changed since the last build (dist/); running the sources through tsx, ' +
          'which starts slower: npm run build for a fast start\n',
      );
    }
    const { register } = await import('tsx/esm/api');
    register();
    await import(source.href);
  }
} else {
  process.stderr.write('platctl: the package holds neither src/ nor dist/: reinstall it\n');
  process.exitCode = 1;
}

/** The modification time of `url` in ms, or undefined when it does not exist. */
function mtimeOf(url) {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The newest modification time under `dir`, directories included (a file added, renamed or
 * removed changes its directory's): one stat per entry, all at once (about 10 ms for src/).
 */
async function newestUnder(dir) {
  const entries = readdirSync(dir, { recursive: true });
  const times = await Promise.all(entries.map(async (e) => (await stat(`${dir}/${e}`)).mtimeMs));
  return Math.max(statSync(dir).mtimeMs, ...times);
}

/**
 * Under `npx` (or `npm run`), npm runs this file through `sh -c`; a SIGTERM sent to npm's pid
 * (`kill $!` of `npx platctl emulator &`) reaches that shell, which dies of it without passing
 * it on, and this process would go on, orphaned (an emulator still listening). So when npm
 * started it and its parent goes away, it signals itself: the command stops as it does on
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

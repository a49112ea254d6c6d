import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where `npm run build` puts the page, and where the controller serves it from by default. */
const BUNDLE = join(ROOT, 'dist', 'dashboard');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const fresh = () => {
  const index = join(BUNDLE, 'index.html');
  return existsSync(index) && statSync(index).mtimeMs >= newest(join(ROOT, 'web'));
};

/**
 * Builds the page with vite when `dist/dashboard` is missing or older than `web/` (CI has built
 * it already with `npm run build`; a developer running one test file may not have). Test files
 * running at once build it once: the others wait on a lock directory (taken over after 2 min).
 */
export async function ensureBundle(): Promise<string> {
  const lock = `${BUNDLE}.lock`;
  mkdirSync(join(BUNDLE, '..'), { recursive: true });
  for (let waited = 0; !fresh(); waited += 250) {
    try {
      mkdirSync(lock, { recursive: false });
    } catch {
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      const { build } = await import('vite');
      await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'error' });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return BUNDLE;
}

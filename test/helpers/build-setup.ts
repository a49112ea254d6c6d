import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time under `dir`, directories included (as bin/platctl.js does). */
function newestUnder(dir: string): number {
  const entries = readdirSync(dir, { recursive: true }) as string[];
  return Math.max(statSync(dir).mtimeMs, ...entries.map((e) => statSync(join(dir, e)).mtimeMs));
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Global setup: the tests run the CLI from dist/ (test/helpers/platctl-bin.ts), so dist/ must be
 * the build of the src/ and schemas/ under test. When it is missing or older than either, or its
 * parsed api/ YAML older than api/, or its emulator checks missing, this builds it (tsc, then the
 * generated validators, the parsed YAML and the emulator's checks; about 15 s) before any test
 * starts; CI has just built it and this finds it fresh. (An api/ file edited since is still
 * parsed and its checks compiled, not served stale: only slower.)
 */
export default function setup(): void {
  const built = mtime(join(ROOT, 'dist/src/cli/bin.js'));
  const dir = join(ROOT, 'dist/src/manifests/validators');
  const validators = mtime(dir) === undefined ? undefined : newestUnder(dir);
  const parsedApi = mtime(join(ROOT, 'dist/api/parsed-yaml.json'));
  const checks = mtime(join(ROOT, 'dist/api/checks'));
  const fresh =
    built !== undefined &&
    validators !== undefined &&
    parsedApi !== undefined &&
    checks !== undefined &&
    newestUnder(join(ROOT, 'src')) <= built &&
    newestUnder(join(ROOT, 'schemas')) <= validators &&
    newestUnder(join(ROOT, 'api')) <= parsedApi;
  if (fresh) return;
  process.stdout.write('dist/ is older than src/ or schemas/: building it (npm run build:dist)\n');
  execFileSync('npm', ['run', '--silent', 'build:dist'], { cwd: ROOT, stdio: 'inherit' });
}

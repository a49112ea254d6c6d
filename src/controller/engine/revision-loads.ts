import { relative } from 'node:path';
import type { LoadPort, ManifestDiagnostic } from '../../reconcile/run.js';
import type { ControllerDiagnostic, ValidatePort } from './ports.js';

type Loaded = Awaited<ReturnType<LoadPort>>;

/** How many snapshots keep their load: the newest revision's and the last good one's. */
const KEPT = 2;

/**
 * Loads and validates each revision once (file I/O on its first use), for both the loop's
 * validation and the engine's run. A snapshot directory holds one revision's immutable copy (a
 * commit, or a directory's content hash), so every interval that reconciles it reuses the same
 * manifests. Keeps the {@link KEPT} most recently used; a failed load is not kept, so the next
 * use tries again.
 */
export class RevisionLoads {
  readonly #load: LoadPort;
  readonly #kept = new Map<string, Promise<Loaded>>();

  constructor(load: LoadPort) {
    this.#load = load;
  }

  /** The {@link LoadPort} of snapshot directories: each set of paths loaded once. */
  readonly load: LoadPort = (input) => {
    const key = JSON.stringify(input);
    const kept = this.#kept.get(key);
    if (kept) {
      // most recently used last, so the oldest is the one dropped
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const loading = this.#load(input);
    this.#kept.set(key, loading);
    loading.catch(() => this.#kept.delete(key));
    while (this.#kept.size > KEPT) {
      const oldest = this.#kept.keys().next().value as string;
      this.#kept.delete(oldest);
    }
    return loading;
  };

  /** The loop's {@link ValidatePort} on the same loads. */
  readonly validate: ValidatePort = async (dir) => {
    const r = await this.load({ paths: [dir] });
    return {
      ok: !r.diagnostics.some((d) => d.severity === 'error'),
      manifestCount: r.manifests.length,
      diagnostics: r.diagnostics.map((d) => toDiagnostic(d, dir)),
    };
  };
}

function toDiagnostic(d: ManifestDiagnostic, dir: string): ControllerDiagnostic {
  const file = d.file !== undefined ? relative(dir, d.file) || d.file : undefined;
  const at =
    file !== undefined ? [file, d.line, d.col].filter((x) => x !== undefined).join(':') : undefined;
  return { severity: d.severity, code: d.code, message: d.message, ...(at ? { at } : {}) };
}

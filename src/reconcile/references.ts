import { UnknownProjectError } from '../model/api-errors.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { ManifestDiagnostic } from './run-types.js';

/**
 * Checks the references that only the platform can answer, before anything else is read (I/O
 * through `projectId`): every project the manifests name must be visible to the API key. An
 * unknown one is an error at its `metadata.project`, once per file, listing the visible projects;
 * any other failure (the platform unreachable) is thrown. The API has no read of compute
 * profiles, cloud credentials, groups or the blueprint catalog (docs/api-assumptions.md), so
 * those are found by the write that sends them and reported at their line (see `locate.ts`).
 */
export async function checkReferences(
  manifests: readonly LoadedManifest[],
  projectId: (projectName: string) => Promise<string>,
): Promise<ManifestDiagnostic[]> {
  const firstPerFile = new Map<string, LoadedManifest>();
  for (const m of manifests) {
    const project = m.manifest.metadata.project;
    // the file without its position: a position re-parses the file, for every clean manifest
    const at = `${project}\u0000${m.file ?? m.source.file}`;
    if (project !== undefined && !firstPerFile.has(at)) firstPerFile.set(at, m);
  }
  const checks = [...firstPerFile.values()].map(async (m) => {
    try {
      await projectId(m.manifest.metadata.project!);
      return [];
    } catch (err) {
      if (!(err instanceof UnknownProjectError)) throw err;
      const { file, line, col } = m.positionOf(['metadata', 'project']);
      const diagnostic: ManifestDiagnostic = {
        severity: 'error',
        code: 'unknown-project',
        message: err.message,
        file,
        line,
        col,
        key: m.key,
      };
      return [diagnostic];
    }
  });
  return (await Promise.all(checks)).flat();
}

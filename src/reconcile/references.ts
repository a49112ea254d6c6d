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
  // the first manifest naming each project in each file, in the order they come: a set of the
  // projects seen per file (a key joining project and file, made for each of 100,000 manifests
  // and hashed, was a twentieth of a no-op plan)
  const firsts: LoadedManifest[] = [];
  const seen = new Map<string, Set<string>>();
  for (const m of manifests) {
    const project = m.manifest.metadata.project;
    if (project === undefined) continue;
    // the file without its position: a position re-parses the file, for every clean manifest
    const file = m.file ?? m.source.file;
    let projects = seen.get(file);
    if (projects === undefined) {
      projects = new Set();
      seen.set(file, projects);
    }
    if (projects.has(project)) continue;
    projects.add(project);
    firsts.push(m);
  }
  const checks = firsts.map(async (m) => {
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

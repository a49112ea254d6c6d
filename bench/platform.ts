/** The projects the emulator seeds, over which generated workspaces are spread. */
export const PROJECTS = ['default', 'platform', 'ml-research'] as const;

/**
 * The benchmarks' platform of `n` resources as YAML documents: workspaces spread over
 * {@link PROJECTS}, then one user in twenty (their password read from `$BENCH_PASSWORD`).
 */
export function platformDocuments(n: number): string[] {
  const users = Math.floor(n / 20);
  const docs: string[] = [];
  for (let i = 0; i < n - users; i++) {
    const project = PROJECTS[i % PROJECTS.length];
    docs.push(
      `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-${i}\n  project: ${project}\n`,
    );
  }
  for (let i = 0; i < users; i++) {
    docs.push(
      `apiVersion: platctl.io/v1alpha1\nkind: User\nmetadata:\n  name: user-${i}@bench.example\nspec:\n  first_name: B\n  last_name: U${i}\n  user_type: API\n  passwordFrom:\n    env: BENCH_PASSWORD\n`,
    );
  }
  return docs;
}

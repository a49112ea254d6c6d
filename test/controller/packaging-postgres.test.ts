import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const dir = new URL('../../deploy/kubernetes-postgres/', import.meta.url);

// biome-ignore lint/suspicious/noExplicitAny: a test walking arbitrary YAML
type Doc = Record<string, any>;
const read = (file: string) =>
  parseAllDocuments(readFileSync(new URL(file, dir), 'utf8')).map((d) => d.toJS() as Doc);

/** The overlay as kubectl builds it, or undefined where kubectl is not installed. */
function built(): Doc[] | undefined {
  try {
    const out = execFileSync('kubectl', ['kustomize', new URL('.', dir).pathname], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return parseAllDocuments(out).map((d) => d.toJS() as Doc);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

describe('deploy/kubernetes-postgres (overlay of deploy/kubernetes)', () => {
  const patch = read('deployment-patch.yaml')[0]!;
  const container = patch.spec.template.spec.containers[0];

  it('runs 2+ replicas on different nodes, with an update that never waits on a standby', () => {
    expect(patch.spec.replicas).toBeGreaterThanOrEqual(2);
    // only the leader is Ready: an update waiting for new pods to be Ready would wait forever
    expect(patch.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '100%', maxUnavailable: '100%' },
    });
    // and no PDB: one counting Ready pods would never let the leader's node drain
    expect(existsSync(new URL('pdb.yaml', dir))).toBe(false);
    expect(patch.spec.template.spec.topologySpreadConstraints).toEqual([
      expect.objectContaining({
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
      }),
    ]);
  });

  it('takes the database URL from a Secret file, never from the command line', () => {
    expect(container.args.some((a: string) => a.startsWith('--state'))).toBe(false);
    const env = container.env.find((e: Doc) => e.name === 'PLATCTL_STATE_URL_FILE');
    const mount = container.volumeMounts.find((m: Doc) => env.value.startsWith(`${m.mountPath}/`));
    const volume = patch.spec.template.spec.volumes.find((v: Doc) => v.name === mount.name);
    const secret = read('state-secret.yaml')[0]!;
    expect(volume.secret.secretName).toBe(secret.metadata.name);
    expect(secret.stringData.url).toMatch(/^postgres:\/\/[^:]+:REPLACE-ME-fake-/);
  });

  const docs = built();
  it.skipIf(!docs)('builds with kubectl: no volume claim, only the leader Ready (/readyz)', () => {
    if (!docs) throw new Error('unreachable: skipped without kubectl');
    expect(docs.some((d) => d.kind === 'PersistentVolumeClaim')).toBe(false);
    expect(docs.some((d) => d.kind === 'PodDisruptionBudget')).toBe(false);
    const dep = docs.find((d) => d.kind === 'Deployment')!;
    const pod = dep.spec.template.spec;
    expect(pod.volumes.every((v: Doc) => !v.persistentVolumeClaim)).toBe(true);
    expect(pod.containers[0].readinessProbe.httpGet.path).toBe('/readyz');
    expect(pod.containers[0].livenessProbe.httpGet.path).toBe('/healthz');
    expect(dep.spec.replicas).toBe(patch.spec.replicas);
  });
});

describe('deploy/kubernetes-postgres-sharded (overlay of the above)', () => {
  const sharded = (() => {
    try {
      const out = execFileSync(
        'kubectl',
        ['kustomize', new URL('../kubernetes-postgres-sharded/', dir).pathname],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      return parseAllDocuments(out).map((d) => d.toJS() as Doc);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  })();
  it.skipIf(!sharded)('adds --shard-by project and one shared --rps to every replica', () => {
    if (!sharded) throw new Error('unreachable: skipped without kubectl');
    const dep = sharded.find((d) => d.kind === 'Deployment')!;
    const args: string[] = dep.spec.template.spec.containers[0].args;
    expect(args).toContain('--shard-by=project');
    expect(args.filter((a) => a.startsWith('--rps='))).toHaveLength(1);
    expect(dep.spec.replicas).toBeGreaterThanOrEqual(2);
    // every joined replica is Ready there: one pod at a time, under a PDB
    expect(dep.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    const pdb = sharded.find((d) => d.kind === 'PodDisruptionBudget')!;
    expect(pdb.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(pdb.spec.minAvailable).toBeLessThan(dep.spec.replicas);
  });
});

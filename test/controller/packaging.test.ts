import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const root = new URL('../../', import.meta.url);
const k8sDir = new URL('deploy/kubernetes/', root);

// biome-ignore lint/suspicious/noExplicitAny: a test walking arbitrary YAML
type Doc = Record<string, any>;

function k8sDocs(): Doc[] {
  return readdirSync(k8sDir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) =>
      parseAllDocuments(readFileSync(new URL(f, k8sDir), 'utf8')).map((d) => d.toJS() as Doc),
    );
}

describe('deploy/kubernetes', () => {
  const docs = k8sDocs();
  const byKind = (kind: string) => docs.find((d) => d.kind === kind) as Doc;

  it('lists every manifest in the kustomization', () => {
    const k = parseAllDocuments(
      readFileSync(new URL('kustomization.yaml', k8sDir), 'utf8'),
    )[0]?.toJS() as Doc;
    const files = readdirSync(k8sDir).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
    );
    expect([...k.resources].sort()).toEqual(files.sort());
  });

  it('runs the controller non-root on a read-only root filesystem, with probes on /healthz and /readyz', () => {
    const dep = byKind('Deployment');
    const pod = dep.spec.template.spec;
    const c = pod.containers[0];
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.args[0]).toBe('controller');
    expect(pod.automountServiceAccountToken).toBe(false);
    const mounts = c.volumeMounts.map((m: Doc) => m.name);
    expect(mounts).toEqual(expect.arrayContaining(['state', 'secrets']));
    expect(pod.volumes.find((v: Doc) => v.name === 'state').persistentVolumeClaim.claimName).toBe(
      byKind('PersistentVolumeClaim').metadata.name,
    );
    // secrets are files, never arguments
    expect(c.args.join(' ')).not.toMatch(/REPLACE-ME|token=|:\/\/[^/]*@/);
  });

  it('ships only obviously fake secret values', () => {
    const s = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'platctl-controller')!;
    expect(Object.keys(s.stringData).sort()).toEqual([
      'api-key',
      'git-credentials',
      'webhook-secret',
    ]);
    const secrets = docs.filter((d) => d.kind === 'Secret');
    expect(secrets.map((d) => d.metadata.name).sort()).toEqual([
      'platctl-control-token',
      'platctl-controller',
    ]);
    for (const d of secrets)
      for (const v of Object.values(d.stringData)) expect(v).toMatch(/^REPLACE-ME-fake-/);
  });

  it("routes webhooks and the control API to the leader only, and scrapes every replica's metrics", () => {
    const services = docs.filter((d) => d.kind === 'Service');
    const leader = services.find((d) => d.metadata.name === 'platctl-controller')!;
    const metrics = services.find((d) => d.metadata.name === 'platctl-controller-metrics')!;
    for (const svc of [leader, metrics]) {
      expect(svc.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http' }]);
    }
    // the leader's Service lists Ready pods only, and a pod is Ready only while it leads
    expect(leader.spec.publishNotReadyAddresses).toBeUndefined();
    expect(byKind('Deployment').spec.template.spec.containers[0].readinessProbe.httpGet.path).toBe(
      '/readyz',
    );
    // standbys are scraped too
    expect(metrics.spec.publishNotReadyAddresses).toBe(true);
    expect(metrics.metadata.annotations['prometheus.io/scrape']).toBe('true');
    expect(leader.metadata.annotations).toBeUndefined();
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(new URL('Dockerfile', root), 'utf8');
  it('is multi-stage on a Node LTS slim image, non-root, with git, and platctl as entrypoint', () => {
    expect(text.match(/^FROM /gm)?.length).toBe(2);
    expect(text).toMatch(/ARG NODE_IMAGE=node:(20|22)-[a-z]+-slim/);
    expect(text).toMatch(/npm ci --omit=dev/);
    expect(text).toMatch(/install -y --no-install-recommends git openssh-client/);
    expect(text).toMatch(/^USER 1000:1000$/m);
    expect(text).toMatch(/^ENTRYPOINT \["platctl"\]$/m);
  });
  it('is fed by a .dockerignore that keeps git history, node_modules and state out', () => {
    const ignore = readFileSync(new URL('.dockerignore', root), 'utf8').split('\n');
    expect(ignore).toEqual(
      expect.arrayContaining(['.git', 'node_modules', 'dist', '.platctl', '*.db']),
    );
  });
});

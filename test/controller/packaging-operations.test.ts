import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseDuration } from '../../src/controller/duration.js';
import { createControllerServer } from '../../src/controller/http/server.js';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';
import { initialStatus } from '../../src/controller/status/status.js';
import { memoryLogger } from './helpers/fakes.js';

/**
 * deploy/ against the controller it runs: the probes, ports and files the manifests name exist,
 * the grace period leaves the shutdown timeout room, the NetworkPolicy lets through what the
 * controller needs, and the ServiceMonitor scrapes the Service that exists.
 */
// biome-ignore lint/suspicious/noExplicitAny: a test walking arbitrary YAML
type Doc = Record<string, any>;
const deploy = new URL('../../deploy/', import.meta.url);

function rawDocs(dir: string): Doc[] {
  const url = new URL(`${dir}/`, deploy);
  return readdirSync(url)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(readFileSync(new URL(f, url), 'utf8')).map((d) => d.toJS()));
}

/** The overlay as kubectl builds it; undefined where kubectl is not installed. */
function built(dir: string): Doc[] | undefined {
  try {
    const out = execFileSync('kubectl', ['kustomize', new URL(dir, deploy).pathname], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return parseAllDocuments(out).map((d) => d.toJS() as Doc);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const base = rawDocs('kubernetes');
const monitoring = rawDocs('kubernetes-monitoring');
const one = (docs: Doc[], kind: string) => docs.find((d) => d.kind === kind) as Doc;
const pod = one(base, 'Deployment').spec.template.spec;
const container = pod.containers[0];
const arg = (args: string[], name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** Status answered by the controller's own server for `path`, healthy or with a stuck loop. */
async function serve(path: string, stuck = false): Promise<number> {
  const server = createControllerServer({
    status: initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true }),
    metrics: new ControllerMetrics(),
    logger: memoryLogger().logger,
    ready: () => true,
    trigger: () => {},
    health: () =>
      stuck
        ? { ok: false, heartbeatAgeMs: 400_000, reason: 'stuck' }
        : { ok: true, heartbeatAgeMs: 0 },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
  } finally {
    server.close();
  }
}

describe('deploy/kubernetes operations', () => {
  it('probes paths the server serves; liveness fails when the loop watchdog does', async () => {
    expect(await serve(container.livenessProbe.httpGet.path)).toBe(200);
    expect(await serve(container.livenessProbe.httpGet.path, true)).toBe(503);
    expect(await serve(container.readinessProbe.httpGet.path)).toBe(200);
    expect(container.livenessProbe.httpGet.port).toBe(container.ports[0].name);
    // the watchdog's threshold is set, and longer than one probe period
    const threshold = parseDuration(arg(container.args, 'liveness-threshold') ?? '', 'threshold');
    expect(threshold).toBeGreaterThan(container.livenessProbe.periodSeconds * 1000);
  });

  it('gives the shutdown timeout room inside the termination grace period', () => {
    const timeout = parseDuration(arg(container.args, 'shutdown-timeout') ?? '', 'timeout');
    // recording the cut run, releasing the lease and exiting need some seconds after the cut
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(timeout + 10_000);
  });

  it('mounts every Secret it names, and every credential file it passes is in one', () => {
    const secrets = new Map(
      base.filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, d.stringData]),
    );
    for (const v of pod.volumes.filter((v: Doc) => v.secret)) {
      expect(secrets.has(v.secret.secretName), v.secret.secretName).toBe(true);
    }
    const files = container.args
      .filter((a: string) => /^--[a-z-]+-file=/.test(a))
      .map((a: string) => a.split('=')[1]);
    expect(files).toHaveLength(4); // API key, git credentials, webhook secret, control token
    for (const file of files) {
      const mount = container.volumeMounts.find((m: Doc) => file.startsWith(`${m.mountPath}/`));
      const volume = pod.volumes.find((v: Doc) => v.name === mount?.name);
      const key = file.slice(mount.mountPath.length + 1);
      expect(Object.keys(secrets.get(volume?.secret?.secretName) ?? {}), file).toContain(key);
    }
  });

  it('lets in only the http port, and out only DNS, HTTPS and SSH (PostgreSQL in its overlay)', () => {
    const np = one(base, 'NetworkPolicy');
    expect(np.spec.podSelector.matchLabels).toEqual(
      one(base, 'Deployment').spec.selector.matchLabels,
    );
    expect(np.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    const names = container.ports.map((p: Doc) => p.name);
    for (const rule of np.spec.ingress) {
      for (const p of rule.ports) expect(names).toContain(p.port);
    }
    const out = (docs: Doc[]) =>
      one(docs, 'NetworkPolicy')
        .spec.egress.flatMap((r: Doc) => r.ports)
        .map((p: Doc) => `${p.port}/${p.protocol}`)
        .sort();
    expect(out(base)).toEqual(['22/TCP', '443/TCP', '53/TCP', '53/UDP']);
    const pg = built('kubernetes-postgres/');
    if (pg) expect(out(pg)).toEqual(['22/TCP', '443/TCP', '53/TCP', '53/UDP', '5432/TCP']);
  });

  it('has a ServiceMonitor scraping /metrics of every replica through one Service', async () => {
    const sm = one(monitoring, 'ServiceMonitor');
    expect(sm.apiVersion).toBe('monitoring.coreos.com/v1');
    const k = parseAllDocuments(
      readFileSync(new URL('kubernetes/kustomization.yaml', deploy), 'utf8'),
    )[0]?.toJS() as Doc;
    // the labels a Service has once built: its own and the kustomization's
    const labelled = (d: Doc) => ({ ...d.metadata.labels, ...k.labels[0].pairs });
    const selects = (d: Doc) =>
      Object.entries(sm.spec.selector.matchLabels).every(([n, v]) => labelled(d)[n] === v);
    const scraped = base.filter((d) => d.kind === 'Service' && selects(d));
    // one Service: two would scrape the leader twice (the leader gauge summing to 2)
    expect(scraped.map((d) => d.metadata.name)).toEqual(['platctl-controller-metrics']);
    const svc = scraped[0]!;
    expect(svc.spec.publishNotReadyAddresses).toBe(true);
    expect(svc.spec.ports.map((p: Doc) => p.name)).toContain(sm.spec.endpoints[0].port);
    expect(await serve(sm.spec.endpoints[0].path)).toBe(200);
  });

  it('keeps the base to kinds every cluster knows: the Prometheus Operator CRDs are opt-in', () => {
    const builtIn = /^(v1|apps\/v1|policy\/v1|networking\.k8s\.io\/v1)$/;
    for (const d of base) expect(d.apiVersion, `${d.kind} ${d.metadata.name}`).toMatch(builtIn);
    const listed = (dir: string): string[] =>
      parseAllDocuments(readFileSync(new URL(`${dir}/kustomization.yaml`, deploy), 'utf8'))
        .map((d) => d.toJS() as Doc)
        .flatMap((d) => d.resources as string[]);
    expect(listed('kubernetes').sort()).toEqual(
      readdirSync(new URL('kubernetes/', deploy))
        .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
        .sort(),
    );
    expect(listed('kubernetes-monitoring').sort()).toEqual([
      'prometheusrule.yaml',
      'servicemonitor.yaml',
    ]);
  });

  it('alerts (PrometheusRule) only on metrics the controller serves, each with a summary', async () => {
    const rule = one(monitoring, 'PrometheusRule');
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    const served = new Set(
      (await new ControllerMetrics().registry.getMetricsAsJSON()).map((m) => m.name),
    );
    const rules: Doc[] = rule.spec.groups.flatMap((g: Doc) => g.rules);
    expect(rules.length).toBeGreaterThan(10);
    for (const r of rules) {
      expect(r.annotations.summary, r.alert).toBeTruthy();
      for (const [name] of String(r.expr).matchAll(/\b(platctl|process|nodejs)_[a-z0-9_]+/g)) {
        expect(served, `${r.alert}: ${name}`).toContain(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    // the loop watchdog's alert matches the threshold the Deployment sets
    const stuck = rules.find((r) => r.alert === 'PlatctlLoopStuck');
    const threshold = parseDuration(arg(container.args, 'liveness-threshold') ?? '', 'threshold');
    expect(String(stuck?.expr)).toContain(`> ${threshold / 1000}`);
  });

  it("caps V8's old space well inside the memory limit, in the base and both overlays", () => {
    // Without a cap V8 lets the heap grow with each run's garbage far past the live set, towards
    // the container's limit (docs/operations.md, bench/README.md).
    const flag = (c: Doc, name: string) => {
      const options = c.env?.find((e: Doc) => e.name === 'NODE_OPTIONS')?.value ?? '';
      return Number(new RegExp(`--${name}=(\\d+)`).exec(options)?.[1] ?? Number.NaN);
    };
    const capOf = (c: Doc) => flag(c, 'max-old-space-size');
    const mib = (q: string) => Number(/^(\d+)Mi$/.exec(q)?.[1] ?? Number.NaN);
    const cap = capOf(container);
    const limit = mib(container.resources.limits.memory);
    expect(cap).toBeGreaterThan(0);
    // the rest of the process (young generation, code, SQLite, sockets) needs room beside it
    expect(cap).toBeLessThanOrEqual(limit * 0.6);
    // V8's default young generation grows to two 16 MB semi-spaces after the first busy run and
    // keeps them committed while idle: at most 2 MB each (docs/operations.md, "Memory")
    expect(flag(container, 'max-semi-space-size')).toBeLessThanOrEqual(2);
    const arenas = (c: Doc) => c.env?.find((e: Doc) => e.name === 'MALLOC_ARENA_MAX')?.value;
    expect(arenas(container)).toBe('2');
    // the loop collects after each run only where node exposes gc (src/controller/loop/idle-gc.ts)
    const options = (c: Doc) => c.env?.find((e: Doc) => e.name === 'NODE_OPTIONS')?.value ?? '';
    expect(options(container).split(' ')).toContain('--expose-gc');
    for (const dir of ['kubernetes-postgres/', 'kubernetes-postgres-sharded/']) {
      const docs = built(dir);
      if (!docs) return;
      const c = one(docs, 'Deployment').spec.template.spec.containers[0];
      expect(capOf(c), dir).toBe(cap);
      expect(flag(c, 'max-semi-space-size'), dir).toBe(flag(container, 'max-semi-space-size'));
      expect(arenas(c), dir).toBe('2');
      expect(options(c).split(' '), dir).toContain('--expose-gc');
      expect(mib(c.resources.limits.memory), dir).toBe(limit);
    }
  });

  it('the PostgreSQL overlays keep the control token, shutdown timeout and watchdog flags', () => {
    for (const dir of ['kubernetes-postgres/', 'kubernetes-postgres-sharded/']) {
      const docs = built(dir);
      if (!docs) return; // no kubectl: the base's checks above still ran
      const c = one(docs, 'Deployment').spec.template.spec.containers[0];
      for (const flag of ['control-token-file', 'shutdown-timeout', 'liveness-threshold']) {
        expect(arg(c.args, flag), `${dir} --${flag}`).toBe(arg(container.args, flag));
      }
    }
  });
});

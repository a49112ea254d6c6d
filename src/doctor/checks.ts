import {
  type ApiFamily,
  DIALECT_NAMES,
  DIALECTS,
  type Dialect,
  type DialectName,
} from '../core/dialect.js';
import type { Answer, Probe } from './probe.js';

/** One line of the report. */
interface CheckResult {
  readonly check: string;
  readonly status: 'ok' | 'warn' | 'fail' | 'skip';
  readonly detail: string;
  /** What to do about a `warn` or `fail`. */
  readonly fix?: string;
}

export interface DoctorReport {
  /** The dialect the platform's answers fit, when one does. */
  readonly recommended?: DialectName;
  readonly checks: readonly CheckResult[];
}

export interface DoctorOptions {
  /** The dialect the connection is configured with (flag, variable or profile). */
  readonly configured: DialectName;
  /** Local clock, epoch ms. */
  readonly now: () => number;
  readonly groups: { readonly infra: string; readonly paas: string; readonly billing: string };
}

const TLS = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/;
const said = (a: Answer) => (a.ok ? `${a.status}` : a.code);

/**
 * First contact with a platform (I/O through `probe`, reads only but one deliberately invalid
 * create that no platform accepts): reachability and TLS, which header takes the key, which API
 * groups and reads answer, clock skew, rate-limit headers, whether the key may write. Each line
 * says what to do when it fails; the report recommends the dialect the answers fit.
 */
export async function runDoctor(probe: Probe, o: DoctorOptions): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const projects = '/auth/v1/projects/';
  const bare = await probe('GET', projects);
  if (!bare.ok) {
    const tls = TLS.test(bare.code);
    checks.push({
      check: tls ? 'TLS' : 'reachable',
      status: 'fail',
      detail: `no answer: ${bare.code}`,
      fix: tls
        ? 'the certificate is not trusted: give its CA in NODE_EXTRA_CA_CERTS, or fix the URL'
        : 'check --base-url (scheme, host, port), DNS and any proxy (HTTPS_PROXY)',
    });
    return { checks };
  }
  checks.push({
    check: 'reachable',
    status: 'ok',
    detail: `answered ${bare.status} in ${bare.ms} ms`,
  });
  // auth: which dialect's identity header takes the key
  const tried = await Promise.all(
    DIALECT_NAMES.map(async (name) => {
      const header = DIALECTS[name].authHeader.identity;
      return { name, header, answer: await probe('GET', projects, { header }) };
    }),
  );
  const accepted = tried.filter((t) => t.answer.ok && t.answer.status === 200);
  const headerLines = tried.map((t) => `${t.header} ${said(t.answer)}`).join(', ');
  if (accepted.length === 0) {
    checks.push({
      check: 'auth header',
      status: 'fail',
      detail: `no header takes the key (${headerLines})`,
      fix: 'the key is refused: check PLATCTL_API_KEY / --api-key-file, and that the key is active',
    });
    return { checks };
  }
  checks.push({ check: 'auth header', status: 'ok', detail: headerLines });
  const first = accepted[0]!;
  const project = firstProject(first.answer);
  const fits = await Promise.all(
    accepted.map(async (a) => ({ a, reads: await reads(probe, DIALECTS[a.name], project, o) })),
  );
  const best = fits.find((f) => f.reads.every((r) => r.status !== 'fail')) ?? fits[0]!;
  checks.push(...best.reads);
  const dialect = DIALECTS[best.a.name];
  checks.push(clockSkew(first.answer, o.now()));
  checks.push(rateLimits(first.answer));
  if (project) checks.push(await canWrite(probe, dialect, project, o));
  checks.push(
    best.a.name === o.configured
      ? { check: 'dialect', status: 'ok', detail: `${best.a.name}: ${dialect.summary}` }
      : {
          check: 'dialect',
          status: 'warn',
          detail: `configured ${o.configured}, the platform answers as ${best.a.name}`,
          fix: `pass --dialect ${best.a.name}, set PLATCTL_DIALECT=${best.a.name}, or add dialect: ${best.a.name} to the profile`,
        },
  );
  return { recommended: best.a.name, checks };
}

function firstProject(a: Answer): string | undefined {
  const items = a.ok ? (a.body as { items?: { name?: unknown }[] } | null)?.items : undefined;
  const name = items?.find((p) => typeof p.name === 'string')?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The reads a run needs, each with its family's header. */
async function reads(
  probe: Probe,
  d: Dialect,
  project: string | undefined,
  o: DoctorOptions,
): Promise<CheckResult[]> {
  if (!project) {
    return [{ check: 'reads', status: 'skip', detail: 'the key sees no project: nothing to read' }];
  }
  const p = encodeURIComponent(project);
  const day = 86_400_000;
  const range = {
    range_from: new Date(o.now() - day).toISOString(),
    range_to: new Date(o.now()).toISOString(),
  };
  const paas = `/apis/${o.groups.paas}/v1/projects/${p}`;
  const list: { check: string; family: ApiFamily; path: string; query?: Record<string, string> }[] =
    [
      {
        check: `read clusters (${o.groups.infra})`,
        family: 'infra',
        path: `/apis/${o.groups.infra}/v3/projects/${p}/clusters`,
      },
      { check: `read workspaces (${o.groups.paas})`, family: 'paas', path: `${paas}/workspaces` },
      { check: 'read VPC services', family: 'paas', path: `${paas}/services` },
      {
        check: `read billing (${o.groups.billing})`,
        family: 'billing',
        path: `/apis/${o.groups.billing}/v1/metrics/partner/profile/kind/compute/usage`,
        query: range,
      },
      ...(d.profileReads
        ? [
            {
              check: 'read compute profiles',
              family: 'paas' as const,
              path: `${paas}/computeprofiles`,
            },
          ]
        : []),
    ];
  return Promise.all(
    list.map(async (r): Promise<CheckResult> => {
      const header = d.authHeader[r.family];
      const a = await probe('GET', r.path, { header, ...(r.query ? { query: r.query } : {}) });
      if (a.ok && a.status === 200)
        return { check: r.check, status: 'ok', detail: `200 with ${header}` };
      const fix =
        a.ok && a.status === 404
          ? 'the group or path differs here: set groups: or paths: in the profile (docs/api-assumptions.md)'
          : a.ok && a.status === 403
            ? `the key may not read this in project ${project}: grant it a role there`
            : 'see the platform answer above; docs/dialects.md lists what each dialect expects';
      return {
        check: r.check,
        status: 'fail',
        detail: `${said(a)} with ${header} (project ${project})`,
        fix,
      };
    }),
  );
}

function clockSkew(a: Answer, localMs: number): CheckResult {
  const date = a.ok ? Date.parse(a.headers.date ?? '') : Number.NaN;
  if (Number.isNaN(date)) {
    return { check: 'clock skew', status: 'skip', detail: 'the platform sends no Date header' };
  }
  const skew = Math.round((localMs - date) / 1000);
  const detail = `${skew >= 0 ? '+' : ''}${skew} s against the platform's Date header`;
  if (Math.abs(skew) <= 5) return { check: 'clock skew', status: 'ok', detail };
  return {
    check: 'clock skew',
    status: Math.abs(skew) <= 60 ? 'warn' : 'fail',
    detail,
    fix: 'sync this machine with NTP: usage windows and lease timing read the clock',
  };
}

function rateLimits(a: Answer): CheckResult {
  const h = a.ok ? a.headers : {};
  const name = ['ratelimit-limit', 'x-ratelimit-limit', 'ratelimit-policy', 'ratelimit'].find(
    (n) => n in h,
  );
  if (name) return { check: 'rate limits', status: 'ok', detail: `${name}: ${h[name]}` };
  return {
    check: 'rate limits',
    status: 'warn',
    detail: 'no rate-limit headers: platctl paces itself and backs off on 429',
    fix: 'set --rps to what the platform allows if you know it',
  };
}

/** A create no platform accepts (an empty name): 400 proves the key may write, 403 that it may not. */
async function canWrite(
  probe: Probe,
  d: Dialect,
  project: string,
  o: DoctorOptions,
): Promise<CheckResult> {
  const path = `/apis/${o.groups.paas}/v1/projects/${encodeURIComponent(project)}/workspaces`;
  const body = {
    apiVersion: `${o.groups.paas}/v1`,
    kind: 'Workspace',
    metadata: { name: '', project },
  };
  const a = await probe('POST', path, {
    header: d.authHeader.paas,
    body,
    query: { 'fail-on-exists': 'true' },
  });
  if (a.ok && (a.status === 400 || a.status === 422)) {
    return {
      check: 'can write',
      status: 'ok',
      detail: `project ${project}: an invalid create was refused with ${a.status}, as meant (nothing written)`,
    };
  }
  if (a.ok && a.status === 403) {
    return {
      check: 'can write',
      status: 'fail',
      detail: `project ${project}: 403`,
      fix: 'the key is read-only here: plan works, apply will not; use a key with a write role',
    };
  }
  return {
    check: 'can write',
    status: 'warn',
    detail: `project ${project}: unexpected ${said(a)} to an invalid create`,
    fix: 'check the platform: it should refuse a workspace with an empty name',
  };
}

/**
 * Dialects: how one platform's API differs from another's, as data (docs/dialects.md). The spec
 * platctl was built from (`spec`) and the vendor's API as its public clients and docs show it
 * (`rafay`) agree on the resources and paths, and differ in the details below. Every difference
 * the engine, the providers and the emulator act on is a field here, never a code path chosen by
 * a dialect's name. Both sides read this one table: the client (what to send) and the emulator
 * (what to accept and answer), so it lives in `core`. Pure data and pure functions.
 */

import { PlatctlError } from './errors.js';

/** The API families: the auth header and the create semantics are chosen per family. */
export type ApiFamily = 'identity' | 'scheduler' | 'infra' | 'paas' | 'billing';

export const API_FAMILIES: readonly ApiFamily[] = [
  'identity',
  'scheduler',
  'infra',
  'paas',
  'billing',
];

export type DialectName = 'spec' | 'rafay';

export const DIALECT_NAMES: readonly DialectName[] = ['spec', 'rafay'];

/** The values a dialect accepts in the cluster fields whose enums differ. */
interface ClusterEnums {
  /** `spec.type` */
  readonly type: readonly string[];
  /** `spec.config.location.type` */
  readonly locationType: readonly string[];
  /** `spec.config.network.networkAccess.privacy` */
  readonly privacy: readonly string[];
  /** `spec.config.nodePools[].upgradeSettings.strategy` */
  readonly upgradeStrategy: readonly string[];
}

export interface Dialect {
  readonly name: DialectName;
  /** One line for `--help`, `doctor` and docs. */
  readonly summary: string;
  /** The header each family's calls carry the key in. */
  readonly authHeader: Readonly<Record<ApiFamily, string>>;
  /** How cluster versions (`controlPlaneVersion`, `nodeVersion`) go on the wire. */
  readonly versionType: 'number' | 'string';
  readonly clusterEnums: ClusterEnums;
  /**
   * Where a cluster's phase is: `status.status` (`spec`), or `status.commonStatus.conditionType`
   * with `status.conditions` beside it (`rafay`).
   */
  readonly clusterStatus: 'status' | 'commonStatus';
  /**
   * A cluster create: `201` for a new cluster, `200` when it updated an existing one (`spec`); or
   * an apply that answers `200` either way (`rafay`), so ownership is proven by a read first.
   */
  readonly clusterCreate: 'status-code' | 'apply';
  /**
   * Service creates are upserts unless `?fail-on-exists=true` is sent (`rafay`), as workspace and
   * instance creates are in both; the spec's service create answers `409` for an existing name.
   */
  readonly failOnExists: boolean;
  /** Instances listed per project (`spec`) or only per workspace (`rafay`). */
  readonly instanceList: 'project' | 'workspace';
  /** Compute and service profiles can be read (`…/computeprofiles[/{name}]`). */
  readonly profileReads: boolean;
  /** The instance fields beyond the spec's that this dialect's bodies carry. */
  readonly instanceExtras: readonly ('datacenter' | 'storageDetails' | 'variableOptions')[];
  /** `computeType` values of an instance's spec this dialect accepts. */
  readonly computeTypes: readonly string[];
  /** Billing: the usage calls need `range_from`/`range_to`. */
  readonly usageRangeRequired: boolean;
  /**
   * Usage rows carry the project and organization names, the instance's creation time, the raw
   * hours as a number and the row's own start and end (`rafay`); the spec's rows carry ids only.
   */
  readonly usageRowExtras: boolean;
  /** A cluster delete answers `202` with a message (`spec`) or `200` with no body (`rafay`). */
  readonly clusterDeleteStatus: 200 | 202;
}

const SPEC_ENUMS: ClusterEnums = {
  type: ['Gke'],
  locationType: ['zonal'],
  privacy: ['public'],
  upgradeStrategy: ['BLUE_GREEN'],
};

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  spec: {
    name: 'spec',
    summary: 'the API specification platctl was built from (the default)',
    authHeader: {
      identity: 'X-SERVICE-API-KEYID',
      scheduler: 'X-SERVICE-API-KEYID',
      infra: 'X-API-KEY',
      paas: 'X-SERVICE-API-KEYID',
      billing: 'X-SERVICE-API-KEYID',
    },
    versionType: 'number',
    clusterEnums: SPEC_ENUMS,
    clusterStatus: 'status',
    clusterCreate: 'status-code',
    failOnExists: false,
    instanceList: 'project',
    profileReads: false,
    instanceExtras: [],
    computeTypes: ['baremetal', 'k8s'],
    usageRangeRequired: false,
    usageRowExtras: false,
    clusterDeleteStatus: 202,
  },
  rafay: {
    name: 'rafay',
    summary: "the vendor's API as its public clients and docs show it",
    authHeader: {
      identity: 'X-RAFAY-API-KEYID',
      scheduler: 'X-RAFAY-API-KEYID',
      infra: 'X-RAFAY-API-KEYID',
      paas: 'x-api-key',
      billing: 'x-api-key',
    },
    versionType: 'string',
    clusterEnums: {
      type: ['Gke', 'gke'],
      locationType: ['zonal', 'regional'],
      privacy: ['public', 'private'],
      upgradeStrategy: ['BLUE_GREEN', 'SURGE'],
    },
    clusterStatus: 'commonStatus',
    clusterCreate: 'apply',
    failOnExists: true,
    instanceList: 'workspace',
    profileReads: true,
    instanceExtras: ['datacenter', 'storageDetails', 'variableOptions'],
    computeTypes: ['baremetal', 'k8s', 'vm'],
    usageRangeRequired: true,
    usageRowExtras: true,
    clusterDeleteStatus: 200,
  },
};

/**
 * The default dialect of a client or an emulator not told one: `PLATCTL_DIALECT`, else `spec`.
 * One variable sets both sides, so a CI job can run everything against either dialect. Throws a
 * `config` error naming the variable for an unknown name.
 */
export function defaultDialect(
  env: Readonly<Record<string, string | undefined>> = process.env,
): DialectName {
  const value = env.PLATCTL_DIALECT;
  if (value === undefined || value === '') return 'spec';
  if (isDialectName(value)) return value;
  throw new PlatctlError(
    'config',
    `PLATCTL_DIALECT: unknown dialect ${JSON.stringify(value)} (known: ${DIALECT_NAMES.join(', ')})`,
  );
}

/** Whether `name` is a dialect's name. Pure. */
export function isDialectName(name: unknown): name is DialectName {
  return typeof name === 'string' && (DIALECT_NAMES as readonly string[]).includes(name);
}

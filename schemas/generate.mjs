// Generates the JSON Schemas in this folder. The JSON files are what platctl and editors read;
// this script is how they are kept consistent (shared metadata, variable tables). After editing:
//   node schemas/generate.mjs          # rewrite the files
//   node schemas/generate.mjs --check  # exit 1 when a file differs (the tests run this)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const OUT = fileURLToPath(new URL('./', import.meta.url));
const KINDS = ['User','Cluster','Service','Workspace','ComputeInstance','ProjectAssignment','BlueprintVersion','BlueprintPublish','ClusterControllers','Policy','PowerSchedule','ChangeWindow'];
// platctl's own governance kinds: checked at plan, never sent, never a dependency
const GOVERNANCE = ['Policy', 'PowerSchedule', 'ChangeWindow'];
const str = (extra = {}) => ({ type: 'string', ...extra });
// The platform's own name rule (api/fragments/paas.yaml PaasName); clusters are DNS labels.
const name = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$', errorMessage: 'must be a name of letters, digits, ".", "_" or "-" that starts with a letter or digit (at most 63 characters)' };
const dnsLabel = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$', errorMessage: 'must be a DNS label: lowercase letters, digits and "-", starting and ending with a letter or digit (at most 63 characters)' };
const trueFalse = (cap) => ({ type: 'string', enum: cap ? ['True', 'False', 'true', 'false'] : ['true', 'false'] });
const annotations = (power) => ({
  type: 'object',
  description: 'Free-form annotations; platctl reads the platctl.io/ ones.',
  additionalProperties: { type: 'string' },
  properties: {
    'platctl.io/prune': { type: 'string', enum: ['disabled', 'enabled'], description: '`disabled` protects the resource from pruning.' },
    ...(power ? {
      'platctl.io/power-state': { type: 'string', enum: ['on', 'off'], description: 'Desired power state (default on).' },
      'platctl.io/power-reset': { type: 'string', minLength: 1, description: 'A token (a timestamp, say): each new value performs one Power reset (forced reboot) of a running instance.' },
      'platctl.io/power-cycle': { type: 'string', minLength: 1, description: 'A token: each new value performs one Power cycle of a running instance.' },
      'platctl.io/deploy': { type: 'string', enum: ['true', 'false'], description: '"false": create (and update) the instance but do not publish it (default true).' },
      'platctl.io/keep-on-until': { type: 'string', format: 'date-time', errorMessage: 'must be an RFC 3339 time with its offset, for example 2026-11-26T22:00:00+01:00', description: 'A PowerSchedule exception: the instance stays on until this RFC 3339 time, whatever its schedule says.' },
    } : {}),
  },
});
const dependsOn = {
  type: 'array',
  description: 'Manifests that must be applied before this one (ordering the engine cannot infer).',
  items: {
    type: 'object', additionalProperties: false, required: ['kind', 'name'],
    properties: { kind: { type: 'string', enum: KINDS.filter((k) => !GOVERNANCE.includes(k)) }, name: str({ minLength: 1 }), project: str({ minLength: 1 }), workspace: str({ minLength: 1 }) },
  },
};
// Key/value labels, as Kubernetes writes them: sent, stored and compared on every API kind
// (docs/api-assumptions.md, "Labels").
const labels = {
  type: 'object', maxProperties: 64,
  description: 'Labels of the resource on the platform (key: an optional DNS prefix and a name; value: up to 63 characters).',
  propertyNames: { pattern: '^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$' },
  additionalProperties: { type: 'string', maxLength: 63 },
};
function metadata({ project = true, workspace = false, userName = false, displayName = false, power = false, cluster = false, labelled = false } = {}) {
  const props = {
    name: userName ? { type: 'string', format: 'email', description: 'The username: an e-mail address.' } : cluster ? dnsLabel : name,
    description: str(),
    ...(displayName ? { displayName: str() } : {}),
    ...(labelled ? { labels } : {}),
    ...(project ? { project: { ...name, description: 'Project name (projects are created in the console, not by platctl).' } } : {}),
    ...(workspace ? { workspace: { ...name, description: 'Workspace name.' } } : {}),
    dependsOn,
    annotations: annotations(power),
  };
  return { type: 'object', additionalProperties: false, required: ['name', ...(project ? ['project'] : []), ...(workspace ? ['workspace'] : [])], properties: props };
}
function schema(kind, file, description, apiVersion, meta, spec, specRequired = true) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://platctl.io/schemas/${file}`,
    title: `platctl ${kind}`,
    description,
    type: 'object',
    additionalProperties: false,
    required: ['apiVersion', 'kind', 'metadata', ...(specRequired ? ['spec'] : [])],
    properties: { apiVersion, kind: { const: kind }, metadata: meta, spec },
  };
}
const platctlApi = { const: 'platctl.io/v1alpha1' };
const apiGroup = (v) => ({ type: 'string', pattern: `^[a-z0-9]([a-z0-9.-]*[a-z0-9])?/${v}$`, errorMessage: `must be <group>/${v}` , description: v === 'v3' ? 'infra.k8smgmt.io/v3 (or the configured infra group)' : 'paas.envmgmt.io/v1 (or the configured paas group)' });
const obj = (properties, required = [], extra = {}) => ({ type: 'object', additionalProperties: false, required, properties, ...extra });
const varRule = (n, value, extra = {}) => ({ if: { properties: { name: { const: n } }, required: ['name'] }, then: { properties: { value, ...extra } } });
function variables(rules, names, valueTypeRequired) {
  return {
    type: 'array',
    items: {
      type: 'object', additionalProperties: false, required: ['name', 'value'],
      properties: { name: { type: 'string', enum: names }, value: { type: 'string' }, valueType: { type: 'string', enum: ['text', 'json'] }, options: variableOptions },
      allOf: rules,
    },
  };
}
const contract = { type: 'string', enum: ['1', '6', '12', '24'], errorMessage: 'must be one of 1, 6, 12, 24 (months)' };
const digits = { type: 'string', pattern: '^[0-9]+$', errorMessage: 'must be a string of digits, for example "2"' };
const nonEmpty = { type: 'string', minLength: 1 };

const BM = ['assign_public_ip', 'node_os_image', 'Contract Term', 'Security Policies', 'hss_storage', 'object_storage', 'Infiniband Configuration', 'NVAIE License'];
const bmRules = [
  varRule('assign_public_ip', trueFalse(false)),
  varRule('node_os_image', nonEmpty),
  varRule('Contract Term', contract),
  varRule('Security Policies', { type: 'string' }, { valueType: { const: 'json', errorMessage: 'Security Policies must have valueType json' } }),
  varRule('Infiniband Configuration', trueFalse(false)),
  varRule('NVAIE License', trueFalse(false)),
];
const K8S = ['Cluster Kubernetes Version', 'H100 Worker Nodes', 'L40 Worker Nodes', 'Master Node SKU', 'Master Nodes', 'OS', 'Contract Term', 'Enable Infiniband Configuration', 'Enable NVAIE License'];
const k8sRules = [
  varRule('Cluster Kubernetes Version', { type: 'string', format: 'k8s-version' }),
  varRule('H100 Worker Nodes', digits), varRule('L40 Worker Nodes', digits), varRule('Master Nodes', digits),
  varRule('Master Node SKU', nonEmpty), varRule('OS', nonEmpty), varRule('Contract Term', contract),
  varRule('Enable Infiniband Configuration', trueFalse(false)), varRule('Enable NVAIE License', trueFalse(false)),
];
const VPC = ['Default VPC Name', 'Default Subnet CIDR', 'Default Subnet Gateway', 'Public IP Enabled'];
const vpcRules = [
  varRule('Default VPC Name', nonEmpty),
  varRule('Default Subnet CIDR', { type: 'string', format: 'cidr' }),
  varRule('Default Subnet Gateway', { type: 'string', format: 'ipv4' }),
  varRule('Public IP Enabled', trueFalse(true)),
];
// How the console presents a variable (the rafay dialect's bodies carry it): kept as written.
const variableOptions = { type: 'object', description: "How the vendor's console presents the variable (rafay dialect); sent as written." };
// A cluster version, written 1.30 or "1.30": kept as written and sent as the dialect types it
// (a number for the spec, a string for rafay; docs/dialects.md).
const version = {
  anyOf: [{ type: 'number' }, { type: 'string', pattern: '^[0-9]+\\.[0-9]+(\\.[0-9]+)?$' }],
  errorMessage: 'must be a version such as 1.30 (written 1.30 or "1.30")',
};
const profile = (names) => obj({ name: names ? { type: 'string', enum: names } : nonEmpty, systemCatalog: { type: 'boolean' } }, ['name']);

const out = {};
out['user'] = schema('User', 'user.schema.json', 'A local user of the organization, its groups and where its password comes from.', platctlApi,
  metadata({ project: false, userName: true }),
  obj({
    first_name: nonEmpty, last_name: nonEmpty,
    user_type: { type: 'string', enum: ['CONSOLE', 'API'] },
    passwordFrom: { type: 'object', additionalProperties: false, minProperties: 1, maxProperties: 1,
      errorMessage: 'passwordFrom must have exactly one of env (a variable name) or file (a path)',
      properties: { env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', errorMessage: 'must be an environment variable name' }, file: nonEmpty } },
    groups: { type: 'array', uniqueItems: true, items: obj({ id: nonEmpty, name: nonEmpty, type: { type: 'string', enum: ['SYSTEM'] } }, ['id', 'name']) },
  }, ['first_name', 'last_name', 'user_type', 'passwordFrom']));
out['cluster'] = schema('Cluster', 'cluster.schema.json', 'A GKE cluster (the API v3 Cluster resource).', apiGroup('v3'),
  metadata({ cluster: true, labelled: true }),
  obj({
    // the union of the dialects' values; plan refuses one the chosen dialect lacks (docs/dialects.md)
    type: { type: 'string', enum: ['Gke', 'gke'] },
    cloudCredentials: nonEmpty,
    blueprint: obj({ name: nonEmpty, version: nonEmpty }, ['name', 'version']),
    preBootstrapCommands: { type: 'array', items: { type: 'string' } },
    config: obj({
      name: nonEmpty, project: nonEmpty, description: str(),
      location: obj({ type: { type: 'string', enum: ['zonal', 'regional'] }, zone: nonEmpty }, ['type', 'zone']),
      controlPlaneVersion: version,
      network: obj({
        name: nonEmpty, nodeSubnetName: nonEmpty,
        networkAccess: obj({ privacy: { type: 'string', enum: ['public', 'private'] } }),
        enableVPCNativeTraffic: { type: 'boolean' },
        maxPodsPerNode: { type: 'integer', minimum: 8, maximum: 256 },
        enableControlPlaneAuthorizedNetworks: { type: 'array' },
      }),
      nodePools: { type: 'array', minItems: 1, items: obj({
        name: name, size: { type: 'integer', minimum: 0 }, nodeVersion: version,
        machineConfig: obj({ imageType: nonEmpty, machineType: nonEmpty, bootDiskType: nonEmpty, bootDiskSize: { type: 'integer', minimum: 10 } }),
        management: obj({ autoUpgrade: { type: 'boolean' } }),
        upgradeSettings: obj({
          strategy: { type: 'string', enum: ['BLUE_GREEN', 'SURGE'] },
          config: obj({ batchNodeCount: { type: 'integer', minimum: 0 }, batchSoakDuration: { type: 'string', format: 'duration' }, nodePoolSoakDuration: { type: 'string', format: 'duration' } }),
        }),
      }, ['name', 'size']) },
      security: obj({ enableWorkloadIdentity: { type: 'boolean' } }),
      feature: obj(Object.fromEntries(['enableCloudLogging', 'enableCloudMonitoring', 'enableManagedServiceforPrometheus', 'enableApplicationManagerBeta', 'enableBackupforGKE', 'enableComputeEnginePersistentDiskCSIDriver', 'enableFilestoreCSIDriver', 'enableImageStreaming'].map((k) => [k, { type: 'boolean' }]))),
    }, ['project', 'location', 'nodePools']),
  }, ['type', 'cloudCredentials', 'blueprint', 'config']));
out['service'] = schema('Service', 'service.schema.json', 'A VPC service (the API Service resource); platctl creates and deploys it.', apiGroup('v1'),
  metadata({ labelled: true }),
  obj({ serviceProfile: profile(['vpc']), serviceType: { type: 'string', enum: ['custom'] }, variables: variables(vpcRules, VPC) }, ['serviceProfile', 'serviceType', 'variables']));
out['workspace'] = schema('Workspace', 'workspace.schema.json', 'A workspace of a project (the API Workspace resource).', apiGroup('v1'),
  metadata({ displayName: true, labelled: true }), obj({}), false);
out['compute-instance'] = schema('ComputeInstance', 'compute-instance.schema.json', 'A bare-metal or GPU Kubernetes compute instance (the API ComputeInstance resource).', apiGroup('v1'),
  metadata({ workspace: true, power: true, labelled: true }),
  {
    type: 'object', additionalProperties: false, required: ['computeType', 'computeProfile', 'variables'],
    properties: {
      // vm and the fields below are the rafay dialect's (plan refuses them on the spec's)
      computeType: { type: 'string', enum: ['baremetal', 'k8s', 'vm'] }, computeProfile: profile(), variables: { type: 'array' },
      datacenter: obj({ name: nonEmpty }, ['name'], { description: 'Where the instance runs (rafay dialect).' }),
      storageDetails: { type: 'object', description: "Storage of the instance's profile, as the vendor's console sends it (rafay dialect)." },
    },
    allOf: [
      { if: { properties: { computeType: { const: 'baremetal' } }, required: ['computeType'] }, then: { properties: { variables: variables(bmRules, BM) } } },
      { if: { properties: { computeType: { const: 'k8s' } }, required: ['computeType'] }, then: { properties: { variables: variables(k8sRules, K8S) } } },
      { if: { properties: { computeType: { const: 'vm' } }, required: ['computeType'] }, then: { properties: { variables: { type: 'array', items: obj({ name: nonEmpty, value: { type: 'string' }, valueType: { type: 'string', enum: ['text', 'json'] }, options: variableOptions }, ['name', 'value']) } } } },
    ],
  });
out['project-assignment'] = schema('ProjectAssignment', 'project-assignment.schema.json', "A user's roles in metadata.project.", platctlApi,
  metadata({}),
  obj({ user: { type: 'string', format: 'email', description: 'Username (e-mail) of the user.' },
    roles: { type: 'array', minItems: 1, uniqueItems: true, items: obj({ id: nonEmpty, name: nonEmpty, scope: { type: 'string', enum: ['PROJECT'] }, role_type: { type: 'string', enum: ['BASE', 'CUSTOM'] } }, ['id', 'name']) } },
    ['user', 'roles']));
out['blueprint-publish'] = schema('BlueprintPublish', 'blueprint-publish.schema.json', 'Publish a blueprint version to a cluster of metadata.project, force-syncing all or the listed add-ons.', platctlApi,
  metadata({}),
  obj({ cluster: dnsLabel, blueprint: obj({ name: nonEmpty, version: nonEmpty }, ['name', 'version']),
    addons: { type: 'array', uniqueItems: true, items: nonEmpty, description: 'Add-ons to force-sync; omitted or empty means all.' },
    forceSync: { type: 'boolean', description: "The API's metadata.forceSync: false publishes the version without syncing add-ons (default true)." } }, ['cluster', 'blueprint']));
out['blueprint-version'] = schema('BlueprintVersion', 'blueprint-version.schema.json', 'Whether a blueprint version is enabled in metadata.project.', platctlApi,
  metadata({}),
  obj({ blueprint: nonEmpty, version: nonEmpty, enabled: { type: 'boolean' } }, ['blueprint', 'version', 'enabled']));
out['cluster-controllers'] = schema('ClusterControllers', 'cluster-controllers.schema.json', 'Desired CAPI and CAPG controller versions of the existing cluster named metadata.name.', platctlApi,
  metadata({}),
  obj({ capiVersion: { type: 'string', format: 'controller-version' }, capgVersion: { type: 'string', format: 'controller-version' } }, [],
    { minProperties: 1, errorMessage: 'set at least one of capiVersion or capgVersion' }));
out['policy'] = schema('Policy', 'policy.schema.json', 'Rules in CEL checked at plan against each matching manifest and the whole plan; platctl-only, never sent to the platform (docs/governance.md).', platctlApi,
  metadata({ project: false }),
  obj({ rules: { type: 'array', minItems: 1, items: obj({
    name: nonEmpty,
    match: obj({ kinds: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: KINDS.filter((k) => k !== 'Policy' && k !== 'ChangeWindow') } },
      projects: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty },
      files: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty, description: 'Globs (*, **, ?) against the manifest file path as given on the command line.' } }, []),
    expression: { ...nonEmpty, description: 'CEL that must be true for the manifest to pass; sees object, live, file, action and plan.' },
    effect: { type: 'string', enum: ['deny', 'warn', 'require-approval'] },
    message: { type: 'string', description: 'Shown when the rule fails; {{ cel }} is replaced by the value of that CEL expression.' },
  }, ['name', 'expression', 'effect']) } }, ['rules']));
const hhmm = (stop) => ({ type: 'string', pattern: stop ? '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' : '^([01][0-9]|2[0-3]):[0-5][0-9]$', errorMessage: `must be a time HH:MM from 00:00 to ${stop ? '24:00' : '23:59'}` });
out['power-schedule'] = schema('PowerSchedule', 'power-schedule.schema.json', 'Compute instances on during the periods and off outside them, in an IANA time zone; platctl-only, never sent to the platform (docs/governance.md).', platctlApi,
  metadata({ project: false }),
  obj({
    timeZone: { ...nonEmpty, description: 'An IANA time zone (Europe/Berlin, America/New_York, UTC) the periods are written in.' },
    periods: { type: 'array', minItems: 1, description: 'When the selected instances are on; outside every period they are off.', items: obj({
      days: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] } },
      start: hhmm(false),
      stop: { ...hhmm(true), description: 'Not after start: the period ends on the next day.' },
    }, ['days', 'start', 'stop']) },
    selector: obj({
      labels: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' }, description: 'Every label given must be on the instance.' },
      names: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty, description: 'Instance names, or globs with *.' },
      workspaces: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty },
      projects: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty },
    }, [], { minProperties: 1, errorMessage: 'set at least one of labels, names, workspaces or projects' }),
  }, ['timeZone', 'periods', 'selector']));
const windowTime = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', errorMessage: 'must be a time of day HH:MM (00:00 to 24:00)' };
const localDate = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T([01][0-9]|2[0-3]):[0-5][0-9])?$', errorMessage: 'must be a date YYYY-MM-DD or a local date and time YYYY-MM-DDTHH:MM' };
out['change-window'] = schema('ChangeWindow', 'change-window.schema.json', 'When deletes, controller updates, power actions or creates may run (allow) or may not (deny), per project, in an IANA time zone; platctl-only, never sent to the platform (docs/governance.md).', platctlApi,
  metadata({ project: false }),
  obj({
    window: { type: 'string', enum: ['allow', 'deny'], description: 'allow: the actions run only inside the window (when several allow windows apply, inside any); deny: never inside it.' },
    actions: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['delete', 'controller-update', 'power', 'create'] } },
    projects: { type: 'array', minItems: 1, uniqueItems: true, items: nonEmpty, description: 'The projects governed; absent: every project, and what has none (users).' },
    timeZone: { ...nonEmpty, description: 'IANA time zone of the periods and dates (Europe/Berlin, UTC).' },
    periods: { type: 'array', minItems: 1, items: obj({
      days: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] }, description: 'Days the period starts on; absent: every day.' },
      start: windowTime,
      stop: { ...windowTime, description: 'At or before start: the period runs past midnight.' },
    }, ['start', 'stop']) },
    dates: { type: 'array', minItems: 1, items: obj({ from: localDate, to: { ...localDate, description: 'A date without a time includes that whole day.' } }, ['from', 'to']) },
  }, ['window', 'actions', 'timeZone']));
out['manifest'] = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://platctl.io/schemas/manifest.schema.json',
  title: 'platctl manifest (any kind)',
  description: 'Dispatches on kind to the schema of that kind; for editors (platctl itself validates each kind with its own schema).',
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: KINDS } },
  allOf: KINDS.map((kind) => ({
    if: { properties: { kind: { const: kind } } },
    then: { $ref: `${kind.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}.schema.json` },
  })),
};

const check = process.argv.includes('--check');
let stale = 0;
for (const [f, s] of Object.entries(out)) {
  const file = `${OUT}${f}.schema.json`;
  const text = `${JSON.stringify(s, null, 2)}\n`;
  if (!check) writeFileSync(file, text);
  else if (readFileSync(file, 'utf8') !== text) {
    console.error(`${f}.schema.json is not what schemas/generate.mjs produces`);
    stale++;
  }
}
process.exitCode = stale ? 1 : 0;

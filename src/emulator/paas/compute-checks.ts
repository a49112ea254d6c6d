import type { EmuContext } from '../http/types.js';
import type { ProfileRecord } from '../lookups.js';
import { badField } from '../shared/responses.js';
import type { ComputeSpec } from './compute-store.js';

/** The keys every rule of the `Security Policies` variable carries (spec, bare-metal table). */
const RULE_KEYS = ['source_cidr', 'action', 'application', 'port', 'protocol'] as const;

/**
 * Checks what the OpenAPI schema cannot: the profile exists and is of the instance's compute
 * type, and `Security Policies` is JSON text holding an array of rules. Throws a 400 naming the
 * field; returns the profile. Reads the store only.
 */
export function checkComputeSpec(ctx: EmuContext, spec: ComputeSpec): ProfileRecord {
  const profileField = 'spec.computeProfile.name';
  const profile = ctx.store.get<ProfileRecord>('profiles', spec.computeProfile.name);
  if (!profile)
    throw badField(profileField, `names an unknown profile ${spec.computeProfile.name}`);
  if (profile.kind !== spec.computeType) {
    throw badField(profileField, `is a ${profile.kind} profile, not ${spec.computeType}`);
  }
  (spec.variables ?? []).forEach((v, i) => {
    if (v.name === 'Security Policies')
      checkSecurityPolicies(v.value, `spec.variables[${i}].value`);
  });
  return profile;
}

function checkSecurityPolicies(text: string, field: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badField(field, 'must be JSON text (an array of firewall rules)');
  }
  if (!Array.isArray(parsed)) throw badField(field, 'must be a JSON array of firewall rules');
  parsed.forEach((rule, i) => {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
      throw badField(field, `rule ${i} must be an object`);
    }
    const missing = RULE_KEYS.filter((k) => !(k in rule));
    if (missing.length > 0) throw badField(field, `rule ${i} lacks ${missing.join(', ')}`);
  });
}

/** The value of a variable by name, if sent. */
function variableValue(spec: ComputeSpec, name: string): string | undefined {
  return spec.variables?.find((v) => v.name === name)?.value;
}

/**
 * Deterministic addresses for an instance id: a 10.x private IP, and a TEST-NET-3 public IP only
 * when `assign_public_ip` is true (empty string otherwise). Pure.
 */
export function addressesFor(
  id: string,
  spec: ComputeSpec,
): { privateIp: string; publicIp: string } {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const privateIp = `10.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 2}`;
  const wantsPublic = variableValue(spec, 'assign_public_ip')?.toLowerCase() === 'true';
  return { privateIp, publicIp: wantsPublic ? `203.0.113.${(h % 250) + 2}` : '' };
}

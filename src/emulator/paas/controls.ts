import { closeSegments } from '../billing/segments.js';
import { ApiError, type EmuContext, type EmuResponse } from '../http/types.js';
import { loadInstance, saveInstance } from './compute-store.js';
import { loadService, saveService } from './services.js';

/** Body of the emulator-only `POST /_emulator/fail`. */
export interface FailRequest {
  readonly kind: 'Service' | 'ComputeInstance';
  readonly project: string;
  readonly name: string;
  /** Required for a ComputeInstance. */
  readonly workspace?: string;
}

function field(body: Readonly<Record<string, unknown>>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') {
    throw new ApiError(400, 'invalid_request', `${name} is required`, [
      { field: name, message: 'must be a non-empty string' },
    ]);
  }
  return value;
}

/**
 * Test control: puts a VPC service or a compute instance into `failed` (the only way to reach
 * it). Returns 200 `{kind, project, name, status: "failed"}`; throws a 404 ApiError when unknown
 * and a 400 for a bad body (the body of a control is not validated by the OpenAPI layer, so it is
 * checked here; a ComputeInstance needs `workspace`). A failed instance stops accruing usage.
 */
export function failResource(
  ctx: EmuContext,
  body: FailRequest | Readonly<Record<string, unknown>>,
): EmuResponse {
  const raw = body as Readonly<Record<string, unknown>>;
  const kind = raw.kind;
  const project = field(raw, 'project');
  const name = field(raw, 'name');
  if (kind === 'Service') {
    saveService(ctx, { ...loadService(ctx, project, name), phase: 'failed' });
  } else if (kind === 'ComputeInstance') {
    const r = loadInstance(ctx, project, field(raw, 'workspace'), name);
    ctx.store.transaction(() => {
      saveInstance(ctx, { ...r, phase: 'failed' });
      closeSegments(ctx, r.id, ctx.clock.now());
    });
  } else {
    throw new ApiError(400, 'invalid_request', 'kind must be Service or ComputeInstance', [
      { field: 'kind', message: 'must be Service or ComputeInstance' },
    ]);
  }
  return { status: 200, body: { kind, project, name, status: 'failed' } };
}

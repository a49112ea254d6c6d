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

/**
 * Test control: puts a VPC service or a compute instance into `failed` (the only way to reach
 * it). 200 `{kind, project, name, status: "failed"}`; 404 when unknown; 400 for a compute
 * instance without a workspace. A failed instance stops accruing usage.
 */
export function failResource(ctx: EmuContext, body: FailRequest): EmuResponse {
  if (body.kind === 'Service') {
    saveService(ctx, { ...loadService(ctx, body.project, body.name), phase: 'failed' });
  } else if (body.kind === 'ComputeInstance') {
    if (!body.workspace) {
      throw new ApiError(400, 'invalid_request', 'workspace is required for a ComputeInstance', [
        { field: 'workspace', message: 'required for kind ComputeInstance' },
      ]);
    }
    const r = loadInstance(ctx, body.project, body.workspace, body.name);
    saveInstance(ctx, { ...r, phase: 'failed' });
    closeSegments(ctx, r.id, ctx.clock.now());
  } else {
    throw new ApiError(400, 'invalid_request', 'kind must be Service or ComputeInstance', [
      { field: 'kind', message: 'must be Service or ComputeInstance' },
    ]);
  }
  const { kind, project, name } = body;
  return { status: 200, body: { kind, project, name, status: 'failed' } };
}

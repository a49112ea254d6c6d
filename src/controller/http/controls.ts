import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { LoadedManifest, Manifest } from '../../model/manifest.js';
import type { Plan } from '../../model/plan.js';
import type { PowerRequest } from '../../reconcile/power-requests.js';
import type { LiveView } from '../engine/ports.js';
import type { ControlScope, Elsewhere } from '../leadership/elsewhere.js';
import type { ControllerLoop } from '../loop/loop.js';
import { HISTORY_SIZE, type StoredRun } from '../status/history.js';
import type { ControllerStatus } from '../status/status.js';
import type { ControlDeps, DesiredSource } from './control-deps.js';
import { documentAt } from './resource-views.js';

/**
 * The controller's day-2 controls behind the control API and `platctl ctl`: run now, suspend and
 * resume (kept in the state store, across restarts and failovers), approve a held prune, forget a
 * resource's backoff, the plan the controller would run now, the run history. Every change is
 * logged. The verbs that change something act only where {@link elsewhere} says this replica
 * may; callers ask it first (the control API answers 503 naming the leader).
 */
export class ControllerControls {
  readonly #d: ControlDeps;

  constructor(deps: ControlDeps) {
    this.#d = deps;
  }

  get status(): ControllerStatus {
    return this.#d.status;
  }

  /** See {@link ControlDeps.elsewhere}. */
  elsewhere(scope: ControlScope): Promise<Elsewhere | undefined> {
    return this.#d.elsewhere(scope);
  }

  /** See {@link ControlDeps.pruneElsewhere}. */
  async pruneElsewhere(runId: string): Promise<Elsewhere | undefined> {
    return this.#d.pruneElsewhere?.(runId);
  }

  /** Runs now; `withSource` fetches first, otherwise the revision last fetched is reconciled. */
  reconcile(withSource: boolean): void {
    this.#d.loop.trigger('control API', 'manual', { withSource });
  }

  /**
   * Makes no change from now on (the running step finishes), on every replica (the state store
   * keeps it; each run reads it); returns the suspended state. Rejects `locked` when this replica
   * lost the lease meanwhile (nothing changed).
   */
  async suspend(): Promise<boolean> {
    await this.#d.intent.set({ suspended: true });
    this.#d.status.suspended = true;
    this.#d.metrics.suspended(true);
    this.#d.logger.info({ event: 'suspended' }, 'suspended through the control API');
    return true;
  }

  /** Lifts a suspension made through the API and runs now; `--suspend` stays in force. */
  async resume(): Promise<boolean> {
    await this.#d.intent.set({ suspended: false });
    this.#d.status.suspended = this.#d.suspendFlag;
    this.#d.metrics.suspended(this.#d.suspendFlag);
    this.#d.logger.info({ event: 'resumed' }, 'resumed through the control API');
    this.#d.loop.trigger('resumed', 'manual');
    return this.#d.status.suspended;
  }

  /**
   * Approves the prune that run `runId` held back over the limit: the next run deletes exactly
   * those resources, and starts at once. The approval is kept in the state store until a run
   * succeeds. False (nothing approved) when `runId` is not the run whose held prune is current.
   */
  async approvePrune(runId: string): Promise<boolean> {
    const blocked = this.#d.status.blockedPrune;
    if (!blocked || blocked.runId !== runId) return false;
    await this.#d.intent.set({ approvedDeletes: [...blocked.keys] });
    await this.#d.persist();
    this.#d.logger.info(
      { event: 'prune-approved', runId, count: blocked.keys.length },
      'prune over the limit approved',
    );
    this.#d.loop.trigger('prune approved');
    return true;
  }

  /**
   * Runs now for `key`: forgets its backoff, then reconciles the revision last fetched (a run
   * reconciles every resource, this one with them). False when `key` is unknown.
   */
  reconcileResource(key: string): boolean {
    if (!this.resetBackoff(key)) return false;
    this.#d.loop.trigger(`control API: ${key}`, 'manual', { withSource: false });
    return true;
  }

  /**
   * Approves the policy rules that held run `runId` (`require-approval`): the next run applies
   * with those rules approved, and starts at once. Kept in the state store until a run succeeds.
   * False (nothing approved) when `runId` is not the run whose hold is current.
   */
  async approvePolicy(runId: string): Promise<boolean> {
    const held = this.#d.status.heldPolicy;
    if (!held || held.runId !== runId) return false;
    await this.#d.intent.set({ approvedPolicies: [...held.rules] });
    await this.#d.persist();
    this.#d.logger.info(
      { event: 'policy-approved', runId, rules: held.rules },
      `policy rule(s) ${held.rules.join(', ')} approved`,
    );
    this.#d.loop.trigger('policy approved');
    return true;
  }

  /** Approves whatever run `runId` holds: its policy rules, else its prune. False: nothing held. */
  async approve(runId: string): Promise<boolean> {
    return (await this.approvePolicy(runId)) || this.approvePrune(runId);
  }

  /**
   * Records what an operator asked of instance `key`'s power (the fleet's intent, kept until
   * replaced: the runs keep the state asked where git pins none) and runs now, its backoff
   * forgotten. Callers check first that git allows it (`reconcile/power-requests.ts`).
   */
  async requestPower(key: string, request: PowerRequest): Promise<void> {
    const all = this.#d.memory.powerRequests ?? {};
    await this.#d.intent.set({ powerRequests: { ...all, [key]: { ...all[key], ...request } } });
    this.#d.logger.info({ event: 'power-requested', resource: key, ...request }, 'power requested');
    this.reconcileResource(key);
  }

  /** Forgets the failures of `key` so the next run tries it again; false when it is unknown. */
  resetBackoff(key: string): boolean {
    const known =
      this.#d.backoff.failures(key) > 0 || this.#d.status.conditions.some((c) => c.key === key);
    if (!known) return false;
    this.#d.backoff.succeed(key);
    delete this.#d.status.backoff[key];
    this.#d.logger.info({ event: 'backoff-reset', resource: key }, 'backoff reset');
    return true;
  }

  /**
   * The plan the controller would run now on its current desired revision (reads the platform,
   * changes nothing); undefined before any revision validated.
   */
  async plan(signal: AbortSignal): Promise<Plan | undefined> {
    const target = this.#d.memory.lastGood;
    if (!target) return undefined;
    const report = await this.#d.run(
      {
        runId: randomUUID(),
        dir: target.dir,
        revision: target.revision,
        mode: 'plan',
        prune: this.#d.prune,
        selfHeal: this.#d.selfHeal,
        skipKeys: [],
        approvedDeletes: this.#d.memory.approvedDeletes ?? [],
      },
      signal,
    );
    return report.plan;
  }

  /** The newest `limit` runs, newest first (they survive restarts). */
  async runs(limit: number): Promise<StoredRun[]> {
    return (await this.#d.state.runs(limit)) as unknown as StoredRun[];
  }

  /** Run `runId` of the history with its actions; undefined when it is not among the kept ones. */
  async run(runId: string): Promise<StoredRun | undefined> {
    return (await this.runs(HISTORY_SIZE)).find((r) => r.runId === runId);
  }

  /**
   * `key` as the platform has it now (I/O: reads it through the controller's rate-limited
   * client); undefined before a revision validated, or when the platform has no such object.
   */
  async live(key: string, signal: AbortSignal): Promise<LiveView | undefined> {
    const target = this.#d.memory.lastGood;
    if (!target || !this.#d.observe) return undefined;
    return this.#d.observe(target.dir, key, signal);
  }

  /**
   * The document of `key` as written in the desired revision (file I/O, the revision's load
   * reused); undefined when no revision validated yet or it does not declare `key`.
   */
  async source(key: string): Promise<DesiredSource | undefined> {
    const target = this.#d.memory.lastGood;
    const found = (await this.loaded()).find((m) => m.key === key);
    if (!target || !found) return undefined;
    const { file, line } = found.source;
    const read = this.#d.readText ?? ((f: string) => readFile(f, 'utf8'));
    return {
      file: relative(target.dir, file) || file,
      line,
      yaml: documentAt(await read(file), line),
    };
  }

  /**
   * The desired revision's manifests as written (file I/O, the revision's load reused), power
   * schedules included; empty before a revision validated or without a desired source.
   */
  async loaded(): Promise<LoadedManifest[]> {
    const target = this.#d.memory.lastGood;
    if (!target || !this.#d.load) return [];
    return (await this.#d.load({ paths: [target.dir] })).manifests;
  }

  /** The desired revision's directory, which manifests' files are under; undefined before one. */
  sourceDir(): string | undefined {
    return this.#d.memory.lastGood?.dir;
  }

  /** Every manifest last applied, by key (I/O: read from the state store). */
  applied(): Promise<ReadonlyMap<string, Manifest>> {
    return this.#d.state.lastApplied();
  }

  /** The manifest last applied for `key`: what git declares for it once applied. */
  async desired(key: string): Promise<unknown> {
    return (await this.#d.state.lastApplied()).get(key);
  }

  /** See {@link ControllerLoop.onRun}. */
  onRun(listener: (run: StoredRun) => void): () => void {
    return this.#d.loop.onRun(listener);
  }
}

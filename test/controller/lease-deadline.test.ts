import { afterEach, describe, expect, it } from 'vitest';
import { LeaseKeeper } from '../../src/controller/leadership/lease-keeper.js';
import type { LeasePort } from '../../src/controller/leadership/lease-port.js';
import { stateStoreLease } from '../../src/controller/leadership/state-lease.js';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import { openState, processHolder, type StateStore } from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import {
  baseOptions,
  FakeSource,
  loopPorts,
  memoryLogger,
  nextStep,
  recordingRun,
} from './helpers/fakes.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

// The lease as leader election holds it: a renew deadline in memory (a leader that cannot renew
// in time stops acting), and an ended lock session noticed the moment it ends.

describe('the renew deadline', () => {
  it('a renewal that hangs ends leadership when the deadline passes: no write, unhealthy', async () => {
    const clock = new ManualClock();
    const log = memoryLogger();
    let hang = false;
    const lease: LeasePort = {
      tryAcquire: async () => true,
      renew: () => (hang ? new Promise<boolean>(() => {}) : Promise.resolve(true)),
      holder: async () => undefined,
      release: async () => {},
    };
    const keeper = new LeaseKeeper(lease, log.logger, { clock, renewDeadlineMs: 1000 });
    expect(await keeper.tryAcquire()).toBe(true);
    const lost: string[] = [];
    keeper.keepAlive(300, (why) => lost.push(why));
    await clock.advance(300);
    expect(keeper.leads()).toBe(true);
    // the database stops answering: renewals hang, nothing fails
    hang = true;
    await clock.advance(300); // a renewal starts, and hangs
    await clock.advance(300);
    await clock.advance(300);
    expect(keeper.leads()).toBe(true); // 900 ms since the last renewal: still within
    await clock.advance(300);
    expect(keeper.leads()).toBe(false);
    expect(lost).toEqual(['the lease was not renewed before its deadline']);
    expect(keeper.health()).toMatchObject({ ok: false });
    expect(log.lines.filter((l) => l.includes('"event":"lease-lost"'))).toHaveLength(1);
    // held again only once the store answers a renewal in time
    hang = false;
    expect(await keeper.tryAcquire()).toBe(true);
    expect(keeper.leads()).toBe(true);
    expect(keeper.health()).toEqual({ ok: true });
    keeper.stopKeepAlive();
  });

  it('a deadline passed because this process held its event loop (no renewal asked) is renewed late when the store still says it leads', async () => {
    const clock = new ManualClock();
    const log = memoryLogger();
    let held = true;
    const lease: LeasePort = {
      tryAcquire: async () => true,
      renew: async () => held,
      holder: async () => undefined,
      release: async () => {},
    };
    const keeper = new LeaseKeeper(lease, log.logger, { clock, renewDeadlineMs: 1000 });
    expect(await keeper.tryAcquire()).toBe(true);
    const lost: string[] = [];
    keeper.keepAlive(300, (why) => lost.push(why));
    // loading 100,000 manifests: the renewal due at 300 ms runs only at 1,500 ms
    await clock.advance(1500);
    expect(lost).toEqual([]);
    expect(keeper.leads()).toBe(true);
    expect(keeper.health()).toEqual({ ok: true });
    expect(log.lines.filter((l) => l.includes('"event":"lease-renewed-late"'))).toHaveLength(1);
    // held again, and meanwhile another replica took the lease over: leadership ends
    held = false;
    await clock.advance(1500);
    expect(keeper.leads()).toBe(false);
    expect(lost).toEqual(['the lease was not renewed before its deadline']);
    keeper.stopKeepAlive();
  });

  it('is checked before each action of a run: a deadline passed mid-run starts nothing more', async () => {
    const clock = new ManualClock();
    let hang = false;
    const lease: LeasePort = {
      tryAcquire: async () => true,
      renew: () => (hang ? new Promise<boolean>(() => {}) : Promise.resolve(true)),
      holder: async () => undefined,
      release: async () => {},
    };
    const asked: boolean[] = [];
    const run = recordingRun(async (req) => {
      asked.push(req.canWrite?.() ?? true);
      hang = true;
      await clock.advance(1500); // the run goes on past the deadline, renewals hanging
      asked.push(req.canWrite?.() ?? true);
      // no renewal was asked meanwhile, so one is asked late; it hangs past the deadline too
      await clock.advance(1000);
      return {
        resources: [],
        inventory: [],
        diagnostics: [],
        drift: [],
        blocked: false,
        interrupted: false,
      };
    });
    const { ports, status } = loopPorts(new FakeSource(), run.run, lease);
    const loop = new ControllerLoop(
      { ...baseOptions, leasePollMs: 300, renewDeadlineMs: 1000 },
      { ...ports, clock },
    );
    const step = nextStep(loop);
    void loop.start();
    await step;
    expect(asked).toEqual([true, false]);
    expect(loop.ready).toBe(false);
    expect(status.role).not.toBe('leader');
    await loop.stop();
  });
});

describe.skipIf(!postgresUrl)('a lock session that ends (PostgreSQL)', () => {
  let schema: TestSchema;
  const stores: StateStore[] = [];
  const loops: ControllerLoop[] = [];
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((l) => l.stop()));
    for (const s of stores.splice(0)) await s.close();
    await schema?.drop();
  });

  it('ends leadership at once, not at the next renewal', async () => {
    schema = await testSchema('lease_lost');
    const store = await openState(schema.url);
    stores.push(store);
    const clock = new ManualClock();
    const { ports, status, lines } = loopPorts(
      new FakeSource(),
      recordingRun().run,
      stateStoreLease(store, processHolder('a'), { ttlMs: 60_000 }),
    );
    // renewals once a minute, on a clock that never moves by itself: only the session's end
    // can tell this replica it lost the lease
    const loop = new ControllerLoop(
      { ...baseOptions, leasePollMs: 60_000, renewDeadlineMs: 40_000 },
      { ...ports, clock },
    );
    loops.push(loop);
    const first = nextStep(loop);
    void loop.start();
    await first;
    expect(loop.ready).toBe(true);
    await schema.query(
      `SELECT pg_terminate_backend(backend_pid) FROM "${schema.name}".lease WHERE name = 'run'`,
    );
    // the keeper hears of it at once (its renewals are a minute apart, on a clock that does not
    // move): the leader stops saying so, then takes the lock again on a new session
    const deadline = Date.now() + 10_000;
    const lostLine = () => lines.find((l) => l.includes('"event":"lease-lost"'));
    while (!lostLine() && Date.now() < deadline) await settle();
    expect(lostLine()).toContain('its database session ended');
    while (!loop.ready && Date.now() < deadline) await settle();
    expect(status.role).toBe('leader');
  });
});

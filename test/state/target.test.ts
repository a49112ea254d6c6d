import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactUrl, resolveStateTarget } from '../../src/state/index.js';
import { parsePostgresTarget } from '../../src/state/pg/target.js';

describe('where the state lives', () => {
  it('takes --state, then PLATCTL_STATE_URL_FILE, then PLATCTL_STATE_URL, then the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-target-'));
    try {
      const file = join(dir, 'url');
      writeFileSync(file, 'postgres://ctl:from-file@db/platform\n');
      const env = { PLATCTL_STATE_URL_FILE: file, PLATCTL_STATE_URL: 'postgres://ctl@env/db' };
      expect(resolveStateTarget('x.db', env)).toBe('x.db');
      expect(resolveStateTarget(undefined, env)).toBe('postgres://ctl:from-file@db/platform');
      expect(resolveStateTarget(undefined, { PLATCTL_STATE_URL: 'postgres://ctl@env/db' })).toBe(
        'postgres://ctl@env/db',
      );
      expect(resolveStateTarget(undefined, {})).toBe('.platctl/state.db');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a password in --state, showing the URL masked', () => {
    expect(() => resolveStateTarget('postgres://ctl:hunter22@db/platform', {})).toThrow(
      /--state postgres:\/\/ctl:\*\*\*@db\/platform: a password on the command line/,
    );
    expect(() => resolveStateTarget('postgres://ctl@db/platform', {})).not.toThrow();
  });

  it('parses the schema parameter and hands the rest to the driver', () => {
    const t = parsePostgresTarget(
      'postgres://ctl:pw@db:5433/platform?schema=team_a&sslmode=require',
    );
    expect(t.schema).toBe('team_a');
    expect(t.connectionString).toBe('postgres://ctl:pw@db:5433/platform?sslmode=require');
    expect(t.display).toBe('postgres://ctl:***@db:5433/platform?schema=team_a&sslmode=require');
    expect(parsePostgresTarget('postgres://db/platform').schema).toBe('platctl');
    expect(() => parsePostgresTarget('postgres://db/p?schema=a;drop')).toThrow(/schema must be/);
    expect(redactUrl('postgresql://u:p@h/d')).toBe('postgresql://u:***@h/d');
  });
});

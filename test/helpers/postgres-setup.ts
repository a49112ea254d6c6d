import pg from 'pg';
import type { TestProject } from 'vitest/node';

/** The server PostgreSQL tests use. */
export const TEST_DATABASE_URL =
  process.env.PLATCTL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test database URL when its server answers; null when PostgreSQL tests are skipped. */
    postgresUrl: string | null;
  }
}

/**
 * Global setup: probes the test database once. Under CI=true an unreachable server fails the
 * run; elsewhere PostgreSQL tests are skipped with one line saying how to run them.
 */
export default async function setup(project: TestProject): Promise<void> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    project.provide('postgresUrl', TEST_DATABASE_URL);
  } catch (err) {
    const where = TEST_DATABASE_URL.replace(/(\/\/[^/@:]*:)[^@/]*@/, '$1***@');
    if (process.env.CI === 'true') {
      throw new Error(
        `PostgreSQL tests must run under CI=true, but ${where} is unreachable: ${String(err)}`,
      );
    }
    console.warn(
      `PostgreSQL tests skipped: no server at ${where}; start PostgreSQL 15 there or set PLATCTL_TEST_DATABASE_URL to run them.`,
    );
    project.provide('postgresUrl', null);
  } finally {
    await client.end().catch(() => {});
  }
}

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { absolutePath, absoluteRepo, absoluteState } from '../src/cli/paths.js';

describe('path flags are made absolute once, by the CLI', () => {
  it('makes a local repository path absolute and leaves URLs and scp-like addresses alone', () => {
    expect(absoluteRepo('../platform.git')).toBe(resolve('../platform.git'));
    expect(absoluteRepo('repo')).toBe(resolve('repo'));
    expect(absoluteRepo('/srv/git/platform.git')).toBe('/srv/git/platform.git');
    for (const url of [
      'file:///srv/git/platform.git',
      'https://git.example.com/acme/platform.git',
      'ssh://git@git.example.com/acme/platform.git',
      'git@git.example.com:acme/platform.git',
    ]) {
      expect(absoluteRepo(url)).toBe(url);
    }
    // a colon after a slash is a path, as git reads it
    expect(absoluteRepo('./a:b')).toBe(resolve('./a:b'));
  });

  it('makes a SQLite state file absolute and leaves :memory: and database URLs alone', () => {
    expect(absoluteState('.platctl/state.db')).toBe(resolve('.platctl/state.db'));
    expect(absoluteState(':memory:')).toBe(':memory:');
    expect(absoluteState('postgres://u@db/platctl')).toBe('postgres://u@db/platctl');
    expect(absolutePath('x/y')).toBe(resolve('x/y'));
  });
});

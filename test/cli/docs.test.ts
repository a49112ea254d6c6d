import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { everyHelp, helpFlags } from './helps.js';

// Issue 24, item 6: every flag a command's --help lists is documented in docs/cli.md, in that
// command's section, and the page documents no flag the command does not list.

const page = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** `## platctl ctl status` → its flags, from the first cell of each table row. */
function documented(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of page.split('\n')) {
    if (/^#+ /.test(line)) {
      // a command's section runs to the next heading; other headings hold no command's flags
      const heading = /^##+ `platctl((?: [a-z-]+)*)`\s*$/.exec(line);
      current = heading ? [] : undefined;
      if (heading) sections.set(heading[1]!.trim(), current!);
      continue;
    }
    const row = /^\|\s*`([^`]+)`/.exec(line);
    if (current && row) {
      const flag = /--[a-z][a-z0-9-]*/.exec(row[1]!)?.[0];
      if (flag) current.push(flag);
    }
  }
  return sections;
}

describe('docs/cli.md documents every command and flag, and nothing else', async () => {
  const helps = await everyHelp();
  const docs = documented();

  it.each(helps.map((h) => [h.path || '(platctl)', h] as const))('%s', (_name, h) => {
    const section = docs.get(h.path);
    expect(section, `docs/cli.md has no section "## \`platctl ${h.path}\`"`).toBeDefined();
    expect([...section!].sort()).toEqual(helpFlags(h.help).sort());
  });

  it('has no section for a command that does not exist', () => {
    const paths = new Set(helps.map((h) => h.path));
    expect([...docs.keys()].filter((k) => !paths.has(k))).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 24, item 4: the README's content moved into docs/, one page per task; every relative link
// of the README and of docs/ still lands on a file, and on a heading of it where it names one.

const repo = fileURLToPath(new URL('../', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
}

describe('links between the README and docs/', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = readFileSync(join(repo, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto
      const [path, anchor] = target.split('#');
      const file = path ? join(repo, dirname(page), path) : join(repo, page);
      if (!existsSync(file)) broken.push(target);
      else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});

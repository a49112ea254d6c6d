#!/usr/bin/env node
// Keeps ONE platctl plan comment on a pull request (GitHub) or merge request (GitLab): the first
// run creates it, every later push updates it in place. Ships with platctl (examples/ci/), so CI
// runs it from the installed package. Node 20+, no dependencies.
//
//   node sticky-comment.mjs github plan.md   # GITHUB_API_URL, GITHUB_REPOSITORY, PR_NUMBER, GITHUB_TOKEN
//   node sticky-comment.mjs gitlab plan.md   # CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, GITLAB_TOKEN
import { readFileSync } from 'node:fs';

const MARKER = '<!-- platctl-plan -->';
const [forge, file] = process.argv.slice(2);
const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`sticky-comment: ${name} is not set`);
  return v;
};
const body = `${MARKER}\n${readFileSync(file, 'utf8')}`;

async function call(method, url, headers, payload) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  if (!res.ok) throw new Error(`sticky-comment: ${method} ${new URL(url).pathname}: ${res.status}`);
  return res.json();
}

if (forge === 'github') {
  const api = `${env('GITHUB_API_URL')}/repos/${env('GITHUB_REPOSITORY')}`;
  const auth = { authorization: `Bearer ${env('GITHUB_TOKEN')}`, accept: 'application/vnd.github+json' };
  const comments = await call('GET', `${api}/issues/${env('PR_NUMBER')}/comments?per_page=100`, auth);
  const mine = comments.find((c) => String(c.body).startsWith(MARKER));
  if (mine) await call('PATCH', `${api}/issues/comments/${mine.id}`, auth, { body });
  else await call('POST', `${api}/issues/${env('PR_NUMBER')}/comments`, auth, { body });
  console.log(mine ? `updated comment ${mine.id}` : 'created the plan comment');
} else if (forge === 'gitlab') {
  const api = `${env('CI_API_V4_URL')}/projects/${env('CI_PROJECT_ID')}/merge_requests/${env('CI_MERGE_REQUEST_IID')}/notes`;
  const auth = { 'private-token': env('GITLAB_TOKEN') };
  const notes = await call('GET', `${api}?per_page=100`, auth);
  const mine = notes.find((n) => String(n.body).startsWith(MARKER));
  if (mine) await call('PUT', `${api}/${mine.id}`, auth, { body });
  else await call('POST', api, auth, { body });
  console.log(mine ? `updated note ${mine.id}` : 'created the plan note');
} else {
  throw new Error('usage: sticky-comment.mjs github|gitlab FILE');
}

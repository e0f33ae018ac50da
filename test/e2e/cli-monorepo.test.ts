/**
 * The built `bin/dsh-mcp.js` in a three-level monorepo (needs `npm run
 * build`): `explain` traces a root server disabled in a package, `add` in a
 * package with two candidate files and no terminal fails in one line, and
 * `add --file` names the root file relative to the working directory.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { runBin } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('bin: explain, an ambiguous add refused without a terminal, add --file to the root', async () => {
  const home = makeTempDir('dsh-mcp-bin-mono-')
  const repo = makeProject({
    '.dsh/mcp.yml': 'servers:\n  memory: { command: root-memory }\n',
    'packages/a/.dsh/mcp.yml': 'disable: [memory]\nservers:\n  own: { command: a-own }\n',
    'packages/a/sub/.keep': '',
  })
  const sub = repo.join('packages/a/sub')
  const run = (args: string[]) => runBin(args, { cwd: sub, dshHome: home.join('.dsh'), home: home.path })

  const explained = await run(['explain', 'memory'])
  assert.equal(explained.code, 0, explained.stderr)
  assert.match(explained.stdout, /^memory: disabled by \.\.\/\.dsh\/mcp\.yml\n {2}→ disables/)
  assert.match(explained.stdout, /defines +\.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml +\(project, 2 levels up\)/)

  const asked = await run(['add', 'fresh', 'fresh-server'])
  assert.equal(asked.code, 1)
  assert.equal(asked.stderr.trimEnd().split('\n').length, 1, asked.stderr)
  assert.match(asked.stderr, /\.\.\/\.dsh\/mcp\.yml, \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml .*--file/)

  const written = await run(['add', 'fresh', 'fresh-server', '--file', '../../../.dsh/mcp.yml'])
  assert.equal(written.code, 0, written.stderr)
  assert.match(written.stderr, /^Added stdio server "fresh" to \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml$/m)
  assert.match(readFileSync(repo.join('.dsh/mcp.yml'), 'utf8'), /fresh:/)
})

/** What git makes of a file: tracked, ignored, or cannot be told — asked of the repository that would commit it. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { gitIgnores, gitTracks } from '../../src/files/git-tracked.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' }
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, env, stdio: 'ignore' })

test('tracked, ignored, neither; outside any repository: cannot be told', () => {
  const d = makeTempDir()
  const repo = d.mkdir('repo')
  git(repo, 'init', '-q')
  mkdirSync(join(repo, '.dsh'))
  writeFileSync(join(repo, '.dsh', 'mcp.yml'), '')
  writeFileSync(join(repo, '.dsh', 'mcp.local.yml'), '')
  writeFileSync(join(repo, '.dsh', '.gitignore'), 'mcp.local.yml\n')
  git(repo, 'add', '.dsh/mcp.yml', '.dsh/.gitignore')
  assert.equal(gitTracks(join(repo, '.dsh', 'mcp.yml'), env), true)
  assert.equal(gitTracks(join(repo, '.dsh', 'mcp.local.yml'), env), false)
  assert.equal(gitIgnores(join(repo, '.dsh', 'mcp.local.yml'), env), true)
  assert.equal(gitIgnores(join(repo, '.dsh', 'mcp.yml'), env), false)
  const loose = d.write('loose/x.yml', '')
  assert.equal(gitTracks(loose, env), undefined)
  assert.equal(gitIgnores(loose, env), undefined)
})

test('no git on the absolute PATH entries: cannot be told, never thrown', () => {
  const d = makeTempDir()
  const repo = d.mkdir('repo')
  git(repo, 'init', '-q')
  const file = d.write('repo/a.yml', '')
  assert.equal(gitTracks(file, { PATH: 'relative/bin:/nonexistent' }), undefined)
})

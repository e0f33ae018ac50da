/** A project as the CLI sees it: its root, present layer files and merged rows, read fresh on every call. */
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { loadProject } from '../../src/files/project.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('root found from a subdirectory; layers and rows merged; a later edit is seen', () => {
  const d = makeTempDir()
  const root = d.mkdir('home/proj')
  mkdirSync(join(root, '.git'))
  mkdirSync(join(root, '.dsh'))
  mkdirSync(join(root, 'src', 'deep'), { recursive: true })
  writeFileSync(join(root, '.dsh', 'mcp.yml'), 'servers:\n  a: {command: node}\n')
  const loc = { home: d.join('home'), dshHome: d.join('home', '.dsh') }
  const view = loadProject(join(root, 'src', 'deep'), loc)
  assert.equal(view.root.root, root)
  assert.deepEqual(
    view.rows.map((r) => r.name),
    ['a'],
  )
  writeFileSync(join(root, '.dsh', 'mcp.local.yml'), 'servers:\n  b: {command: node}\n')
  assert.deepEqual(
    loadProject(root, loc)
      .rows.map((r) => r.name)
      .sort(),
    ['a', 'b'],
  )
})

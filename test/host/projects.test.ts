/**
 * Project files across reconciles (src/host/projects.ts): a file whose bytes
 * did not change keeps its parsed generation (the plan memo then reuses the
 * project's judgement); any other change — even to bytes of the same size
 * within the same timestamp — is parsed again; a removed file contributes
 * nothing.
 */
import assert from 'node:assert/strict'
import { rmSync, utimesSync } from 'node:fs'
import { after, test } from 'node:test'
import { createProjects } from '../../src/host/projects.ts'
import type { Log } from '../../src/host/log.ts'
import { friendly } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const silent: Log = { info() {}, warn() {}, error() {}, debug() {}, once() {}, forget() {} }

test('unchanged bytes keep the parsed layer; same-size other bytes at the same mtime are parsed again', () => {
  const home = makeTempDir('dsh-mcp-home-')
  const p = makeProject({ '.dsh/mcp.yml': friendly({ s: { command: 'node', args: ['a.js'] } }) })
  const file = p.join('.dsh', 'mcp.yml')
  const projects = createProjects({
    loc: { dshHome: home.path, home: home.path },
    legacyMcpJson: true,
    userLayer: false,
    graceMs: 60_000,
    log: silent,
    onExpire() {},
  })
  projects.ensure(p.path)
  const first = projects.get(p.path)!.layers
  assert.equal(first.length, 1)
  const argsOf = () => projects.get(p.path)!.layers[0]?.parsed.entries[0]?.entry?.args

  projects.load(p.path)
  assert.equal(projects.get(p.path)!.layers[0], first[0], 'nothing changed: the same generation')

  const stamp = new Date()
  p.write('.dsh/mcp.yml', friendly({ s: { command: 'node', args: ['a.js'] } }))
  utimesSync(file, stamp, stamp)
  projects.load(p.path)
  assert.equal(projects.get(p.path)!.layers[0], first[0], 'rewritten with the same bytes: not parsed again')

  p.write('.dsh/mcp.yml', friendly({ s: { command: 'node', args: ['b.js'] } }))
  utimesSync(file, stamp, stamp)
  projects.load(p.path)
  assert.notEqual(projects.get(p.path)!.layers[0], first[0])
  assert.deepEqual(argsOf(), ['b.js'], 'other bytes of the same size and mtime are parsed')

  rmSync(file)
  projects.load(p.path)
  assert.deepEqual(projects.get(p.path)!.layers, [], 'a removed file contributes nothing')
  projects.dispose()
})

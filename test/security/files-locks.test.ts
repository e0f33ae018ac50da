/**
 * A planted lock path never makes a writer hang or follow it. A symbolic
 * link at `.dsh/mcp.yml.lock` — to a directory, to `/dev/null`, dangling, to
 * a file elsewhere — or a regular file there (and the same at
 * `.dsh/mcp.local.yml.lock`): `dsh-mcp add`, `remove`, `disable` refuse at once with exit 1 and one line naming the lock path and
 * the link's target; the config file and the link's target are
 * byte-identical, the link is still the same link, nothing was created
 * beside it. The same at the trust store's lock (`$DSH_HOME/mcp-trust.json.lock`)
 * for `trust` and for the trust `add` records: the store is untouched.
 * The real CLI; its own 30 s child timeout is what a hang would hit.
 */
import assert from 'node:assert/strict'
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { friendly } from '../support/runtime.ts'
import { makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'

interface Planted {
  name: string
  /** Plant it at `lock`; returns the link target (or undefined for a plain file) and a snapshot function of what it points at. */
  plant(lock: string, elsewhere: TempDir): { target: string | undefined; snapshot(): string }
}

const PLANTS: Planted[] = [
  {
    name: 'a link to a directory',
    plant(lock, elsewhere) {
      const dir = elsewhere.mkdir(`dir-${Math.random().toString(36).slice(2)}`)
      symlinkSync(dir, lock)
      return { target: dir, snapshot: () => readdirSync(dir).join(',') }
    },
  },
  {
    name: 'a link to /dev/null',
    plant(lock) {
      symlinkSync('/dev/null', lock)
      return { target: '/dev/null', snapshot: () => String(lstatSync('/dev/null').isCharacterDevice()) }
    },
  },
  {
    name: 'a dangling link',
    plant(lock, elsewhere) {
      const target = elsewhere.join(`missing-${Math.random().toString(36).slice(2)}`)
      symlinkSync(target, lock)
      return { target, snapshot: () => String(readdirSync(elsewhere.path).length) }
    },
  },
  {
    name: 'a link to a file elsewhere',
    plant(lock, elsewhere) {
      const file = elsewhere.write(`file-${Math.random().toString(36).slice(2)}`, 'precious\n')
      symlinkSync(file, lock)
      return { target: file, snapshot: () => readFileSync(file, 'utf8') }
    },
  },
  {
    // What a checkout can commit (git keeps no empty directory): a writer waited 30 s on it, then failed with ENOTEMPTY.
    name: 'a directory holding a file',
    plant(lock) {
      mkdirSync(lock)
      writeFileSync(`${lock}/keep`, '')
      return { target: undefined, snapshot: () => readdirSync(lock).join(',') }
    },
  },
  {
    name: 'a regular file',
    plant(lock) {
      writeFileSync(lock, 'not a lock\n')
      return { target: undefined, snapshot: () => readFileSync(lock, 'utf8') }
    },
  },
]

function oneLineNaming(stderr: string, lock: string, target: string | undefined): void {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => l.includes(lock))
  assert.equal(lines.length, 1, `one line names the lock: ${stderr}`)
  if (target) assert.ok(lines[0]?.includes(target), `the line names the target ${target}: ${stderr}`)
}

/** Which file's lock is planted, and the writes that go to that file. */
const TARGETS: { file: string; writes: string[][] }[] = [
  {
    file: 'mcp.yml',
    writes: [
      ['add', 'other', '--', 'echo', 'x'],
      ['remove', 'srv'],
    ],
  },
  // disable writes the (not yet existing) local file: refused before it is created.
  { file: 'mcp.local.yml', writes: [['disable', 'srv']] },
]

for (const p of PLANTS) {
  test(`project file lock is ${p.name}: add, remove, disable refuse at once; nothing lost or followed`, async () => {
    for (const t of TARGETS) {
      const elsewhere = makeTempDir('dsh-mcp-lock-elsewhere-')
      const home = makeTempDir('dsh-mcp-lock-home-')
      const project = makeProject({
        '.dsh/mcp.yml': `# keep me\n${friendly({ srv: { command: 'echo', args: ['hi'] } })}`,
      })
      const lock = project.join('.dsh', `${t.file}.lock`)
      const planted = p.plant(lock, elsewhere)
      const before = readFileSync(project.join('.dsh', 'mcp.yml'))
      const seen = planted.snapshot()
      const entries = readdirSync(project.join('.dsh')).sort()
      const o = { cwd: project.path, dshHome: home.path, home: home.path }
      for (const args of t.writes) {
        const r = await runCli(args, o)
        assert.equal(r.code, 1, `${args[0]}: ${r.stdout}${r.stderr}`)
        oneLineNaming(r.stderr, lock, planted.target)
        assert.deepEqual(
          readFileSync(project.join('.dsh', 'mcp.yml')),
          before,
          `${args[0]} left mcp.yml byte-identical`,
        )
        assert.equal(planted.snapshot(), seen, `${args[0]} left the target alone`)
        if (planted.target !== undefined) assert.equal(readlinkSync(lock), planted.target, 'the link is untouched')
        assert.deepEqual(readdirSync(project.join('.dsh')).sort(), entries, 'nothing created beside it')
      }
    }
  })

  test(`trust store lock is ${p.name}: trust and the trust add records refuse at once; the store is untouched`, async () => {
    const elsewhere = makeTempDir('dsh-mcp-lock-elsewhere-')
    const home = makeTempDir('dsh-mcp-lock-home-')
    const store = home.write('mcp-trust.json', `${JSON.stringify({ version: 1, projects: {} }, null, 2)}\n`)
    const storeBefore = readFileSync(store)
    const lock = `${store}.lock`
    const planted = p.plant(lock, elsewhere)
    const seen = planted.snapshot()
    const project = makeProject({ '.dsh/mcp.yml': friendly({ srv: { command: 'echo', args: ['hi'] } }) })
    const o = { cwd: project.path, dshHome: home.path, home: home.path }
    const trust = await runCli(['trust', '--all', '--yes'], o)
    assert.equal(trust.code, 1, trust.stdout + trust.stderr)
    oneLineNaming(trust.stderr, lock, planted.target)
    assert.doesNotMatch(trust.stderr, /ENOTDIR|EEXIST|ELOCKED/)
    const add = await runCli(['add', 'other', '--', 'echo', 'x'], o)
    assert.match(add.stderr, /could not record trust .*refusing to write the trust store/)
    oneLineNaming(add.stderr, lock, planted.target)
    assert.deepEqual(readFileSync(store), storeBefore, 'the store is byte-identical')
    assert.equal(planted.snapshot(), seen, 'the target is untouched')
    if (planted.target !== undefined) assert.equal(readlinkSync(lock), planted.target, 'the link is untouched')
    assert.deepEqual(
      readdirSync(home.path)
        .filter((f) => f.startsWith('mcp-trust'))
        .sort(),
      ['mcp-trust.json', 'mcp-trust.json.lock'],
    )
  })
}

/**
 * Bad input (docs/guide/layers.md, "Bad input never costs a working
 * server"): every malformed file of the corpus, written to a real file and
 * read through `readConfigFile`, gives exactly one clear first error with
 * its code, line, column and field path — never a stack trace, never a
 * secret — and the file's valid entries are still returned.
 *
 * Unreadable file: tests often run as root, for whom chmod 000 is still
 * readable. The case then reads the file in a child process running as the
 * unprivileged uid/gid 65534 (nobody), with the directories above the file
 * opened to it (0755), so the file itself — not its directory — is what
 * cannot be read. That child must not depend on where the clone lives (a
 * clone under a 0700 directory is out of nobody's reach): it runs the reader
 * bundled (esbuild) into a 0755 temp directory, on the first Node binary
 * nobody can run (this one, the system's, or a copy of this one in that
 * directory); with none, the case is skipped and says why. As a normal user
 * the same case reads it in process.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { after, describe, it, type TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { formatDiagnostic } from '../../src/config/diagnostics.ts'
import type { FileFormat } from '../../src/config/parse.ts'
import { allDiagnostics } from '../../src/config/parse.ts'
import { type ReadResult, readConfigFile } from '../../src/files/read.ts'
import { BAD_CASES, type BadCase, CANARY } from '../fixtures/config/bad-input-cases.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const READ_FILE = fileURLToPath(new URL('../fixtures/config/read-file.ts', import.meta.url))
const NOBODY = 65534

function formatOf(file: BadCase['file']): FileFormat {
  return file.endsWith('.json') ? 'mcpServers' : 'friendly'
}

/** How uid 65534 runs the reader: a Node binary and a bundled script it can reach, or why it cannot. */
type NobodyReader = { node: string; script: string } | { skip: string }
let nobodyReader: NobodyReader | undefined

function runsAsNobody(node: string, args: readonly string[]): boolean {
  return spawnSync(node, args, { uid: NOBODY, gid: NOBODY, stdio: 'ignore', timeout: 20_000 }).status === 0
}

function findNobodyReader(): NobodyReader {
  const dir = makeTempDir('dsh-mcp-nobody-')
  chmodSync(dir.path, 0o755)
  const script = dir.join('read-file.cjs')
  // esbuild (the CLI bundler) inlines the reader's imports, so nothing under the clone is read.
  buildSync({
    entryPoints: [READ_FILE],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  })
  chmodSync(script, 0o644)
  const copy = (): string => {
    const node = dir.join('node')
    copyFileSync(realpathSync(process.execPath), node)
    chmodSync(node, 0o755)
    return node
  }
  for (const candidate of [() => process.execPath, () => '/usr/bin/node', () => '/usr/local/bin/node', copy]) {
    const node = candidate()
    if (runsAsNobody(node, [script, dir.join('absent.yml'), 'friendly'])) return { node, script }
  }
  return {
    skip: `no Node binary with the bundled reader in ${dir.path} runs as uid ${NOBODY} (is ${path.dirname(dir.path)} searchable by others?)`,
  }
}

/** Build the case on disk and read it (`undefined`: skipped, with the reason given to `t`). */
function readCase(c: BadCase, t: TestContext): { file: string; result: ReadResult } | undefined {
  const project = makeProject()
  const file = project.join(c.file)
  mkdirSync(path.dirname(file), { recursive: true })
  const format = formatOf(c.file)
  switch (c.special) {
    case 'directory':
      mkdirSync(file)
      break
    case 'fifo':
      execFileSync('mkfifo', [file])
      break
    case 'symlink-loop':
      symlinkSync(`${file}.b`, file)
      symlinkSync(file, `${file}.b`)
      break
    case 'symlink-dangling':
      symlinkSync(project.join('nowhere.json'), file)
      break
    case 'unreadable': {
      project.write(c.file, c.content ?? '')
      chmodSync(file, 0o000)
      if (process.getuid?.() !== 0) return { file, result: readConfigFile({ file, format }) }
      nobodyReader ??= findNobodyReader()
      if ('skip' in nobodyReader) {
        t.skip(nobodyReader.skip)
        return undefined
      }
      t.diagnostic(`read as uid ${NOBODY} by ${nobodyReader.node}`)
      for (let d = path.dirname(file); d.startsWith(project.path); d = path.dirname(d)) chmodSync(d, 0o755)
      const child = spawnSync(nobodyReader.node, [nobodyReader.script, file, format], {
        uid: NOBODY,
        gid: NOBODY,
        encoding: 'utf8',
        timeout: 20_000,
      })
      assert.equal(child.status, 0, `child as uid ${NOBODY} failed: ${child.error?.message ?? child.stderr}`)
      const out = JSON.parse(child.stdout) as { statable: boolean; result: ReadResult }
      assert.equal(out.statable, true, 'the directories must be searchable: only the file itself is unreadable')
      return { file, result: out.result }
    }
    default:
      project.write(c.file, c.content ?? '')
  }
  return { file, result: readConfigFile({ file, format }, { allowPartial: c.file === '.dsh/mcp.local.yml' }) }
}

describe('bad-input corpus', () => {
  it('has at least 30 cases with distinct names', () => {
    assert.ok(BAD_CASES.length >= 30)
    assert.equal(new Set(BAD_CASES.map((c) => c.name)).size, BAD_CASES.length)
  })
  for (const c of BAD_CASES) {
    it(c.name, { timeout: 60_000 }, (t) => {
      const read = readCase(c, t)
      if (read === undefined) return
      const { file, result } = read
      assert.equal(result.absent, false, 'a present (if broken) file is never "absent"')
      if (result.absent) return
      const parsed = result.parsed
      const all = allDiagnostics(parsed)
      const errors = all.filter((d) => d.severity === 'error')
      assert.equal(errors.length, 1, `exactly one error:\n${all.map((d) => formatDiagnostic(d)).join('\n')}`)
      const e = errors[0]!
      assert.deepEqual(
        { code: e.code, line: e.line, col: e.col, path: e.path },
        { code: c.code, line: c.line, col: c.col, path: c.path },
        formatDiagnostic(e),
      )
      assert.equal(e.file, file)
      assert.match(e.message, c.message)
      // The file's valid entries survive; a file-level error keeps none.
      assert.equal(parsed.ok, c.valid.length > 0)
      assert.deepEqual(
        parsed.entries.filter((x) => x.entry).map((x) => x.name),
        c.valid,
      )
      if (c.valid.includes('ok')) assert.equal(parsed.entries.find((x) => x.name === 'ok')?.entry?.env?.TOKEN, CANARY)
      for (const d of all) {
        const line = formatDiagnostic(d)
        assert.ok(!line.includes(CANARY), `a secret leaked: ${line}`)
        assert.doesNotMatch(line, /\n|^\s+at |\bError:|\bat (?:Object|Module|file:)/m)
        assert.ok(line.startsWith(d.line > 0 ? `${file}:${d.line}:${d.col}: ` : `${file}: `), line)
      }
    })
  }
})

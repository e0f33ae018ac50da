// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${secret:NAME} templates
/**
 * The secret store's two real backends, through the built CLI as a process:
 * - no D-Bus (the file fallback): `secret set` reads the value from stdin,
 *   says it used the 0600 file and why, the directory is 0700, `list` names
 *   where it is stored and which servers use it, `rm` forgets it;
 * - a real Secret Service (gnome-keyring under `dbus-run-session`, unlocked by
 *   this test with a password on stdin): `set` uses the keychain, the value is
 *   in no file in plain text (the keyring's own file is encrypted); set again
 *   with no D-Bus it fails and writes no file (never a silent fall back).
 * In every case the value is in no output and no file under the test's dirs.
 * The keychain half is skipped where `dbus-run-session` or
 * `gnome-keyring-daemon` is missing (.ci/run installs both).
 */
import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { BIN, type CliRun, runBin } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'

after(cleanupAll)

const MCP =
  'servers:\n  api:\n    url: https://mcp.example.test/mcp\n    headers:\n      Authorization: Bearer ${secret:API_TOKEN}\n'
const canary = () => `cnry-${randomBytes(12).toString('hex')}`

/** Every file under `dirs` whose bytes hold `value` (or an 8-character piece of it). */
function filesHolding(value: string, dirs: string[]): string[] {
  const pieces = Array.from({ length: value.length - 7 }, (_, i) => value.slice(i, i + 8))
  const hits: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) {
        const text = readFileSync(p).toString('latin1')
        if (pieces.some((x) => text.includes(x))) hits.push(p)
      }
    }
  }
  for (const d of dirs) if (existsSync(d)) walk(d)
  return hits
}

/** `dsh-mcp <args>` with `stdin`, as a process without D-Bus (only PATH, HOME, DSH_HOME). */
function binWithStdin(args: string[], cwd: string, dshHome: string, stdin: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dshHome, '..'), DSH_HOME: dshHome } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    )
    child.stdin?.end(stdin)
  })
}

function setup(): { project: TempDir; home: TempDir; dshHome: string } {
  const project = makeProject({ '.dsh/mcp.yml': MCP })
  const home = makeTempDir('dsh-mcp-secrets-home-')
  return { project, home, dshHome: home.join('.dsh') }
}

describe('file backend (no D-Bus)', () => {
  it('set from stdin, 0600 file in a 0700 directory, list says where and who uses it, rm forgets it', async () => {
    const { project, home, dshHome } = setup()
    const value = canary()
    const set = await binWithStdin(['secret', 'set', 'API_TOKEN'], project.path, dshHome, `${value}\n`)
    assert.equal(set.code, 0, set.stderr)
    assert.match(set.stderr, /stored in the file .*values\.json \(mode 0600\)/)
    assert.match(set.stderr, /no keychain here/)
    const dir = join(dshHome, 'mcp-secrets')
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    assert.equal(statSync(join(dir, 'values.json')).mode & 0o777, 0o600)
    assert.ok(!readFileSync(join(dir, 'index.json'), 'utf8').includes(value), 'the index holds no value')
    const list = await runBin(['secret', 'list', '--json'], { cwd: project.path, dshHome })
    assert.equal(list.code, 0, list.stderr)
    const [row] = JSON.parse(list.stdout).secrets
    assert.deepEqual([row.name, row.scope, row.backend, row.usedBy], ['API_TOKEN', 'project', 'file', ['api']])
    const rows = await runBin(['list', '--json'], { cwd: project.path, dshHome })
    assert.ok(!rows.stdout.includes('secret set API_TOKEN'), 'no longer "not set"')
    for (const out of [set, list, rows]) assert.ok(!(out.stdout + out.stderr).includes(value))
    assert.deepEqual(
      filesHolding(value, [project.path, home.path]).filter((f) => !f.endsWith('values.json')),
      [],
      'only the 0600 value file holds the value',
    )
    const rm = await runBin(['secret', 'rm', 'API_TOKEN'], { cwd: project.path, dshHome })
    assert.equal(rm.code, 0, rm.stderr)
    assert.deepEqual(filesHolding(value, [project.path, home.path]), [])
    const again = await runBin(['secret', 'list'], { cwd: project.path, dshHome })
    assert.match(again.stderr, /API_TOKEN is not set: dsh-mcp secret set API_TOKEN/)
  })

  it('a value is never an argument, and --user scopes it to every project', async () => {
    const { project, dshHome } = setup()
    const extra = await runBin(['secret', 'set', 'API_TOKEN', 'sk-live-in-argv'], { cwd: project.path, dshHome })
    assert.equal(extra.code, 2)
    assert.ok(!existsSync(join(dshHome, 'mcp-secrets')))
    const set = await binWithStdin(['secret', 'set', '--user', 'API_TOKEN'], project.path, dshHome, canary())
    assert.equal(set.code, 0, set.stderr)
    const other = makeProject({ '.dsh/mcp.yml': MCP })
    const list = await runBin(['secret', 'list', '--json'], { cwd: other.path, dshHome })
    assert.equal(JSON.parse(list.stdout).secrets[0].scope, 'user')
  })
})

const STORE = new URL('../../src/secrets/store.ts', import.meta.url).href

/** A module body that reads API_TOKEN through the store's source (as the host does) and says whether it is $SECRET. */
function readBack(dshHome: string, root: string): string {
  return [
    `const { openSecretStore } = await import(${JSON.stringify(STORE)})`,
    `const v = openSecretStore({ dshHome: ${JSON.stringify(dshHome)} }).source(${JSON.stringify(root)}).read('API_TOKEN')`,
    `process.stdout.write(v === process.env.SECRET ? 'read back: same' : 'read back: different')`,
  ].join('; ')
}

const hasKeyring =
  spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon']).status === 0

describe('keychain backend (Secret Service under dbus-run-session)', {
  skip: !hasKeyring && 'no dbus-run-session or gnome-keyring-daemon',
}, () => {
  it('stores in the keychain, no file holds the value, and it never falls back to the file', async () => {
    const { project, home, dshHome } = setup()
    const value = canary()
    const out = home.join('out')
    // One session bus and one unlocked test keyring, both ended with dbus-run-session.
    const script = [
      'set -u',
      `export HOME=${JSON.stringify(home.path)} DSH_HOME=${JSON.stringify(dshHome)}`,
      'eval "$(printf %s test-keyring-password | gnome-keyring-daemon --unlock --components=secrets)"',
      `printf %s "$SECRET" | ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} secret set API_TOKEN > ${out}.set 2>&1; echo $? > ${out}.set.code`,
      `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} secret list --json > ${out}.list 2>&1`,
      // What the host does at mount time: the project's source reads the value back from the Secret Service.
      `${JSON.stringify(process.execPath)} --input-type=module -e ${JSON.stringify(readBack(dshHome, project.path))} > ${out}.read 2>&1`,
    ].join('\n')
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
      cwd: project.path,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SECRET: value },
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.equal(r.status, 0, `${r.stderr}\n${existsSync(`${out}.read`) ? readFileSync(`${out}.read`, 'utf8') : ''}`)
    const setText = readFileSync(`${out}.set`, 'utf8')
    assert.equal(readFileSync(`${out}.set.code`, 'utf8').trim(), '0', setText)
    assert.match(setText, /stored in the keychain \(Secret Service\)/)
    assert.equal(
      readFileSync(`${out}.read`, 'utf8'),
      'read back: same',
      'the host-side source reads the keychain value',
    )
    const [row] = JSON.parse(readFileSync(`${out}.list`, 'utf8')).secrets
    assert.equal(row.backend, 'keychain')
    assert.ok(!existsSync(join(dshHome, 'mcp-secrets', 'values.json')), 'no value file')
    // Set again where no keychain answers: an error, and still no file.
    const again = await binWithStdin(['secret', 'set', 'API_TOKEN'], project.path, dshHome, canary())
    assert.equal(again.code, 1)
    assert.match(again.stderr, /kept in the keychain .*not written to a file/)
    assert.ok(!existsSync(join(dshHome, 'mcp-secrets', 'values.json')), 'never a silent fall back to the file')
    assert.ok(!(r.stdout + r.stderr + setText + again.stderr).includes(value))
    assert.deepEqual(
      filesHolding(value, [project.path, home.path]),
      [],
      'the keyring file is encrypted; no file holds it',
    )
  })
})

/**
 * A real npm registry for a test: verdaccio (registry-server.ts) in a child process on 127.0.0.1, a free
 * port, its storage in a temp dir, no uplinks — nothing leaves the machine — with the fixture packages of
 * test/fixtures/packages/ published to it by the real `npm publish`. Every npm run and every lock, prepare
 * or outdated of the test uses `env` (a private npm userconfig naming this registry and a private npm
 * cache, a private HOME): nothing reads or writes the user's `~/.npm` or `~/.npmrc`.
 *
 * `const reg = await startRegistry()` → `reg.env`, `reg.url`; `await reg.publishServer('1.0.0')`
 * (also '1.0.1': the tool description changed; '1.0.2': an install script that writes
 * `reg.installMarker`); `await reg.stop()` — call it in the file's top-level `after` (killed on the
 * process's exit in any case). The dependency
 * `lock-fixture-dep@1.0.0` is published at start.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { makeTempDir, type TempDir } from './tmp.ts'
import { settles } from './wait.ts'

const PACKAGES = fileURLToPath(new URL('../fixtures/packages/', import.meta.url))
const SERVER_SRC = fileURLToPath(new URL('./registry-server.ts', import.meta.url))

export type FixtureVersion = '1.0.0' | '1.0.1' | '1.0.2'

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string
  /** Environment for npm and for dsh-mcp: private userconfig, cache and HOME; PATH kept. */
  env: Record<string, string>
  /** Where the 1.0.2 install script would write (absent unless an install script ran). */
  installMarker: string
  /** The temp dir of this registry (storage, npm cache, userconfig, home). */
  dir: TempDir
  /** Publish a version of the fixture server, under dist-tag `tag` (default `latest`: it moves). */
  publishServer(version: FixtureVersion, tag?: string): Promise<void>
  /** Stop the registry (resolves when its process has exited). */
  stop(): Promise<void>
}

let bundled: string | undefined

/** The fixture server bundled once per process (the SDK inlined; the registry has no uplinks to serve it). */
async function bundle(dir: TempDir): Promise<string> {
  if (bundled && existsSync(bundled)) return bundled
  const esbuild = await import('esbuild')
  const out = dir.join('server-bundle.js')
  await esbuild.build({
    entryPoints: [path.join(PACKAGES, 'lock-fixture-server', 'server.mts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['lock-fixture-dep'],
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  })
  bundled = out
  return out
}

function run(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')}: ${code}\n${err}`)),
    )
  })
}

export async function startRegistry(): Promise<LocalRegistry> {
  const dir = makeTempDir('dsh-mcp-registry-')
  const home = dir.mkdir('home')
  const child: ChildProcess = spawn(process.execPath, ['--no-warnings', SERVER_SRC, dir.mkdir('verdaccio')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true
      resolve()
    }),
  )
  const stop = async () => {
    if (!exited) child.kill('SIGTERM')
    await settles(exit, 'the registry stops')
  }
  // A safety net: the registry never outlives the test process (the test stops it in its own `after`).
  process.once('exit', () => exited || child.kill('SIGKILL'))
  const line = await settles(
    new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve)
      child.once('exit', () => reject(new Error('the registry exited before listening')))
    }),
    'the registry listens',
  )
  const port = Number(/^port (\d+)$/.exec(line)?.[1])
  const url = `http://127.0.0.1:${port}/`
  const res = await fetch(`${url}-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'tester-pass' }),
  })
  const { token } = (await res.json()) as { token: string }
  const npmrc = dir.join('npmrc')
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`)
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    npm_config_userconfig: npmrc,
    npm_config_cache: dir.mkdir('npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  }
  const installMarker = dir.join('install-script-ran')
  const publish = (pkgDir: string, tag = 'latest') =>
    run('npm', ['publish', '--ignore-scripts', '--tag', tag, pkgDir], env, dir.path)

  const depDir = dir.join('pub-dep')
  cpSync(path.join(PACKAGES, 'lock-fixture-dep'), depDir, { recursive: true })
  await publish(depDir)

  return {
    url,
    env,
    installMarker,
    dir,
    stop,
    async publishServer(version, tag) {
      const out = dir.join(`pub-server-${version}`)
      mkdirSync(path.join(out, 'bin'), { recursive: true })
      copyFileSync(await bundle(dir), path.join(out, 'bin', 'server.js'))
      const pkg = JSON.parse(readFileSync(path.join(PACKAGES, 'lock-fixture-server', 'package.json'), 'utf8'))
      pkg.version = version
      if (version === '1.0.1') pkg.lockFixture.description = 'Say hello (v1.0.1: changed)'
      if (version === '1.0.2') {
        pkg.scripts = { install: 'node install.js' }
        pkg.files.push('install.js')
        writeFileSync(
          path.join(out, 'install.js'),
          `require('fs').appendFileSync(${JSON.stringify(installMarker)}, 'install script ran\\n')\n`,
        )
      }
      writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
      await publish(out, tag)
    },
  }
}

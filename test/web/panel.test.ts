/**
 * The `dsh web` panel in a real browser (issue 15): the real rc.8 `dsh web`
 * (HMR patch) with the packed plugin in its web profile, two projects A and
 * B seeded as workspaces, headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser download). A session in B shows the header
 * chip (one server not running, tooltip says which and why); the sidebar
 * panel lists B first, then A, with state, lifecycle and the exact trust
 * command; the route carries no env value or command line, and opening the
 * panel starts nothing (A's untrusted server never spawns). Trusting B with
 * the CLI updates the row and removes the chip without a reload. Light and
 * dark screenshots land in docs/guide/images/ (used by docs/guide/status.md);
 * a browser preferring Chinese gets the Chinese labels.
 *
 * Without /usr/bin/chromium (or $CHROMIUM) the test is skipped with a message.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { newestStatusFile } from '../support/trust.ts'
import { readMarker } from '../support/procs.ts'
import { type DshCli, NODE22, REPO_ROOT, type RunResult, describeRun, runDsh, runIsolated } from '../support/dsh-cli.ts'
import type { FakeModel } from '../support/fake-model.ts'
import { type TempDir, makeProject, makeTempDir } from '../support/tmp.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { waitFor } from '../support/wait.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'
const HAVE_BROWSER = existsSync(CHROMIUM)
if (!HAVE_BROWSER)
  console.log(`# SKIP test/web/panel.test.ts: no browser at ${CHROMIUM} (install Debian's chromium, or set $CHROMIUM)`)
const IMAGES = join(REPO_ROOT, 'docs', 'guide', 'images')
const SECRET = 'sk-web-panel-secret-4711'

let e2e: PackedPlugin | undefined
let cli: DshCli
let model: FakeModel
let work: TempDir
let baseEnv: Record<string, string>
let pidDir: string
let shippedCli: string
let a: TempDir
let b: TempDir
let markerA: string
let web: Promise<RunResult> | undefined
let base = ''

function project(server: string, tools: string[], extra: string): TempDir {
  const args = stdioFixtureArgs({
    name: server,
    tools,
    pidfileDir: pidDir,
    ...(server === 'alpha' ? { marker: markerA } : {}),
  })
  const yml = `servers:\n  ${server}:\n    command: ${JSON.stringify(NODE22)}\n    args: ${JSON.stringify(args)}\n${extra}`
  return makeProject({ '.dsh/mcp.yml': yml, '.git/HEAD': 'ref: refs/heads/main\n' }, `dsh-web-${server}-`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** The rc.8 workspace registry file (`$DSH_HOME/storages/workspace.json`) with A and B as workspaces. */
function seedWorkspaces(dshHome: string, dirs: Record<string, string>): void {
  const now = new Date().toISOString()
  const ids = Object.keys(dirs)
  const workspaces = Object.fromEntries(
    ids.map((id) => [id, { path: realpathSync(dirs[id]!), title: id, sessionIds: [], createdAt: now, updatedAt: now }]),
  )
  mkdirSync(join(dshHome, 'storages'), { recursive: true })
  writeFileSync(
    join(dshHome, 'storages', 'workspace.json'),
    JSON.stringify(
      {
        unit: { name: 'workspace', version: 2 },
        global: { initialized: true, workspaceIds: ids, archivedSessionIds: [] },
        tables: { workspaces },
      },
      null,
      2,
    ),
  )
}

before(async () => {
  if (!HAVE_BROWSER) return
  e2e = await installPackedPlugin({ prefix: 'dsh-web-', profile: 'web' })
  ;({ cli, model, work, pidDir, env: baseEnv, shippedCli } = e2e)
  model.respond(() => ({ text: 'hello from the fake model' }))
  markerA = work.join('alpha.marker')
  a = project('alpha', ['echo'], '')
  b = project('bravo', ['echo', 'add'], `    env:\n      API_TOKEN: ${SECRET}\n`)
  seedWorkspaces(baseEnv.DSH_HOME!, { projA: a.path, projB: b.path })
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  web = runDsh(cli, ['web', '--patch', e2e.hostPatch, '--no-open', '--port', String(port)], {
    cwd: a.path,
    env: { ...baseEnv, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-web' },
    timeoutMs: 600_000,
  })
  await waitFor(
    async () => {
      try {
        return (await fetch(`${base}/api/dsh-project-mcp/status`)).ok
      } catch {
        return false
      }
    },
    { timeoutMs: 60_000, intervalMs: 200, message: `dsh web answered ${base}/api/dsh-project-mcp/status` },
  )
})

after(() => e2e?.close())

const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

test('the panel and the chip in a real browser: rows, chip, no secrets, a live change after trusting with the CLI', {
  skip: HAVE_BROWSER ? false : `no browser at ${CHROMIUM}`,
}, async (t) => {
  const { chromium } = await import('playwright-core')
  const context = await chromium.launchPersistentContext(makeTempDir('dsh-web-chromium-').path, {
    executablePath: CHROMIUM,
    args: launchArgs,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    locale: 'en-US',
  })
  t.after(() => context.close())
  const page = context.pages()[0] ?? (await context.newPage())
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(`${base}/`)

  // A session in B (the workspace row's "New session" control), with one message so the session header renders.
  const continueButton = page.getByRole('button', { name: 'Continue' })
  const tree = page.getByRole('tree', { name: 'Sessions' })
  const projB = tree.getByText('projB', { exact: true })
  await projB.waitFor({ timeout: 60_000 })
  // The host's first-run dialog can open late on a busy machine, after the tree shows: hover until
  // nothing covers the row, dismissing the dialog (its Continue button, else Escape) whenever it is up.
  await waitFor(
    async () => {
      if (await continueButton.isVisible()) await continueButton.click().catch(() => {})
      else if (await page.locator('[role="presentation"]').first().isVisible()) await page.keyboard.press('Escape')
      return projB.hover({ timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    },
    { timeoutMs: 90_000, intervalMs: 250, message: 'the projB row can be hovered (no dialog over it)' },
  )
  await page.getByRole('button', { name: 'New session in projB' }).click({ force: true })
  // The composer names the session's workspace once the new session is B's.
  await waitFor(
    async () => ((await page.getByRole('button', { name: 'Choose workspace' }).textContent()) ?? '').includes('projB'),
    {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'the new session is in projB',
    },
  )
  const input = page.locator('textarea, [contenteditable=true]').first()
  await input.fill('hello')
  await page.keyboard.press('Enter')

  const chip = page.locator('[data-project-mcp-chip]')
  await chip.waitFor({ timeout: 60_000 })
  assert.equal(await chip.getAttribute('data-project-mcp-chip'), '1')
  assert.match((await chip.getAttribute('title')) ?? '', /^bravo: not trusted yet: review it, then trust it$/)

  await page.locator('[data-project-mcp-trigger]').click()
  const panel = page.locator('[data-project-mcp-panel]')
  await panel.waitFor()
  const roots = await panel
    .locator('[data-project-mcp-project]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-project-mcp-project')))
  assert.deepEqual(roots, [b.path, a.path], "the session's project first, then the other known one")
  const row = (root: string, name: string) => panel.locator(`[data-project-mcp-row="${name}"][data-root="${root}"]`)
  assert.equal(await row(b.path, 'bravo').getAttribute('data-state'), 'untrusted')
  assert.equal(await row(a.path, 'alpha').getAttribute('data-state'), 'untrusted')
  assert.equal(
    await row(b.path, 'bravo').locator('[data-project-mcp-fix]').textContent(),
    `dsh-mcp trust -C ${b.path} bravo`,
  )
  assert.equal(
    await row(a.path, 'alpha').locator('[data-project-mcp-fix]').textContent(),
    `dsh-mcp trust -C ${a.path} alpha`,
  )
  assert.match((await row(b.path, 'bravo').textContent()) ?? '', /waiting for trust.*eager.*Not trusted yet/)
  assert.equal(await row(b.path, 'bravo').locator('[data-project-mcp-copy]').count(), 1, 'a copy button')

  // The route: names, states, counts and reasons only; opening the panel started nothing.
  const routeText = await (await fetch(`${base}/api/dsh-project-mcp/status?cwd=${encodeURIComponent(b.path)}`)).text()
  assert.ok(!routeText.includes(SECRET), 'no env value')
  assert.ok(!routeText.includes('stdio-server.ts') && !routeText.includes(NODE22), 'no command line')
  assert.deepEqual(readMarker(markerA), [], "A's untrusted server never started")

  mkdirSync(IMAGES, { recursive: true })
  await page.mouse.move(900, 450)
  await page.screenshot({ path: join(IMAGES, 'status-panel-light.png') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.locator('body[data-ds-dark-theme]').waitFor({ state: 'attached', timeout: 30_000 })
  await page.screenshot({ path: join(IMAGES, 'status-panel-dark.png') })
  await page.emulateMedia({ colorScheme: 'light' })

  // Live: trust B with the CLI; the row and the chip follow without a reload.
  const trust = await runIsolated(NODE22, [shippedCli, 'trust', '--all', '--yes', '-C', b.path], {
    cwd: work.path,
    env: baseEnv,
  })
  assert.equal(trust.code, 0, describeRun(trust))
  await panel
    .locator(`[data-project-mcp-row="bravo"][data-root="${b.path}"][data-state="mounted"]`)
    .waitFor({ timeout: 60_000 })
  assert.match((await row(b.path, 'bravo').textContent()) ?? '', /running.*eager · 2 tools/)
  assert.equal(await row(b.path, 'bravo').locator('[data-project-mcp-fix]').count(), 0, 'no command once it runs')
  await chip.waitFor({ state: 'detached', timeout: 30_000 })
  assert.equal(await row(a.path, 'alpha').getAttribute('data-state'), 'untrusted', 'A is unchanged')
  assert.deepEqual(errors, [], 'no page error')

  // Chinese labels for a browser that prefers Chinese (the host UI follows the browser's language).
  const zh = await chromium.launchPersistentContext(makeTempDir('dsh-web-chromium-zh-').path, {
    executablePath: CHROMIUM,
    args: launchArgs,
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
  })
  t.after(() => zh.close())
  const zhPage = zh.pages()[0] ?? (await zh.newPage())
  await zhPage.goto(`${base}/`)
  const zhTrigger = zhPage.locator('[data-project-mcp-trigger]')
  await zhTrigger.waitFor({ timeout: 60_000 })
  assert.match((await zhTrigger.textContent()) ?? '', /MCP 服务器/)
  await zhTrigger.click({ force: true })
  const zhPanel = zhPage.locator('[data-project-mcp-panel]')
  await zhPanel.waitFor()
  assert.equal(await zhPanel.locator('h2').textContent(), '项目 MCP 服务器')
  assert.equal(
    await zhPanel
      .locator(`[data-project-mcp-row="bravo"][data-root="${b.path}"] [data-project-mcp-state]`)
      .textContent(),
    '运行中',
  )
  assert.equal(
    await zhPanel
      .locator(`[data-project-mcp-row="alpha"][data-root="${a.path}"] [data-project-mcp-state]`)
      .textContent(),
    '等待信任',
  )

  // Stop the host: SIGTERM, and it says so in the status file.
  const status = JSON.parse(readFileSync(newestStatusFile(baseEnv.DSH_HOME!, realpathSync(b.path))!, 'utf8')) as {
    pid: number
  }
  process.kill(status.pid, 'SIGTERM')
  const run = await web
  assert.notEqual(run?.signal, 'SIGKILL', run ? describeRun(run) : '')
})

/**
 * The packed plugin installed into a real `dsh` profile, for end-to-end
 * tests: the CLI (cached), a work dir with a pid dir, the tarball `npm pack`
 * makes, a fake model on 127.0.0.1, an isolated environment (`isolatedEnv`)
 * with its own HOME and `DSH_HOME`, the host patch that points the model row
 * at the fake, and `dsh plugin --profile <p> add <tarball>` (asserted to
 * exit 0). `shippedCli` is the `dsh-mcp` bin as the profile installed it.
 * `close()` ends what the run left (dsh children, fixtures, the model).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { packTarball } from './tarball.ts'
import {
  type DshCli,
  describeRun,
  ensureDshCli,
  installEnv,
  isolatedEnv,
  reapDshChildren,
  runDsh,
  writeHostPatch,
} from './dsh-cli.ts'
import { type FakeModel, startFakeModel } from './fake-model.ts'
import { reapAll } from './procs.ts'
import { cleanupAll, makeTempDir, type TempDir } from './tmp.ts'

export interface PackedPlugin {
  cli: DshCli
  model: FakeModel
  work: TempDir
  pidDir: string
  /** The isolated environment every `dsh` and `dsh-mcp` run of the test uses. */
  env: Record<string, string>
  hostPatch: string
  shippedCli: string
  close(): Promise<void>
}

export async function installPackedPlugin(opts: { prefix: string; profile?: string }): Promise<PackedPlugin> {
  const profile = opts.profile ?? 'headless'
  const cli = await ensureDshCli()
  const work = makeTempDir(opts.prefix)
  const pidDir = work.mkdir('pids')
  const tarball = packTarball(work.mkdir('pack'))
  const model = await startFakeModel()
  const home = work.mkdir('home')
  const env = isolatedEnv(cli, { home, dshHome: join(home, '.dsh') })
  const hostPatch = writeHostPatch(work.join('host.patch.yml'), model.baseURL)
  const add = await runDsh(cli, ['plugin', '--profile', profile, 'add', tarball.file], {
    cwd: home,
    env: { ...env, ...installEnv() },
    timeoutMs: 300_000,
  })
  assert.equal(add.code, 0, `dsh plugin add failed\n${describeRun(add)}`)
  const shippedCli = join(env.DSH_HOME!, 'profiles', profile, 'node_modules', 'dsh-project-mcp', 'bin', 'dsh-mcp.js')
  return {
    cli,
    model,
    work,
    pidDir,
    env,
    hostPatch,
    shippedCli,
    async close() {
      reapDshChildren()
      reapAll(pidDir)
      await model.close()
      cleanupAll()
    },
  }
}

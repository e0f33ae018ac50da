/**
 * Row 5 — watcher footprint.
 *
 * A project of 50,000 files in 2,000 directories (`a0..19/b0..8/c0..9`, 25
 * files each, plus `.dsh/mcp.yml`). Ours: the runtime's watcher
 * (src/watch/files.ts `watchFiles`) on that project's exact layer files.
 * Contrast: a chokidar watch of the project root at depth 2 (the closest
 * peer's approach). Both are started and closed in alternation in one
 * process; start time is `watch` → ready (median), handles are the kernel's
 * count of inotify watches this process holds while the watcher is up.
 * Ours is also run on a 3-file project with the same config, to show its
 * cost does not depend on the repository's size.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { watch } from 'chokidar'
import { projectLayerFiles } from '../../src/config/layers.ts'
import { watchFiles } from '../../src/watch/files.ts'
import { makeProject, type TempDir } from '../../test/support/tmp.ts'
import { inotifyWatches, settleTo } from '../support/inotify.ts'
import { friendlyYaml, plainServers } from '../support/projects.ts'
import { runRow } from '../support/report.ts'
import { fmt, median, ratio } from '../support/stats.ts'

const ROUNDS = 5
const FILES_PER_DIR = 25

/** 20 × 9 × 10 leaf directories under 20 + 180 inner ones: 2,000 directories, 50,000 files. */
function bigTree(project: TempDir): { dirs: number; files: number } {
  let dirs = 0
  let files = 0
  const fill = (dir: string) => {
    mkdirSync(dir, { recursive: true })
    dirs++
    for (let f = 0; f < FILES_PER_DIR; f++) {
      writeFileSync(path.join(dir, `file${f}.ts`), 'export {}\n')
      files++
    }
  }
  for (let a = 0; a < 20; a++) {
    fill(project.join(`a${a}`))
    for (let b = 0; b < 9; b++) {
      fill(project.join(`a${a}`, `b${b}`))
      for (let c = 0; c < 10; c++) fill(project.join(`a${a}`, `b${b}`, `c${c}`))
    }
  }
  return { dirs, files }
}

interface Sample {
  startMs: number
  handles: number | null
  watchedPaths: number
}

async function ours(root: string): Promise<Sample> {
  const before = inotifyWatches()
  const started = performance.now()
  const w = watchFiles({ onChange: () => {} })
  w.setFiles(projectLayerFiles(root).map((l) => l.file))
  await w.ready()
  const startMs = performance.now() - started
  const now = inotifyWatches()
  await w.close()
  await settleTo(before)
  return { startMs, handles: now === null || before === null ? null : now - before, watchedPaths: Number.NaN }
}

async function peer(root: string): Promise<Sample> {
  const before = inotifyWatches()
  const started = performance.now()
  const w = watch(root, { depth: 2, ignoreInitial: true, persistent: false })
  await new Promise<void>((resolve) => w.once('ready', () => resolve()))
  const startMs = performance.now() - started
  const now = inotifyWatches()
  const watched = w.getWatched()
  const watchedPaths = Object.values(watched).reduce((n, names) => n + names.length, 0)
  await w.close()
  await settleTo(before)
  return { startMs, handles: now === null || before === null ? null : now - before, watchedPaths }
}

await runRow('5', 'Watcher footprint', async (r) => {
  const config = { '.dsh/mcp.yml': friendlyYaml(plainServers(20)), 'package.json': '{}\n', 'README.md': '# big\n' }
  const big = makeProject(config, 'dsh-mcp-bench-big-')
  const small = makeProject(config, 'dsh-mcp-bench-small-')
  const built = performance.now()
  const shape = bigTree(big)
  r.note(
    `big project: ${shape.files} files in ${shape.dirs} directories, made in ${fmt(performance.now() - built, 'ms')}`,
  )
  if (inotifyWatches() === null) r.note('no /proc: handle counts unavailable')

  await ours(big.path)
  await peer(big.path)
  const oursBig: Sample[] = []
  const oursSmall: Sample[] = []
  const peerBig: Sample[] = []
  const variants = ['ours', 'peer', 'small'] as const
  for (let i = 0; i < ROUNDS * variants.length; i++) {
    // Rotate the order so no variant always runs right after the peer's teardown; let that teardown settle.
    const which = variants[(i + Math.floor(i / variants.length)) % variants.length]!
    if (which === 'ours') oursBig.push(await ours(big.path))
    else if (which === 'peer') peerBig.push(await peer(big.path))
    else oursSmall.push(await ours(small.path))
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
  const handles = (s: Sample[]) => median(s.map((x) => x.handles ?? Number.NaN))
  const start = (s: Sample[]) => median(s.map((x) => x.startMs))
  const oursHandles = handles(oursBig)
  const peerHandles = handles(peerBig)
  const fewer = ratio(peerHandles, oursHandles)
  r.metric({
    metric: 'inotify watches, 50k-file project',
    ours: fmt(oursHandles),
    baseline: `${fmt(peerHandles)} root depth 2`,
    ratio: `${fmt(fewer)}× fewer`,
    target: '≥ 20× fewer',
    met: Number.isFinite(fewer) ? fewer >= 20 : null,
    raw: { oursBig, peerBig, peerWatchedPaths: median(peerBig.map((s) => s.watchedPaths)) },
  })
  const smallHandles = handles(oursSmall)
  r.metric({
    metric: 'ours: watches, 50k files vs 3-file project',
    ours: fmt(oursHandles),
    baseline: `${fmt(smallHandles)} 3-file project`,
    ratio: `${fmt(ratio(oursHandles, smallHandles))}×`,
    target: 'independent of size (1.0×)',
    met: Number.isFinite(oursHandles) && Number.isFinite(smallHandles) ? oursHandles === smallHandles : null,
    raw: { oursSmall },
  })
  const oursStart = start(oursBig)
  const smallStart = start(oursSmall)
  const peerStart = start(peerBig)
  r.metric({
    metric: 'watcher start p50, 50k vs 3-file project',
    ours: fmt(oursStart, 'ms'),
    baseline: `${fmt(smallStart, 'ms')} 3-file; peer ${fmt(peerStart, 'ms')}`,
    ratio: `${fmt(ratio(oursStart, smallStart))}× (peer ${fmt(ratio(peerStart, oursStart))}× ours)`,
    target: 'independent of size',
    // Start times are noisy: "independent" = within 2× of the 3-file project's, or at most 5 ms more.
    met: oursStart <= Math.max(2 * smallStart, smallStart + 5),
  })
})

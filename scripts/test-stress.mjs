// `npm run test:stress`: the whole suite (`npm test`) with two CPU-burning processes beside it, so a
// test that only passes on a quiet machine fails here. Contract:
// - Two burners (plain Node loops) start before the suite and run until it ends; the suite's exit
//   code is this script's. They run at the suite's own priority by default, so on 2 cores the
//   suite really gets about half the machine (burners at nice 19 would yield to it and prove
//   little); STRESS_NICE=19 runs them at the lowest priority instead. A suite still running after
//   STRESS_TIMEOUT_S seconds (default 1800: on 2 cores beside the burners the suite takes 13-15 min) is ended and counts as a failure.
// - The burners never outlive the run: they are killed when the suite ends, when this script fails
//   or is interrupted (SIGINT, SIGTERM, SIGHUP), and each one also exits by itself as soon as its
//   parent is gone (it checks between 50 ms slices of work), so even a SIGKILLed launcher leaves none.
// - Prints the load average before and after, and the suite's wall time.
import { spawn } from 'node:child_process'
import { loadavg, setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const BURNERS = 2
const timeoutS = Number(process.env.STRESS_TIMEOUT_S ?? 1800)
const nice = Number(process.env.STRESS_NICE ?? 0)

// Burn in 50 ms slices; between slices, exit if the launcher is gone (re-parented) or asked us to.
const BURN = `
const parent = process.ppid
const slice = () => {
  const end = Date.now() + 50
  while (Date.now() < end) {}
  if (process.ppid !== parent) process.exit(0)
  setImmediate(slice)
}
slice()
`

const burners = []
for (let i = 0; i < BURNERS; i++) {
  const child = spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' })
  try {
    if (nice !== 0) setPriority(child.pid, nice)
  } catch (error) {
    // Lowering the priority is best effort (it needs no privilege, but a platform may refuse it).
    console.error(`test:stress: could not lower burner ${child.pid}'s priority: ${error.message}`)
  }
  burners.push(child)
}

function killBurners() {
  for (const b of burners) {
    if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL')
  }
}
process.on('exit', killBurners)

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
console.log(
  `test:stress: ${BURNERS} CPU burners (nice ${nice}, pids ${burners.map((b) => b.pid).join(', ')}); load average ${load()}`,
)

const npm = process.env.npm_execpath
// Its own process group, so ending it ends every test process under it.
const options = { cwd: root, stdio: 'inherit', detached: true }
const suite = npm ? spawn(process.execPath, [npm, 'test'], options) : spawn('npm', ['test'], options)
const endSuite = (signal) => {
  try {
    process.kill(-suite.pid, signal)
  } catch {
    // The group is gone already: nothing to end.
  }
}
const started = Date.now()

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`test:stress: ${signal}: ending the suite and the burners`)
    endSuite(signal)
    killBurners()
    process.exit(1)
  })
}

const timer = setTimeout(() => {
  console.error(`test:stress: the suite is still running after ${timeoutS} s: ending it`)
  endSuite('SIGTERM')
}, timeoutS * 1000)

suite.on('error', (error) => {
  console.error(`test:stress: could not run npm test: ${error.message}`)
  killBurners()
  process.exit(1)
})

suite.on('exit', (code, signal) => {
  clearTimeout(timer)
  const ms = Date.now() - started
  console.log(
    `test:stress: npm test ${signal ? `ended by ${signal}` : `exited ${code}`} after ${(ms / 1000).toFixed(1)} s beside ${BURNERS} burners; load average ${load()}`,
  )
  killBurners()
  process.exit(code ?? 1)
})

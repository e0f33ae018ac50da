// Runs the CLI bundle (`lib/cli-bundle/cli.cjs`, one CommonJS script: scripts/bundle-cli.mjs) through
// `vm.Script` with a V8 code cache, so a run does not parse and compile the same code again.
// Contract:
// - `loadBundle(file, command)` runs `file` as a CommonJS module (`module`, `exports`, its own
//   `__filename` and `__dirname`, and a `require` for builtins: the bundle requires nothing else)
//   in this context and returns `{ exports, saveCache }`. `saveCache()`, called after the command
//   succeeded, writes the script's code cache when none was used (none yet, stale, or rejected by V8):
//   made after the run, it holds every function that run compiled, not only the top level. One
//   cache file per command word (`list`, `get`, …: each compiles different code), Node version and
//   bundle path (a rebuild replaces its file), in `$XDG_CACHE_HOME/dsh-mcp` (else
//   `~/.cache/dsh-mcp`; `%LOCALAPPDATA%\dsh-mcp` on Windows), made only under a directory this
//   user owns.
// - A cache is only an optimization and code: it is used only from a real directory this user owns
//   that no one else can write, from a regular file this user owns, and only when its header names
//   this exact bundle (path, size, mtime, inode), Node version and arch; V8 checks it again (its
//   version and flags, the source's length). It is written 0600 into a 0700 directory through an exclusive temp file and a rename (never
//   through a link). Every failure to read or write one is silent: the CLI runs without it.
// - CommonJS (bin/package.json); requires only builtins.
'use strict'
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')

const MAGIC = 'dsh-mcp-code-cache-1'

/** Where the cache files go, and the directory (this user's) it is made under. */
function cacheDir(env) {
  if (process.platform === 'win32')
    return env.LOCALAPPDATA ? { base: env.LOCALAPPDATA, dir: path.join(env.LOCALAPPDATA, 'dsh-mcp') } : undefined
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME))
    return { base: env.XDG_CACHE_HOME, dir: path.join(env.XDG_CACHE_HOME, 'dsh-mcp') }
  return env.HOME && path.isAbsolute(env.HOME)
    ? { base: env.HOME, dir: path.join(env.HOME, '.cache', 'dsh-mcp') }
    : undefined
}

/** A directory or file this user owns, of the expected type, that neither group nor others can write. */
function ours(st, type) {
  if (!(type === 'dir' ? st.isDirectory() : st.isFile())) return false
  if (typeof process.getuid !== 'function') return true
  return st.uid === process.getuid() && (st.mode & 0o022) === 0
}

function readCache(file, header) {
  let fd
  try {
    const dirSt = fs.lstatSync(path.dirname(file))
    if (!ours(dirSt, 'dir')) return undefined
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
    if (!ours(fs.fstatSync(fd), 'file')) return undefined
    const data = fs.readFileSync(fd)
    const end = data.indexOf(10)
    if (end < 0 || data.toString('utf8', 0, end) !== header) return undefined
    return data.subarray(end + 1)
  } catch {
    // No cache yet, or one we cannot read: run without it.
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

function writeCache(base, file, header, data) {
  const dir = path.dirname(file)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    // Under a directory this user owns only: `sudo` keeping a user's HOME must not leave root's
    // directories in it.
    if (typeof process.getuid === 'function' && fs.statSync(base).uid !== process.getuid()) return
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (!ours(fs.lstatSync(dir), 'dir')) return
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0)
    const fd = fs.openSync(tmp, flags, 0o600)
    try {
      fs.writeSync(fd, `${header}\n`)
      fs.writeSync(fd, data)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(tmp, file)
  } catch {
    // A cache we cannot write (read-only home, a race with another run): the next run compiles again.
    try {
      fs.unlinkSync(tmp)
    } catch {
      // The temp file was never created, or is gone already.
    }
  }
}

/** FNV-1a of `text` in 8 hex digits: tells apart the caches of installs in different places. */
function shortHash(text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, '0')
}

function loadBundle(file, command, env = process.env) {
  // latin1: the bundle is ASCII (scripts/bundle-cli.mjs), and so V8 gets a one-byte string at memory
  // speed instead of a UTF-8 decode of the whole file.
  const source = fs.readFileSync(file, 'latin1')
  const st = fs.statSync(file)
  const where = cacheDir(env)
  const word = /^[a-z][a-z-]{0,31}$/.test(command ?? '') ? command : '_'
  const cacheFile =
    where && path.join(where.dir, `cli-${word}-${process.version}-${process.arch}-${shortHash(file)}.bin`)
  const header = JSON.stringify([MAGIC, file, st.size, st.mtimeMs, st.ino, process.version, process.arch])
  const cachedData = cacheFile ? readCache(cacheFile, header) : undefined
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`
  const script = new vm.Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) })
  const mod = { exports: {} }
  // This module's own `require`: the bundle requires only builtins (test/cli/read-imports.test.ts), and
  // `createRequire` would load `node:module`, which loads the ES loader.
  script.runInThisContext()(mod.exports, require, mod, file, path.dirname(file))
  const saveCache = () => {
    if (cacheFile && (cachedData === undefined || script.cachedDataRejected))
      writeCache(where.base, cacheFile, header, script.createCachedData())
  }
  return { exports: mod.exports, saveCache }
}

module.exports = { loadBundle }

// Node's compile cache for the CLI, only in a directory no other user can write.
// Contract: `enablePrivateCompileCache()` enables `module.enableCompileCache(dir)` (Node >= 22.1; a
// no-op elsewhere) with `dir` = `$XDG_CACHE_HOME/dsh-mcp/compile-cache`, else
// `~/.cache/dsh-mcp/compile-cache` (Windows: `%LOCALAPPDATA%\dsh-mcp\compile-cache`), created 0700.
// Node's default (`$TMPDIR/node-compile-cache`) is never used: another local user can pre-create it
// in a shared /tmp and plant a cache entry that claims our source's hash, so our next run would execute
// their code. The cache is used only when `dir` is a real directory (not a symbolic link), owned by
// this user, neither group- nor world-writable, and its parent is owned by this user or root and
// writable by no one else (unless sticky); otherwise the CLI runs without a cache. Costs one mkdir and
// two lstat calls. `NODE_COMPILE_CACHE` set in the environment is Node's own: Node enables it before
// this file runs, so it is the user's explicit choice (docs/guide/trust.md); `NODE_DISABLE_COMPILE_CACHE`
// disables the cache. Never throws.
import { lstatSync, mkdirSync } from 'node:fs'
import module from 'node:module'
import os from 'node:os'
import path from 'node:path'

/** The private cache directory for this user, or undefined when there is no home to put it in. */
export function compileCacheDir(env = process.env) {
  if (process.platform === 'win32') {
    const base = env.LOCALAPPDATA
    return base && path.isAbsolute(base) ? path.join(base, 'dsh-mcp', 'compile-cache') : undefined
  }
  let base = env.XDG_CACHE_HOME
  if (!base || !path.isAbsolute(base)) {
    let home = ''
    try {
      home = os.homedir()
    } catch {}
    if (!home || !path.isAbsolute(home)) return undefined
    base = path.join(home, '.cache')
  }
  return path.join(base, 'dsh-mcp', 'compile-cache')
}

/** Why `dir` may not hold the cache (undefined: it may). */
export function compileCacheProblem(dir) {
  if (process.platform === 'win32') return undefined
  const me = process.getuid()
  const st = lstatSync(dir)
  if (st.isSymbolicLink()) return 'is a symbolic link'
  if (!st.isDirectory()) return 'is not a directory'
  if (st.uid !== me) return `is owned by another user (uid ${st.uid})`
  if ((st.mode & 0o022) !== 0) return 'is writable by others'
  const up = lstatSync(path.dirname(dir))
  if (up.isSymbolicLink() || !up.isDirectory()) return `${path.dirname(dir)} is not a real directory`
  if (up.uid !== me && up.uid !== 0) return `${path.dirname(dir)} is owned by another user (uid ${up.uid})`
  if ((up.mode & 0o022) !== 0 && (up.mode & 0o1000) === 0) return `${path.dirname(dir)} is writable by others`
  return undefined
}

export function enablePrivateCompileCache() {
  if (typeof module.enableCompileCache !== 'function') return
  // Node already enabled one from NODE_COMPILE_CACHE (or it is disabled): leave it.
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return
  try {
    const dir = compileCacheDir()
    if (!dir) return
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (compileCacheProblem(dir) === undefined) module.enableCompileCache(dir)
  } catch {}
}

/**
 * Watching an exact set of files — never a whole repository.
 *
 * Contract: `setFiles` names the files to watch (absolute paths). Each is
 * watched through its parent directory, non-recursively (`depth: 0`), with an
 * `ignored` filter that admits only the watched files themselves; a parent
 * that does not exist yet is watched through its nearest existing ancestor,
 * admitting just the next path component, so creating `.dsh/` and then
 * `.dsh/mcp.yml` is seen. `onChange(file)` fires on add/change/unlink of a
 * watched file (and for watched files already present in a directory that
 * appears). chokidar drops a second `change` of a path within 50 ms, so every
 * event is followed by a trailing re-check of the file's stat signature
 * (mtime, ctime, size, inode) that reports a change the throttle swallowed. The
 * signature of a file is taken when it is first named; files under a newly
 * watched directory are re-checked when the first scan is done ('ready') and
 * at settle points up to 5 s later, so an edit between naming a file and the
 * watch starting is not lost, however late the watch comes up. A watched file
 * that is a symbolic link also has its target watched (edits there report
 * the link). chokidar goes deaf to a file that is deleted and re-created at
 * once (`git checkout -- f`, `git stash`, `rm f && cp x f`: its per-file
 * watch is closed after the new file appeared) and does not report a link
 * re-pointed in place (it follows each symlink once); both are caught by
 * re-checking every watched file's signature on every raw event of the
 * watched directories, so every later edit is still seen. No listener grows
 * with the number of files or directories watched: one watcher, one
 * listener per event kind. Errors go to `onError`; nothing here throws into
 * the caller. The signature includes ctime, so a change of mode or owner
 * alone (which chokidar does not report) is seen too: a trust store made
 * group-writable is acted on at once; so is a replacement chokidar reports
 * no event for (a FIFO swapped back for a regular file).
 *
 * @module
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import { type FSWatcher, watch } from 'chokidar'

/** Past chokidar's 50 ms per-path `change` throttle. */
const RECHECK_MS = 80
/** When files under a newly watched directory are compared with their first signature (a busy machine sets a watch up late). */
const SETTLE_CHECKS_MS = [100, 400, 1500, 5000]

export interface FileWatcher {
  setFiles(files: Iterable<string>): void
  /** Resolves once the underlying watcher is ready (for tests; events may arrive before). */
  ready(): Promise<void>
  /** Listeners on the underlying watcher, all events (for tests: must not grow with the files watched). */
  listenerCount(): number
  close(): Promise<void>
}

export interface WatchOptions {
  onChange(file: string): void
  onError?(error: unknown): void
}

export function watchFiles(opts: WatchOptions): FileWatcher {
  let files = new Set<string>()
  let roots = new Set<string>()
  let admitted = new Set<string>()
  /** Watched file → what its symlink resolves to (only files that are symlinks). */
  let links = new Map<string, string>()
  let rawCheck: NodeJS.Timeout | undefined
  let firstReady: Promise<void> = Promise.resolve()
  let watcher: FSWatcher | undefined
  let readyPromise: Promise<void> = Promise.resolve()
  let closed = false
  const stamps = new Map<string, string>()
  const rechecks = new Map<string, NodeJS.Timeout>()

  const signature = (file: string): string => {
    try {
      const st = statSync(file)
      return `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`
    } catch {
      return 'absent'
    }
  }
  const recheckUnder = (dirs: readonly string[]) => {
    for (const delay of SETTLE_CHECKS_MS) {
      const timer = setTimeout(() => {
        if (closed) return
        for (const f of files)
          if (dirs.some((d) => f.startsWith(d + path.sep)) && signature(f) !== stamps.get(f)) report(f)
      }, delay)
      timer.unref?.()
    }
  }
  const linkTarget = (file: string): string | undefined => {
    try {
      if (!lstatSync(file).isSymbolicLink()) return undefined
    } catch {
      return undefined
    }
    try {
      return realpathSync(file)
    } catch {
      // a dangling link: fall back to where it points
    }
    try {
      return path.resolve(path.dirname(file), readlinkSync(file))
    } catch {
      return undefined
    }
  }
  const report = (file: string) => {
    stamps.set(file, signature(file))
    if (linkTarget(file) !== links.get(file)) safe(apply)
    opts.onChange(file)
    const pending = rechecks.get(file)
    if (pending) clearTimeout(pending)
    const timer = setTimeout(() => {
      rechecks.delete(file)
      if (closed || !files.has(file)) return
      if (signature(file) !== stamps.get(file)) report(file)
    }, RECHECK_MS)
    timer.unref?.()
    rechecks.set(file, timer)
  }

  const ignored = (p: string): boolean => !(roots.has(p) || admitted.has(p))
  const safe = (fn: () => void) => {
    try {
      fn()
    } catch (error) {
      opts.onError?.(error)
    }
  }

  const compute = () => {
    const nextRoots = new Set<string>()
    const nextLinks = new Map<string, string>()
    for (const file of files) {
      const target = linkTarget(file)
      if (target !== undefined && target !== file) nextLinks.set(file, target)
    }
    const watched = [...files, ...nextLinks.values()]
    const nextAdmitted = new Set<string>(watched)
    for (const file of watched) {
      let dir = path.dirname(file)
      let child = file
      while (!existsSync(dir) && path.dirname(dir) !== dir) {
        child = dir
        dir = path.dirname(dir)
      }
      nextRoots.add(dir)
      nextAdmitted.add(child)
    }
    return { nextRoots, nextAdmitted, nextLinks }
  }

  const apply = () => {
    if (closed) return
    const { nextRoots, nextAdmitted, nextLinks } = compute()
    const added = [...nextRoots].filter((r) => !roots.has(r))
    // A root that vanished is already dropped by chokidar; unwatching it would make chokidar ignore the
    // path for good, so its parent's addDir (the directory coming back) would never be seen.
    const removed = [...roots].filter((r) => !nextRoots.has(r) && existsSync(r))
    admitted = nextAdmitted
    roots = nextRoots
    links = nextLinks
    if (!watcher) {
      if (roots.size === 0) return
      watcher = watch([...roots], { depth: 0, ignoreInitial: true, ignored, persistent: false, atomic: true })
      const w = watcher
      // chokidar emits 'ready' once per watcher, never again after `add`: one listener, for good.
      firstReady = new Promise<void>((resolve) => w.once('ready', () => resolve()))
      // Once the first scan is done the watch is up for sure: an edit made before it has no event of its own.
      void firstReady.then(() => {
        if (!closed) for (const f of files) if (signature(f) !== stamps.get(f)) report(f)
      })
      readyPromise = firstReady
      w.on('all', (event, p) => safe(() => onEvent(event, p)))
      // Any raw event of a watched directory re-checks every watched file's signature: chokidar loses
      // its per-file watch when a file is deleted and re-created at once (git checkout, stash, rm && cp)
      // and reports nothing after; a re-pointed symlink is not reported either.
      w.on('raw', () => {
        if (rawCheck) return
        rawCheck = setTimeout(() => {
          rawCheck = undefined
          if (!closed) for (const f of files) if (signature(f) !== stamps.get(f)) report(f)
        }, 20)
        rawCheck.unref?.()
      })
      w.on('error', (error) => opts.onError?.(error))
      recheckUnder([...roots])
      return
    }
    if (removed.length) watcher.unwatch(removed)
    if (added.length) {
      const first = firstReady
      readyPromise = new Promise<void>((resolve) => {
        // Before the first 'ready', chokidar counts the added roots in; after it, a short settle.
        first.then(() => setTimeout(resolve, 200).unref())
      })
      watcher.add(added)
      recheckUnder(added)
    }
  }

  const onEvent = (event: string, p: string) => {
    if (event === 'addDir' || event === 'unlinkDir') {
      const before = roots
      apply()
      // Watched files inside a directory that just appeared (or vanished) may have no event of their own.
      for (const f of files)
        if (f.startsWith(p + path.sep) && (event === 'unlinkDir' || existsSync(f) || !before.has(path.dirname(f))))
          report(f)
      for (const [f, t] of links) if (t.startsWith(p + path.sep)) report(f)
      return
    }
    if (files.has(p)) report(p)
    for (const [f, t] of links) if (t === p && f !== p) report(f)
  }

  return {
    setFiles(list) {
      const next = new Set([...list].map((f) => path.resolve(f)))
      if (next.size === files.size && [...next].every((f) => files.has(f))) return
      files = next
      for (const f of files) if (!stamps.has(f)) stamps.set(f, signature(f))
      for (const f of [...stamps.keys()]) if (!files.has(f)) stamps.delete(f)
      safe(apply)
    },
    ready: () => readyPromise,
    listenerCount: () =>
      watcher ? watcher.eventNames().reduce((n, e) => n + (watcher as FSWatcher).listenerCount(e), 0) : 0,
    async close() {
      closed = true
      if (rawCheck) clearTimeout(rawCheck)
      for (const t of rechecks.values()) clearTimeout(t)
      rechecks.clear()
      const w = watcher
      watcher = undefined
      if (w) await w.close().catch((error: unknown) => opts.onError?.(error))
    },
  }
}

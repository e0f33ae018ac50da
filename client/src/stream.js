/**
 * The data behind every component: the host route
 * `/api/dsh-project-mcp/events?cwd=<cwd>` (server-sent events, one view per
 * change), so rows update without a reload.
 *
 * Contract: one `EventSource` per cwd, shared by every component showing it
 * and closed when the last one unmounts. `useView(cwd)` re-renders on every
 * message and returns `{ view, failed }` (`failed` only while no view has
 * arrived and the stream errs; a message that is not JSON is ignored).
 * `useCwd(useSessions, sessionId)` is the session's cwd (the current session
 * when `sessionId` is undefined). Read-only: nothing here starts, wakes or
 * trusts a server.
 */
import { React } from './react.js'

// One event stream per cwd, shared by every component showing it.
const streams = new Map()
function stream(cwd) {
  let s = streams.get(cwd)
  if (!s) {
    s = { view: undefined, failed: false, listeners: new Set(), source: undefined }
    const url = `/api/dsh-project-mcp/events${cwd ? `?cwd=${encodeURIComponent(cwd)}` : ''}`
    const entry = s
    entry.source = new EventSource(url)
    entry.source.onmessage = (event) => {
      try {
        entry.view = JSON.parse(event.data)
        entry.failed = false
      } catch {
        return
      }
      for (const l of entry.listeners) l()
    }
    entry.source.onerror = () => {
      entry.failed = entry.view === undefined
      for (const l of entry.listeners) l()
    }
    streams.set(cwd, s)
  }
  return s
}
export function useView(cwd) {
  const key = cwd ?? ''
  const [, bump] = React.useState(0)
  React.useEffect(() => {
    const s = stream(key)
    const listener = () => bump((n) => n + 1)
    s.listeners.add(listener)
    listener()
    return () => {
      s.listeners.delete(listener)
      if (s.listeners.size === 0) {
        s.source?.close()
        streams.delete(key)
      }
    }
  }, [key])
  const s = streams.get(key)
  return { view: s?.view, failed: s?.failed === true }
}
export function useCwd(useSessions, sessionId) {
  return useSessions((state) => {
    const id = sessionId ?? state.current
    if (id === undefined) return undefined
    return state.byId?.[id]?.cwd
  })
}

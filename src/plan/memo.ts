/**
 * Plan memo: the desired state, re-judging only the views whose inputs changed.
 *
 * Contract: `plan(input)` returns exactly what `desiredState(input)` returns
 * (the same placements, mounts and order) and asks `input.trust` about the
 * same rows in the same order — a reused view asks them again to learn it is
 * still current, a view judged again may ask a row twice. A view (the global
 * one, or one project) is reused when all of these are unchanged since it was
 * judged: its `LayerInput`s and the user layer's (by identity, in order), its `locks` (by identity),
 * `dshHome`, the platform, `requireLock`, the trust store's problem for every root its rows asked about, the withheld names and the cache secret, the value of every variable its rows read from
 * `env`, every answer the secret store gave it (`has` and `read`, asked again), every trust verdict and every team answer its rows got (each with the root asked: a monorepo parent's row asks for the parent). So callers must hand in a new
 * `LayerInput` whenever a file's content changes, and never mutate one. A
 * project missing from an input is forgotten. Pure apart from its own cache.
 *
 * @module
 */
import type { Env, SecretSource } from '../config/expand.ts'
import { type LayerInput, mergeLayers, type Row } from '../config/layers.ts'
import {
  assemblePlan,
  judgeView,
  type Plan,
  type PlanInput,
  type ProjectInput,
  projectRows,
  type ViewInput,
  type ViewJudgement,
} from './desired.ts'
import { signatureKey, type TrustState } from '../trust/state.ts'

export interface PlanMemo {
  plan(input: PlanInput): Plan
}

interface View {
  layers: readonly LayerInput[]
  /** The project's locks as handed in (by identity). */
  locks: ProjectInput['locks']
  user: readonly LayerInput[]
  dshHome: string
  platform: string
  rows: Row[]
  /** Every variable the judgement read, with the value it read. */
  read: Map<string, string | undefined>
  /** Every answer the secret store gave the judgement: [root asked, has|read, name, answer]. */
  secretAnswers: [string | null, keyof SecretSource, string, boolean | string | undefined][]
  /** Every trust verdict the judgement got, in order, with the root it was asked for. */
  asked: [string, Row, TrustState][]
  /** Every team answer the judgement got (trust/state.ts `signatureKey`), in order, with the root asked. */
  teamAsked: [string, Row, string][]
  /** The store problems the judgement saw, per root asked (a parent directory's rows ask for theirs). */
  storeProblem: [string, string | undefined][]
  withheld: PlanInput['withheld']
  cacheSecret: PlanInput['cacheSecret']
  requireLock: PlanInput['requireLock']
  judged: ViewJudgement
}

const same = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i])

export function createPlanMemo(): PlanMemo {
  let global: View | undefined
  let projects = new Map<string, View>()

  const view = (
    prev: View | undefined,
    root: string | null,
    layers: readonly LayerInput[],
    locks: ProjectInput['locks'],
    input: PlanInput,
    rowsOf: () => Row[],
  ): View => {
    const platform = input.platform
    const sameFiles =
      prev !== undefined && same(prev.layers, layers) && same(prev.user, input.user) && prev.locks === locks
    if (
      sameFiles &&
      prev.dshHome === input.dshHome &&
      prev.platform === platform &&
      prev.storeProblem.every(([r, problem]) => input.storeProblem?.(r) === problem) &&
      prev.withheld === input.withheld &&
      prev.cacheSecret === input.cacheSecret &&
      prev.requireLock === input.requireLock &&
      [...prev.read].every(([name, value]) => input.env[name] === value) &&
      prev.secretAnswers.every(([r, kind, name, answer]) => input.secrets?.(r)[kind](name) === answer) &&
      prev.asked.every(([r, row, verdict]) => input.trust(r, row) === verdict) &&
      prev.teamAsked.every(([r, row, key]) => signatureKey(input.team?.(r, row)) === key)
    ) {
      return prev
    }
    const rows = sameFiles ? prev.rows : rowsOf()
    const read = new Map<string, string | undefined>()
    const asked: View['asked'] = []
    const teamAsked: View['teamAsked'] = []
    const secretAnswers: View['secretAnswers'] = []
    const storeProblem: View['storeProblem'] = []
    const secrets = input.secrets
    const env: Env = new Proxy(input.env, {
      get(target, name) {
        const value = Reflect.get(target, name)
        if (typeof name === 'string') read.set(name, value)
        return value
      },
    })
    const judging: ViewInput = {
      env,
      dshHome: input.dshHome,
      platform,
      trust(r, row) {
        const verdict = input.trust(r, row)
        asked.push([r, row, verdict])
        return verdict
      },
      ...(input.team
        ? {
            team(r: string, row: Row) {
              const answer = input.team?.(r, row)
              teamAsked.push([r, row, signatureKey(answer)])
              return answer
            },
          }
        : {}),
      ...(input.storeProblem
        ? {
            storeProblem: (r: string) => {
              const problem = input.storeProblem!(r)
              storeProblem.push([r, problem])
              return problem
            },
          }
        : {}),
      ...(input.withheld ? { withheld: input.withheld } : {}),
      ...(secrets
        ? {
            secrets: (r: string | null): SecretSource => {
              const store = secrets(r)
              return {
                has: (n) => {
                  const answer = store.has(n)
                  secretAnswers.push([r, 'has', n, answer])
                  return answer
                },
                read: (n) => {
                  const answer = store.read(n)
                  secretAnswers.push([r, 'read', n, answer])
                  return answer
                },
                userScoped: (n) => {
                  const answer = store.userScoped(n)
                  secretAnswers.push([r, 'userScoped', n, answer])
                  return answer
                },
              }
            },
          }
        : {}),
      ...(input.cacheSecret ? { cacheSecret: input.cacheSecret } : {}),
      ...(input.requireLock ? { requireLock: true } : {}),
    }
    return {
      layers,
      locks,
      user: input.user,
      dshHome: input.dshHome,
      platform,
      rows,
      read,
      asked,
      teamAsked,
      secretAnswers,
      storeProblem,
      withheld: input.withheld,
      cacheSecret: input.cacheSecret,
      requireLock: input.requireLock,
      judged: judgeView(rows, root, judging),
    }
  }

  return {
    plan(input) {
      global = view(global, null, [], undefined, input, () => mergeLayers(input.user))
      const next = new Map<string, View>()
      const judged = input.projects.map((p) => {
        const v = view(next.get(p.root) ?? projects.get(p.root), p.root, p.layers, p.locks, input, () =>
          projectRows(p, input.user),
        )
        next.set(p.root, v)
        return [p.root, v.judged] as const
      })
      projects = next
      return assemblePlan(global.judged, judged)
    },
  }
}

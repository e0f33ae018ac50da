/**
 * The lazy-lifecycle rows of the field table (`lifecycle`, `idleTimeoutMs`):
 * whether a server starts with its project or on the first tool call, and when
 * an idle lazy server stops.
 *
 * Contract: pure data in the shape of every row (field-spec.ts), declared once
 * here and spread into `FIELDS` (fields.ts) at their place in the table's
 * order; read them through fields.ts, never from here.
 *
 * @module
 */
import type { FieldSpec } from './field-spec.ts'

export const LAZY_FIELDS = {
  lifecycle: {
    type: 'lifecycle',
    docs: 'eager: start with the project; lazy: start on the first tool call (tools offered from the cache meanwhile).',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: false,
    view: 'own',
    export: {},
    flag: {
      flags: '--lifecycle <lifecycle>',
      help: 'eager (start with the project) or lazy (start on the first tool call)',
      choices: ['eager', 'lazy'],
    },
  },
  idleTimeoutMs: {
    type: 'millis0',
    docs: 'lazy: stop the server after this long without a call (0: never).',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: false,
    view: 'own',
    export: {},
    flag: { flags: '--idle-timeout <ms>', help: 'lazy: stop the server after this long without a call (0: never)' },
  },
} as const satisfies Record<string, FieldSpec>

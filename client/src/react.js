/**
 * The host's React, the one import every component module shares.
 *
 * Contract: `require` is the loader's own (the parameter of the factory that
 * scripts/bundle-client.mjs wraps the bundle in), so this is the React the
 * `dsh web` page renders with; `h` is its `createElement`. Nothing else here.
 */
export const React = require('react')
export const h = React.createElement

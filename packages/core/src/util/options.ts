/** Options objects of the public API: a key the API does not read is refused, never ignored. */
import { CtxpruneError } from '../errors.js';
import { own } from './own.js';

/**
 * Throws INVALID_OPTION naming the first key of `options` that `known` lacks: a typo (`budget` for
 * `tokens`, `lambda` for `redundancyWeight`) would otherwise change nothing, silently. A key set
 * to undefined is no option (callers spread optional settings). `known` is a Record over the
 * options type's keys, so that the compiler keeps the two equal.
 */
export function refuseUnknownOptions(options: object, known: Readonly<Record<string, true>>): void {
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && own(known, key) === undefined) {
      throw new CtxpruneError('INVALID_OPTION', `unknown option ${JSON.stringify(key)} (options: ${Object.keys(known).join(', ')})`);
    }
  }
}

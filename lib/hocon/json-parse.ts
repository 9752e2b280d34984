import { parseHocon } from './document';
import type { HoconValue } from './values';

/**
 * Parses JSON as strictly as `JSON.parse`, except that integers outside the safe range become
 * bigint with every digit kept (Zeta's 63-bit job ids; `JSON.parse` rounds them). Objects nest at
 * most `DEFAULT_LIMITS.maxDepth` levels when such an integer is present. The caller bounds the size.
 * @throws SyntaxError for invalid JSON; HoconError when nested too deeply.
 */
export function parseJson(text: string): HoconValue {
  const plain = JSON.parse(text) as HoconValue;
  // Digits enough to be unsafe (2^53 has 16) anywhere, even in a string: then read it exactly.
  if (!/[0-9]{16}/.test(text)) return plain;
  // Valid JSON is valid HOCON with the same meaning (keys are quoted, so never paths or includes),
  // except that a repeated key holding objects merges them where JSON.parse keeps the last.
  const wrapped = parseHocon(`{"v":${text}\n}`, {
    limits: { maxSourceChars: Infinity, maxTotalSourceChars: Infinity },
  });
  return wrapped.resolve().v;
}

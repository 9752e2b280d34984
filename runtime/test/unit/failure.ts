import { RuntimeFailure } from '../../src/outcome';

/** The RuntimeFailure `fn` throws (anything else is rethrown; no throw fails the test). */
export function failure(fn: () => unknown): RuntimeFailure {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuntimeFailure) return e;
    throw e;
  }
  throw new Error('expected a RuntimeFailure');
}

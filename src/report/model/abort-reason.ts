/**
 * Why a run could not judge the target, in one line: the error's own words, then what the target
 * answered when it answered (a 401's body says which credential it wanted). The aborted report
 * puts it in `summary.reason` and in every rule's reason; the console prints it last.
 */
import type { ConformanceError } from '../../core/errors.ts';
import { targetSaidSuffix } from './target-words.ts';

export function abortReason(error: Pick<ConformanceError, 'message' | 'answer'>): string {
  return `${error.message}${targetSaidSuffix({ message: error.message, ...(error.answer ? { response: error.answer } : {}) })}`;
}
